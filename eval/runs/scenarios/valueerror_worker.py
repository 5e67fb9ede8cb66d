# expected: corrupt-data-sample
# initiating_rank: 1
# nproc: 2
# variants: plain logs record
# note: a CSV row on rank 1's shard holds "n/a" in a numeric column; float() raises ValueError inside a DataLoader worker (num_workers=2), re-raised in the rank as "Caught ValueError in DataLoader worker process N".
"""CSV regression data read in DataLoader workers; one row on rank 1 has a non-numeric field."""
import csv
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import entry, log, setup


class CsvDataset(Dataset):
    def __init__(self, path):
        with open(path, newline="") as f:
            self.rows = list(csv.reader(f))[1:]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows[i]
        x = torch.tensor([float(v) for v in row[:-1]])
        y = torch.tensor(float(row[-1]))
        return x, y


def main():
    rank, world = setup()
    os.makedirs("data", exist_ok=True)
    path = f"data/part-{rank}.csv"
    g = torch.Generator().manual_seed(rank)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([f"f{i}" for i in range(8)] + ["target"])
        for i in range(80):
            vals = [f"{v:.4f}" for v in torch.randn(9, generator=g).tolist()]
            if rank == 1 and i == 37:
                vals[3] = "n/a"
            w.writerow(vals)
    loader = DataLoader(CsvDataset(path), batch_size=8, num_workers=2)
    model = DDP(torch.nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(2):
        for step, (x, y) in enumerate(loader):
            loss = torch.nn.functional.mse_loss(model(x).squeeze(-1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log(rank, f"epoch {epoch} step {step} mse {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
