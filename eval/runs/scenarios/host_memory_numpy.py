# expected: host-oom
# initiating_rank: 0
# nproc: 2
# variants: logs
# ulimit: -v 3000000
# note: the job runs with a 3 GB address-space limit per process (ulimit -v); rank 0 alone loads the whole evaluation set into one NumPy array (about 9 GiB) and NumPy raises MemoryError "Unable to allocate 9.31 GiB for an array"; rank 1 waits in the barrier.
"""Rank 0 loads the entire evaluation set into memory at once."""
import numpy as np
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup()
    if rank == 0:
        log(rank, "loading evaluation set (50000 x 50000 features)")
        feats = np.zeros((50000, 50000), dtype=np.float32) + 1.0
        log(rank, f"loaded {feats.shape}")
    dist.barrier()


if __name__ == "__main__":
    entry(main)
