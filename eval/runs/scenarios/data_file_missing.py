# expected: data-file-missing
# initiating_rank: 3
# nproc: 4
# variants: plain logs record
# note: the shard list names data/shard-00003.npy but that file was never copied; np.load raises FileNotFoundError on rank 3 when its loader opens the shard; the other ranks wait in the first all-reduce.
"""Each rank memory-maps its own pre-tokenised .npy shard; shard 3 is missing from the data folder."""
import os

import numpy as np
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class NpyShard(Dataset):
    def __init__(self, path):
        self.data = np.load(path, mmap_mode="r")

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        row = torch.from_numpy(np.array(self.data[i]))
        return row[:16], row[16].long()


def main():
    rank, world = setup()
    if rank == 0:
        os.makedirs("data", exist_ok=True)
        rng = np.random.default_rng(0)
        for s in range(world - 1):  # the copy job stopped before the last shard
            arr = rng.standard_normal((64, 17)).astype(np.float32)
            arr[:, 16] = rng.integers(0, 4, 64)
            np.save(f"data/shard-{s:05d}.npy", arr)
    torch.distributed.barrier()
    ds = NpyShard(f"data/shard-{rank:05d}.npy")
    loader = DataLoader(ds, batch_size=8)
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
