# expected: collective-mismatch
# initiating_rank: 1
# nproc: 2
# variants: plain logs record
# note: all_gather of per-rank predictions where rank 1 holds 7 rows instead of 8 (its last, partial batch); the tensor shapes in the collective differ across ranks and gloo raises.
"""Gathering evaluation predictions from all ranks; rank 1's last batch is smaller."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=20)
    for batch in range(4):
        n = 7 if (rank == 1 and batch == 3) else 8
        preds = torch.full((n, 4), float(rank))
        out = [torch.empty(8, 4) for _ in range(world)]
        dist.all_gather(out, preds)
        log(rank, f"eval batch {batch}: gathered {sum(t.shape[0] for t in out)} predictions")


if __name__ == "__main__":
    entry(main)
