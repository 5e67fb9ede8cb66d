# expected: disk-full
# initiating_rank: 1
# nproc: 4
# variants: logs record
# setup: tmpfs:ckpt:1m
# note: every rank saves its own optimizer-state shard into ckpt/, a 1 MiB tmpfs; ranks 0, 2, 3 hold small shards (about 40 KB) but rank 1 holds the embedding's state (about 2 MB), rank 1 writes after the others (the embedding owner saves last) and its torch.save fails with ENOSPC (No space left on device) while the others wait in the barrier.
"""Per-rank optimizer shards saved to a small filesystem; rank 1's shard does not fit."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def shard_state(rank):
    rows = 8000 if rank == 1 else 150  # rank 1 owns the embedding table's slice
    g = torch.Generator().manual_seed(rank)
    return {"exp_avg": torch.randn(rows, 32, generator=g), "exp_avg_sq": torch.rand(rows, 32, generator=g),
            "step": 100}


def main():
    rank, world = setup()
    state = shard_state(rank)
    log(rank, f"optimizer shard of {sum(t.numel() for t in state.values() if torch.is_tensor(t))} values")
    dist.barrier()
    for turn in (False, True):  # the embedding owner writes last, when the small shards are done
        if (rank == 1) == turn:
            torch.save(state, f"ckpt/optim_rank{rank:02d}.pt")
            log(rank, "shard saved")
        dist.barrier()
    log(rank, "checkpoint complete")


if __name__ == "__main__":
    entry(main)
