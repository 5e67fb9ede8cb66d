# expected: too-many-open-files
# initiating_rank: 0
# nproc: 2
# variants: logs
# args: --leak-on-rank 0
# ulimit: -n 256
# note: the job runs under `ulimit -n 256`; __getitem__ opens each sample file and never closes it (a leaked handle kept in a cache) on rank 0, which raises OSError [Errno 24] Too many open files after a few hundred samples.
"""Per-sample files opened in __getitem__ and kept open by a careless cache."""
import argparse
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class FileSamples(Dataset):
    def __init__(self, root, leak):
        self.paths = sorted(os.path.join(root, p) for p in os.listdir(root))
        self.leak = leak
        self.handles = {}

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        f = open(self.paths[i], "rb")
        if self.leak:
            self.handles[i] = f  # "cache" of open files, never closed
        data = f.read()
        if not self.leak:
            f.close()
        x = torch.frombuffer(bytearray(data), dtype=torch.float32)
        return x, i % 4


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--leak-on-rank", type=int, default=-1)
    args = p.parse_args()
    rank, world = setup()
    root = f"samples/rank{rank}"
    os.makedirs(root, exist_ok=True)
    g = torch.Generator().manual_seed(rank)
    for i in range(400):
        with open(f"{root}/{i:05d}.bin", "wb") as f:
            f.write(torch.randn(16, generator=g).numpy().tobytes())
    loader = DataLoader(FileSamples(root, rank == args.leak_on_rank), batch_size=16)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 4 == 0:
            log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
