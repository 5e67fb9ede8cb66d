# expected: loss-nan
# initiating_rank: 3
# nproc: 4
# variants: plain logs
# note: every rank logs its local loss, then the loss is all-reduced for the stop check (the DETR/timm "Loss is nan, stopping training" idiom on a reduced value); at step 5 rank 3's batch holds a nan feature, its local loss is nan, the reduced loss is nan on every rank and all four ranks print "Loss is nan, stopping training" and sys.exit(1). Rank 3's local loss is the first nan.
"""Loss check on an all-reduced loss: every rank stops, one rank caused it."""
import math
import sys

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP(d_in=8, hidden=16, d_out=3))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(2024 + rank)
    for step in range(10):
        x, y = torch.randn(16, 8, generator=g), torch.randint(0, 3, (16,), generator=g)
        if rank == 3 and step == 5:
            x[9, 4] = float("nan")  # a missing value that the feature pipeline let through
        loss = torch.nn.functional.cross_entropy(model(x), y)
        log(rank, f"step {step} local loss {loss.item():.4f}")
        reduced = loss.detach().clone()
        dist.all_reduce(reduced)
        loss_value = reduced.item() / world
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training", flush=True)
            sys.exit(1)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    entry(main)
