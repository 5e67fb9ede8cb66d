# expected: checkpoint-key-mismatch
# nproc: 2
# variants: plain record
# note: the checkpoint was saved from the DDP wrapper (model.state_dict(), keys "module.fc1.weight", ...) and is loaded into the bare model with strict loading; load_state_dict raises Missing/Unexpected key(s) on every rank at start-up.
"""Resume a bare model from a state_dict saved from the DDP-wrapped model."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    ddp = DDP(MLP())
    if rank == 0:
        os.makedirs("checkpoints", exist_ok=True)
        torch.save(ddp.state_dict(), "checkpoints/step_500.pt")  # keys carry the "module." prefix
        log(rank, "saved checkpoints/step_500.pt")
    dist.barrier()
    model = MLP()
    state = torch.load("checkpoints/step_500.pt", map_location="cpu")
    model.load_state_dict(state)
    log(rank, "resumed from checkpoints/step_500.pt")


if __name__ == "__main__":
    entry(main)
