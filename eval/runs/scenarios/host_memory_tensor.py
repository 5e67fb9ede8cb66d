# expected: host-oom
# initiating_rank: 1
# nproc: 2
# variants: plain record
# ulimit: -v 3000000
# note: the job runs with a 3 GB address-space limit per process (ulimit -v, standing for a container's memory limit); rank 1 materialises a dense 50000x50000 float32 co-occurrence matrix (10 GB) for its shard and torch's CPU allocator fails ("DefaultCPUAllocator: can't allocate memory"); rank 0 waits in the all-reduce.
"""Rank 1 builds a dense statistics matrix far larger than the memory the job may use."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def vocab_size_of_shard(rank):
    return 50000 if rank == 1 else 2000  # rank 1 got the shard with the full vocabulary


def main():
    rank, world = setup()
    v = vocab_size_of_shard(rank)
    log(rank, f"building co-occurrence matrix for {v} tokens")
    cooc = torch.zeros(v, v)
    stat = cooc.sum().reshape(1)
    dist.all_reduce(stat)
    log(rank, "statistics ready")


if __name__ == "__main__":
    entry(main)
