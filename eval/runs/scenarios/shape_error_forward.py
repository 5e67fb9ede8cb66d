# expected: unclassified
# nproc: 2
# variants: plain
# note: the classifier head was sized for a 64-wide feature but the encoder outputs 32; the first forward raises "mat1 and mat2 shapes cannot be multiplied" on every rank. A plain model bug with no knowledge-base entry.
"""A model whose layers disagree on the feature width."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


class Classifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU())
        self.head = torch.nn.Linear(64, 4)  # expects the old, wider encoder

    def forward(self, x):
        return self.head(self.encoder(x))


def main():
    rank, world = setup()
    model = DDP(Classifier())
    log(rank, "starting training")
    x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()


if __name__ == "__main__":
    entry(main)
