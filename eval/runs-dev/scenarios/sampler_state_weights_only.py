# expected: checkpoint-weights-only
# initiating_rank: 1
# nproc: 3
# variants: plain logs
# note: every rank restores its own data-sampler state from a per-rank file saved by the previous run; rank 1's file was written by an older version of the script that stored the shuffle order as a NumPy array, and the resume code loads with torch.load(weights_only=True), so rank 1 raises "Weights only load failed" (the unpickler refuses NumPy's reconstruct); ranks 0 and 2 wait in the barrier after restoring and lose the connection.
"""Restoring a per-rank sampler state with torch.load(weights_only=True); rank 1's holds a NumPy array."""
import numpy as np
import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=20)
    path = f"sampler_state_rank{rank}.pt"
    order = np.arange(100) if rank == 1 else torch.arange(100)  # rank 1's file is from the old script
    torch.save({"epoch": 3, "order": order}, path)
    state = torch.load(path, weights_only=True)
    log(rank, f"sampler restored at epoch {state['epoch']}")
    dist.barrier()
    log(rank, "resumed")


if __name__ == "__main__":
    entry(main)
