# expected: ddp-unused-parameters
# nproc: 2
# variants: plain
# note: the model has an auxiliary head that forward() only uses when a flag is set, DDP is built without find_unused_parameters; at the second iteration every rank raises "Expected to have finished reduction in the prior iteration".
"""A model with a conditionally used auxiliary head under DDP without find_unused_parameters."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


class WithAux(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(16, 32)
        self.head = torch.nn.Linear(32, 4)
        self.aux_head = torch.nn.Linear(32, 2)

    def forward(self, x, use_aux=False):
        h = torch.relu(self.body(x))
        out = self.head(h)
        if use_aux:
            out = out + self.aux_head(h).sum(dim=1, keepdim=True)
        return out


def main():
    rank, world = setup()
    model = DDP(WithAux())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(5):
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
