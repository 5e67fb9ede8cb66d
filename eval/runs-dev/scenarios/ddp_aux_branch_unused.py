# expected: ddp-unused-parameters
# nproc: 2
# variants: plain logs
# note: a model with a gated auxiliary branch that only runs on batches whose first label is 0; DDP is built with find_unused_parameters=False, so on the first batch where the gate is closed the branch's parameters get no gradient, the reduction of that step never finishes, and the next forward raises "Expected to have finished reduction in the prior iteration before starting a new one" on the ranks. Every rank fails the same way: no initiating rank.
"""A gated branch whose parameters go unused on some steps, under DDP without find_unused_parameters."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


class Gated(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(16, 4)
        self.aux = torch.nn.Linear(16, 4)

    def forward(self, x, use_aux):
        out = self.body(x)
        return out + self.aux(x) if use_aux else out


def main():
    rank, world = setup(timeout_s=20)
    model = DDP(Gated())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(6):
        x = torch.randn(8, 16)
        y = torch.tensor([0, 1, 2, 3] * 2) if step < 2 else torch.tensor([1, 0, 2, 3] * 2)
        loss = torch.nn.functional.cross_entropy(model(x, bool(y[0] == 0)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
