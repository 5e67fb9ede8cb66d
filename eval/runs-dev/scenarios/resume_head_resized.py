# expected: checkpoint-shape-mismatch
# initiating_rank: 0
# nproc: 3
# variants: plain logs
# note: rank 0 saves a checkpoint of a classifier with 10 classes, then the job is restarted with a config of 12 classes; rank 0 loads the checkpoint (the others wait in the broadcast that follows) and load_state_dict raises "size mismatch for head.weight: copying a param with shape torch.Size([10, 32]) from checkpoint, the shape in current model is torch.Size([12, 32])"; ranks 1 and 2 lose the connection in the broadcast.
"""Resuming a classifier whose head was resized between runs: only rank 0 loads, then broadcasts."""
import os

import torch
import torch.distributed as dist

from common import entry, log, setup


class Net(torch.nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.body = torch.nn.Linear(16, 32)
        self.head = torch.nn.Linear(32, classes)


def main():
    rank, world = setup(timeout_s=20)
    path = "ckpt_resized.pt"
    if rank == 0:
        torch.save(Net(10).state_dict(), path)  # the previous run's checkpoint
        log(rank, "restarting with 12 classes")
    dist.barrier()
    model = Net(12)
    if rank == 0:
        model.load_state_dict(torch.load(path))
        log(rank, "resumed")
    for p in model.parameters():
        dist.broadcast(p.data, src=0)
    log(rank, "weights in sync")


if __name__ == "__main__":
    entry(main)
