# expected: checkpoint-shape-mismatch
# nproc: 2
# variants: logs
# note: fine-tuning loads a checkpoint trained with 10 output classes into a model built with 4; load_state_dict raises "size mismatch for fc2.weight" on every rank at start-up.
"""Fine-tuning: load a pretrained checkpoint whose classifier head has another size."""
import os

import torch
import torch.distributed as dist

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    if rank == 0:
        os.makedirs("pretrained", exist_ok=True)
        torch.save(MLP(d_out=10).state_dict(), "pretrained/backbone.pt")
    dist.barrier()
    model = MLP(d_out=4)
    log(rank, "loading pretrained/backbone.pt")
    model.load_state_dict(torch.load("pretrained/backbone.pt", map_location="cpu"))


if __name__ == "__main__":
    entry(main)
