# expected: data-file-missing
# initiating_rank: 1
# nproc: 4
# variants: plain logs
# note: each rank opens its shard file data/part-0000N.npy lazily in its first __getitem__; part-00001.npy was never copied to this node, so rank 1 raises FileNotFoundError (np.load) while fetching its first batch, before it prints anything of its own; ranks 0, 2 and 3 wait in the first all-reduce of DDP and lose the connection.
"""Rank 1 fails before its first step: its shard file is missing; the others are in the first all-reduce."""
import os

import numpy as np
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class LazyShard(Dataset):
    def __init__(self, path, n=64):
        self.path, self.n, self.data = path, n, None

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.data is None:
            self.data = np.load(self.path)
        return torch.from_numpy(self.data[i, :16]).float(), int(self.data[i, 16] * 4)


def main():
    rank, world = setup()
    os.makedirs("data", exist_ok=True)
    if rank != 1:  # the copy of part-00001.npy to this node never happened
        rng = np.random.default_rng(rank)
        np.save(f"data/part-{rank:05d}.npy", rng.random((64, 17), dtype=np.float32))
    loader = DataLoader(LazyShard(f"data/part-{rank:05d}.npy"), batch_size=8, shuffle=False)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
