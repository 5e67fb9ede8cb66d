# expected: checkpoint-corrupted
# nproc: 2
# variants: plain
# note: the resume checkpoint was cut to half its size (an interrupted copy); every rank's torch.load fails with PytorchStreamReader's "failed finding central directory" at start-up. All ranks fail together, so no initiating rank.
"""Resume from checkpoints/last.pt, which a previous interrupted copy left truncated."""
import os

import torch
import torch.distributed as dist

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    path = "checkpoints/last.pt"
    if rank == 0:
        os.makedirs("checkpoints", exist_ok=True)
        torch.save({"model": MLP(hidden=256).state_dict(), "step": 1200}, path)
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.truncate(size // 2)
    dist.barrier()
    log(rank, f"resuming from {path}")
    state = torch.load(path, map_location="cpu")
    model = MLP(hidden=256)
    model.load_state_dict(state["model"])
    log(rank, f"resumed at step {state['step']}")


if __name__ == "__main__":
    entry(main)
