# expected: dataloader-worker-killed
# initiating_rank: 1
# nproc: 2
# variants: logs
# note: a DataLoader worker of rank 1 crashes with SIGSEGV inside native decoding code (a NULL read through ctypes standing for a broken codec); the rank raises "DataLoader worker (pid N) is killed by signal: Segmentation fault."
"""DataLoader workers calling a native decoder that crashes on one sample of rank 1."""
import ctypes

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class Decoded(Dataset):
    def __init__(self, rank):
        self.rank = rank

    def __len__(self):
        return 96

    def __getitem__(self, i):
        if self.rank == 1 and i == 50:
            ctypes.string_at(0)  # the native decoder reads through a NULL pointer
        g = torch.Generator().manual_seed(i)
        return torch.randn(16, generator=g), i % 4


def main():
    rank, world = setup()
    loader = DataLoader(Decoded(rank), batch_size=8, num_workers=2)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
