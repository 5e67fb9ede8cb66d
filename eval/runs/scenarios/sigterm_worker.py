# expected: child-failed
# initiating_rank: 1
# nproc: 2
# variants: logs
# note: rank 1's process alone receives SIGTERM at step 5 (sent by something on the node, not by the scheduler: the launcher itself is not signalled); it dies with exit code -15, no Python error; rank 0 loses the connection. Not a preemption of the job, so the launcher's report for rank 1 is what remains.
"""A training loop where one worker process is terminated by SIGTERM."""
import os
import signal

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    for step in range(12):
        if rank == 1 and step == 5:
            os.kill(os.getpid(), signal.SIGTERM)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
