# expected: corrupt-data-sample
# initiating_rank: 3
# nodes: 2
# nproc: 2
# variants: plain logs record
# note: two nodes of two ranks each (static rendezvous, --node_rank 0/1); the manifest row for one sample of global rank 3 (node 1, local rank 1) has no "path" field, so Dataset.__getitem__ raises KeyError at step 3; ranks 0-2 wait in DDP's all-reduce. Each node's console is its own file.
"""Two-node job; a manifest row on global rank 3 lacks its path field."""
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import entry, log, setup


class Manifest(Dataset):
    def __init__(self, rank, n=48):
        self.rows = [{"path": f"img/{rank}/{i:04d}.jpg", "label": i % 6} for i in range(n)]
        if rank == 3:
            self.rows[29] = {"file": f"img/{rank}/0029.jpg", "label": 5}  # row from the old exporter

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows[i]
        seed = sum(map(ord, row["path"]))
        return torch.randn(24, generator=torch.Generator().manual_seed(seed)), row["label"]


def main():
    rank, world = setup()
    log(rank, f"local_rank {os.environ['LOCAL_RANK']} on node {os.environ['GROUP_RANK']}")
    loader = DataLoader(Manifest(rank), batch_size=8)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(24, 32), torch.nn.ReLU(), torch.nn.Linear(32, 6)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
