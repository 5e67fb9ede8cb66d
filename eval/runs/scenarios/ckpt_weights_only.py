# expected: checkpoint-weights-only
# nproc: 2
# variants: plain
# note: the checkpoint stores the training arguments as an argparse.Namespace; loading it with torch.load(weights_only=True) (torch 1.13 has the option, off by default) is refused by the restricted unpickler on every rank ("Weights only load failed ... Unsupported class argparse.Namespace").
"""Safe loading of a checkpoint that pickled an argparse.Namespace next to the weights."""
import argparse
import os

import torch
import torch.distributed as dist

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    if rank == 0:
        os.makedirs("checkpoints", exist_ok=True)
        args = argparse.Namespace(lr=0.1, batch_size=32, epochs=3)
        torch.save({"model": MLP().state_dict(), "args": args, "epoch": 2}, "checkpoints/epoch2.pt")
    dist.barrier()
    log(rank, "loading checkpoints/epoch2.pt")
    state = torch.load("checkpoints/epoch2.pt", map_location="cpu", weights_only=True)
    MLP().load_state_dict(state["model"])


if __name__ == "__main__":
    entry(main)
