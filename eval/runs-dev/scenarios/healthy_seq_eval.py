# expected: none
# nproc: 4
# variants: plain
# note: healthy four-rank run of a small TransformerEncoder (2 layers) on synthetic sequences, 3 epochs with an all-reduced validation loss per epoch and a checkpoint saved by rank 0 at the end; nothing fails.
"""A healthy transformer encoder run with validation and a final checkpoint."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup()
    layer = torch.nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, batch_first=True)
    model = DDP(torch.nn.Sequential(torch.nn.TransformerEncoder(layer, num_layers=2), torch.nn.Linear(16, 1)))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    g = torch.Generator().manual_seed(10 + rank)
    for epoch in range(3):
        for step in range(6):
            x = torch.randn(4, 12, 16, generator=g)
            loss = (model(x).squeeze(-1) - x.mean(-1)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            x = torch.randn(8, 12, 16, generator=g)
            val = (model(x).squeeze(-1) - x.mean(-1)).pow(2).mean().reshape(1)
        dist.all_reduce(val)
        if rank == 0:
            log(rank, f"epoch {epoch} train loss {loss.item():.4f} val loss {val.item() / world:.4f}")
    if rank == 0:
        os.makedirs("out", exist_ok=True)
        torch.save(model.module.state_dict(), "out/final.pt")
        log(rank, "saved out/final.pt")
    dist.barrier()


if __name__ == "__main__":
    entry(main)
