# expected: none
# nproc: 4
# variants: logs
# note: healthy all-reduce bandwidth benchmark over gloo on 4 ranks: sizes from 4 KB to 4 MB, a timing line per size from rank 0; nothing fails.
"""A small all-reduce benchmark with a results table."""
import time

import torch
import torch.distributed as dist

from common import entry, setup


def main():
    rank, world = setup()
    if rank == 0:
        print(f"{'size (bytes)':>14} {'time (ms)':>10} {'algbw (MB/s)':>13}")
    for exp in range(12, 23, 2):
        n = (1 << exp) // 4
        t = torch.ones(n)
        for _ in range(2):
            dist.all_reduce(t)
        dist.barrier()
        t0 = time.time()
        iters = 5
        for _ in range(iters):
            dist.all_reduce(t)
        dt = (time.time() - t0) / iters
        if rank == 0:
            print(f"{n * 4:>14} {dt * 1e3:>10.2f} {n * 4 / dt / 1e6:>13.1f}")
    if rank == 0:
        print("benchmark complete")
    dist.destroy_process_group()


if __name__ == "__main__":
    entry(main)
