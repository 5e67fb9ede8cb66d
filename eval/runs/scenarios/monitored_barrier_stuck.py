# expected: rank-stuck-outside-collective
# initiating_rank: 3
# nproc: 4
# variants: plain
# note: at the end of the epoch all ranks enter dist.monitored_barrier(timeout=4s) except rank 3, which is still busy (a 10 s sleep standing for a slow evaluation); rank 0 reports that rank 3 failed to pass the monitored barrier.
"""An end-of-epoch monitored_barrier that one rank reaches far too late."""
import time
from datetime import timedelta

import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=20)
    for step in range(3):
        t = torch.tensor([float(rank)])
        dist.all_reduce(t)
        log(rank, f"step {step} sum of ranks {t.item():.0f}")
    if rank == 3:
        time.sleep(10)  # a per-rank evaluation that hangs on this worker
    dist.monitored_barrier(timeout=timedelta(seconds=4))
    log(rank, "epoch finished")


if __name__ == "__main__":
    entry(main)
