# expected: loss-nan
# initiating_rank: 1
# nproc: 3
# variants: plain logs
# note: a GRU regressor is trained with a loop that checks the loss each step and raises ValueError("Non-finite loss ...") when it is not finite; at step 6 rank 1 reads a sequence holding an inf reading from a faulty sensor, its loss is nan and rank 1 raises; ranks 0 and 2 wait in DDP's all-reduce.
"""Sequence regression with a GRU; the training loop raises on a non-finite loss."""
import math

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


class Forecaster(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = torch.nn.GRU(4, 16, batch_first=True)
        self.out = torch.nn.Linear(16, 1)

    def forward(self, x):
        h, _ = self.gru(x)
        return self.out(h[:, -1])


def batch(rank, step, g):
    x = torch.randn(8, 10, 4, generator=g)
    if rank == 1 and step == 6:
        x[3, 7, 2] = float("inf")  # the sensor's overflow value
    return x, x.sum(dim=(1, 2)).unsqueeze(1) * 0.1


def main():
    rank, world = setup()
    model = DDP(Forecaster())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(90 + rank)
    for step in range(12):
        x, y = batch(rank, step, g)
        loss = torch.nn.functional.mse_loss(model(x), y)
        if not math.isfinite(loss.item()):
            raise ValueError(f"Non-finite loss {loss.item()} at step {step}")
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} mse {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
