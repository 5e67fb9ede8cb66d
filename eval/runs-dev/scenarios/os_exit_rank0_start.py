# expected: child-failed
# initiating_rank: 0
# nproc: 3
# variants: plain
# note: rank 0 runs a pre-flight check after joining the process group and leaves through os._exit(1) (the exit path of a forked helper, reached in the main process): no traceback, no atexit handlers, no output; ranks 1 and 2 lose the connection in their first all-reduce. Only the launcher's report for rank 0 (exit code 1) shows it.
"""Rank 0 dies by os._exit(1) before the first step."""
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def preflight(rank):
    pid = os.getpid()
    if rank == 0:
        os._exit(1)  # meant for the child after fork(); the fork was removed, the exit was not
    return pid


def main():
    rank, world = setup()
    model = DDP(torch.nn.Linear(8, 2))
    preflight(rank)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(6):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
