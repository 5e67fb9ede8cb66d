# expected: collective-mismatch
# initiating_rank: 1
# nproc: 2
# variants: plain
# note: without debug mode, rank 1 skips one all_reduce of a metric (its "log this step" condition differs) and issues the next collective, a broadcast of 64 floats, while rank 0 is still in the all_reduce of 1 float; gloo reports an error on the mismatched buffers or the ranks time out (timeout 8 s).
"""Rank-dependent logging condition around a collective, no TORCH_DISTRIBUTED_DEBUG."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=8)
    params = torch.zeros(64)
    for step in range(6):
        local_loss = torch.tensor([0.5 + step + rank])
        log_this_step = step % 2 == 0 or rank == 0  # meant to be the same on every rank
        if log_this_step:
            dist.all_reduce(local_loss)
            log(rank, f"step {step} mean loss {local_loss.item() / 2:.3f}")
        dist.broadcast(params, src=0)


if __name__ == "__main__":
    entry(main)
