# expected: child-failed
# initiating_rank: 3
# nproc: 4
# variants: logs
# note: rank 3 calls abort() (what a failed C assert in a native library does) at step 2; SIGABRT with no "terminate called" and no Python error; peers lose the connection. Not a C++ exception (worker-abort-exception), so the launcher's report for rank 3 is what remains.
"""One rank aborts in native code (a failed C assertion) mid-training."""
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def native_check(rank, step):
    if rank == 3 and step == 2:
        os.abort()


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    for step in range(8):
        native_check(rank, step)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
