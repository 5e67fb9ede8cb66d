# expected: ddp-mark-ready-twice
# nproc: 2
# variants: plain
# note: a block is wrapped in reentrant activation checkpointing (torch.utils.checkpoint, use_reentrant=True) and DDP is built with find_unused_parameters=True; the first backward raises "Expected to mark a variable ready only once" on every rank.
"""Reentrant activation checkpointing inside DDP with find_unused_parameters=True."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint

from common import entry, log, setup


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 16))
        self.head = torch.nn.Linear(16, 4)

    def forward(self, x):
        x = x + checkpoint(self.block, x, use_reentrant=True)
        x = x + checkpoint(self.block, x, use_reentrant=True)  # the same block applied twice
        return self.head(x)


def main():
    rank, world = setup()
    model = DDP(Net(), find_unused_parameters=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(4):
        x = torch.randn(8, 16, generator=g, requires_grad=True)
        y = torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
