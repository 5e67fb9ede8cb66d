# expected: host-oom
# initiating_rank: 1
# nproc: 2
# variants: plain
# ulimit: -v 3000000
# note: the job runs with a 3 GB address-space limit per process (ulimit -v); rank 1 keeps a Python list of a billion token ids (an in-memory cache of its whole shard) and the interpreter raises a bare MemoryError; rank 0 waits in the all-reduce.
"""Rank 1 caches its whole tokenised shard in a Python list."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup()
    n_tokens = 1_000_000_000 if rank == 1 else 1_000_000
    log(rank, f"caching {n_tokens} token ids")
    cache = [0] * n_tokens
    t = torch.tensor([float(len(cache))])
    dist.all_reduce(t)
    log(rank, f"total cached tokens {t.item():.0f}")


if __name__ == "__main__":
    entry(main)
