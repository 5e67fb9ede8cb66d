# expected: corrupt-data-sample
# initiating_rank: 2
# nproc: 4
# variants: plain logs
# note: each rank reads its own text files in DataLoader workers (num_workers=2) with open(..., encoding="utf-8"); one file of rank 2 was written in Latin-1, so reading it raises UnicodeDecodeError in a worker ("Caught UnicodeDecodeError in DataLoader worker process N") on rank 2; the other ranks wait in DDP's all-reduce.
"""Character-level model over small text files, one of which on rank 2 is not UTF-8."""
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import entry, log, setup


def write_files(rank, n=40):
    d = f"text/rank{rank}"
    os.makedirs(d, exist_ok=True)
    paths = []
    for i in range(n):
        p = os.path.join(d, f"doc{i:03d}.txt")
        body = f"document {i} of rank {rank}: training text " * 4
        if rank == 2 and i == 27:
            with open(p, "wb") as f:
                f.write(("résumé café naïve " * 6).encode("latin-1"))
        else:
            with open(p, "w", encoding="utf-8") as f:
                f.write(body)
        paths.append(p)
    return paths


class TextFiles(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        with open(self.paths[i], encoding="utf-8") as f:
            text = f.read()
        codes = torch.tensor([min(ord(c), 127) for c in text[:32]])
        return codes[:-1], codes[1:]


def main():
    rank, world = setup()
    loader = DataLoader(TextFiles(write_files(rank)), batch_size=4, num_workers=2)
    model = DDP(torch.nn.Sequential(torch.nn.Embedding(128, 16), torch.nn.Linear(16, 128)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x).view(-1, 128), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
