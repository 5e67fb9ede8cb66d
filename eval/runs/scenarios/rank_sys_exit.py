# expected: child-failed
# initiating_rank: 1
# nproc: 4
# variants: plain logs
# note: rank 1 leaves with sys.exit(1) at step 3 without printing anything (a library's silent exit on its own check); no exception anywhere; the only evidence is torchrun's summary for rank 1 and the peers' lost connection. No entry names the cause, so the launcher's report is what remains.
"""A run where one rank quietly exits with status 1."""
import sys

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def should_continue(rank, step):
    return not (rank == 1 and step == 3)


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(8):
        if not should_continue(rank, step):
            sys.exit(1)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
