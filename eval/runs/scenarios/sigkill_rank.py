# expected: worker-sigkill
# initiating_rank: 1
# nproc: 4
# variants: plain logs record
# note: at step 4 rank 1 is killed with SIGKILL (what the OOM killer or an operator's kill -9 does; here the process sends it to itself); no Python error, the peers lose the connection in the all-reduce.
"""DDP loop in which one rank disappears by SIGKILL mid-training."""
import os
import signal

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(10):
        if rank == 1 and step == 4:
            os.kill(os.getpid(), signal.SIGKILL)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
