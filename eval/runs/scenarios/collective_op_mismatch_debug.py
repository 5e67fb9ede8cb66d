# expected: collective-mismatch
# initiating_rank: 2
# nproc: 4
# variants: plain logs record
# env: TORCH_DISTRIBUTED_DEBUG=DETAIL
# note: with TORCH_DISTRIBUTED_DEBUG=DETAIL, rank 2 takes a code path that broadcasts a metric while the other ranks all-reduce it; the wrapper process group reports the mismatch between collectives.
"""Metric synchronisation where one rank takes a different branch (rank-dependent collective)."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=20)
    for step in range(6):
        metric = torch.tensor([float(step + rank)])
        if step == 3 and rank == 2:
            dist.broadcast(metric, src=0)  # the "best checkpoint" branch only this rank entered
        else:
            dist.all_reduce(metric)
        log(rank, f"step {step} metric {metric.item():.1f}")


if __name__ == "__main__":
    entry(main)
