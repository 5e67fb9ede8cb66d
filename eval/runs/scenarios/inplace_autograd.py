# expected: unclassified
# nproc: 2
# variants: logs
# note: the forward applies an in-place ReLU to a tensor that a sigmoid saved for backward; backward raises "one of the variables needed for gradient computation has been modified by an inplace operation" on every rank. No entry, so unclassified.
"""An in-place activation overwrites a tensor saved for backward."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)
        self.out = torch.nn.Linear(16, 4)

    def forward(self, x):
        h = torch.sigmoid(self.fc(x))
        g = h * 2
        torch.relu_(h)  # in place on a tensor saved by sigmoid for its backward
        return self.out(g + h)


def main():
    rank, world = setup()
    model = DDP(Gate())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
    log(rank, "step 0")
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()


if __name__ == "__main__":
    entry(main)
