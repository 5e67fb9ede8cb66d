# expected: collective-mismatch
# initiating_rank: 1
# nproc: 2
# variants: logs
# note: a gradient-norm all_reduce where rank 1 computed its norm in float64 and rank 0 in float32; the same collective carries different dtypes (different byte counts) and gloo fails.
"""All-reduce of a statistic whose dtype differs between ranks."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=8)
    for step in range(4):
        grads = torch.randn(128)
        norm = grads.double().norm() if (rank == 1 and step == 2) else grads.norm()
        stat = norm.reshape(1).repeat(4)
        dist.all_reduce(stat)
        log(rank, f"step {step} global grad norm {stat[0].item():.3f}")


if __name__ == "__main__":
    entry(main)
