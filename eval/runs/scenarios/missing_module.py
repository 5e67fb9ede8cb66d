# expected: missing-python-module
# initiating_rank: 0
# nproc: 2
# variants: plain logs record
# note: only rank 0 logs to an experiment tracker, and it imports the tracker module lazily at the first logging step; the module is not installed in this environment, so rank 0 raises ModuleNotFoundError and rank 1 is left in the all-reduce.
"""Rank 0 imports an experiment-tracking client lazily; it is not installed."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def report(step, loss):
    import wandb  # optional dependency, only imported where metrics are reported

    wandb.log({"loss": loss, "step": step})


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(6):
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
        if rank == 0 and step == 2:
            report(step, loss.item())


if __name__ == "__main__":
    entry(main)
