# expected: loss-nan
# initiating_rank: 1
# nproc: 2
# variants: plain logs
# note: rank 1 draws a batch whose targets include a zero that the loss takes the log of; the loss becomes inf and the training loop's own `assert torch.isfinite(loss)` raises AssertionError on rank 1.
"""Poisson-style regression with a log on the targets; an assertion guards the loss."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP(d_out=1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(10 + rank)
    for step in range(30):
        x = torch.randn(16, 16, generator=g)
        counts = torch.randint(1, 20, (16, 1), generator=g).float()
        if rank == 1 and step == 7:
            counts[5] = 0.0  # an empty bucket in the raw counts
        pred = model(x)
        loss = (pred - torch.log(counts)).pow(2).mean()
        assert torch.isfinite(loss), f"non-finite loss {loss.item()} at step {step}"
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 3 == 0:
            log(rank, f"step={step} loss={loss.item():.5f}")


if __name__ == "__main__":
    entry(main)
