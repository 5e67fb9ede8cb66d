# expected: none
# nodes: 2
# nproc: 2
# variants: plain logs
# note: healthy two-node job (2 ranks per node, static rendezvous): 24 steps of a small regression with a DistributedSampler, a progress line every 4 steps from each node's first rank, and a final line per rank; nothing fails.
"""A healthy two-node run."""
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

from common import entry, log, setup


def main():
    rank, world = setup()
    g = torch.Generator().manual_seed(0)
    x = torch.randn(768, 5, generator=g)
    data = TensorDataset(x, x @ torch.arange(1.0, 6.0).unsqueeze(1))
    loader = DataLoader(data, batch_size=8, sampler=DistributedSampler(data, world, rank, seed=3))
    model = DDP(torch.nn.Linear(5, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.02)
    for step, (xb, yb) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if os.environ["LOCAL_RANK"] == "0" and step % 4 == 0:
            log(rank, f"step {step}/{len(loader)} mse {loss.item():.4f}")
    log(rank, f"finished {len(loader)} steps, final mse {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
