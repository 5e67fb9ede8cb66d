# expected: child-failed
# initiating_rank: 2
# nproc: 4
# variants: plain
# note: rank 2 calls os._exit(3) at step 4 (a forked helper's exit path reached in the main process); no exception, no atexit handlers; peers lose the connection. The launcher's report for rank 2 (exit code 3) is the only evidence.
"""One rank ends abruptly through os._exit."""
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    for step in range(10):
        if rank == 2 and step == 4:
            os._exit(3)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
