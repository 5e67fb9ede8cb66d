# expected: checkpoint-corrupted
# initiating_rank: 2
# nproc: 4
# variants: plain logs
# note: resume from a sharded checkpoint, one file per rank; rank 2's shard was cut to a third of its size (an interrupted copy), so torch.load fails on rank 2 only (torch 1.13: a PytorchStreamReader error or OSError [Errno 22]); ranks 0, 1, 3 load fine and wait in the barrier that follows.
"""Sharded resume where one rank's shard file is truncated."""
import os

import torch
import torch.distributed as dist

from common import entry, log, setup


def write_shards(world):
    os.makedirs("resume", exist_ok=True)
    for r in range(world):
        torch.save({"w": torch.randn(256, 64), "step": 1200}, f"resume/shard_{r}.pt")
    size = os.path.getsize("resume/shard_2.pt")
    with open("resume/shard_2.pt", "r+b") as f:
        f.truncate(size // 3)


def main():
    rank, world = setup()
    if rank == 0:
        write_shards(world)  # stands for the copy from the previous job's storage
    dist.barrier()
    log(rank, f"loading resume/shard_{rank}.pt")
    state = torch.load(f"resume/shard_{rank}.pt", map_location="cpu")
    log(rank, f"resumed at step {state['step']}")
    dist.barrier()


if __name__ == "__main__":
    entry(main)
