# expected: child-failed
# initiating_rank: 2
# nproc: 4
# variants: plain logs
# env: PYTHONFAULTHANDLER=1
# note: the job runs with PYTHONFAULTHANDLER=1; rank 2 calls os.abort() (what a failed C assertion in a native library does) at step 3, so Python's fault handler prints "Fatal Python error: Aborted" and the thread's stack before the process dies by SIGABRT; no exception; the peers lose the connection. Not a C++ exception (worker-abort-exception), so the launcher's report for rank 2 is what remains.
"""SIGABRT on rank 2 with Python's fault handler enabled."""
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def check_invariants(rank, step):
    if rank == 2 and step == 3:
        os.abort()  # stands for assert() failing inside a native extension


def main():
    rank, world = setup()
    model = DDP(MLP(d_in=4, hidden=8, d_out=2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(8):
        loss = model(torch.randn(5, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        check_invariants(rank, step)
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
