# expected: corrupt-data-sample
# initiating_rank: 0
# nproc: 2
# variants: plain logs record
# note: one JSON-lines file on rank 0 was cut off mid-record (a partial copy); json.loads raises JSONDecodeError in a DataLoader worker (num_workers=2), re-raised as "Caught JSONDecodeError in DataLoader worker process N".
"""Each sample is one small JSON file read lazily by DataLoader workers; one file is truncated."""
import json
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class JsonFiles(Dataset):
    def __init__(self, root):
        self.paths = sorted(os.path.join(root, p) for p in os.listdir(root))

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        with open(self.paths[i]) as f:
            rec = json.loads(f.read())
        return torch.tensor(rec["x"]), rec["y"]


def main():
    rank, world = setup()
    root = f"data/rank{rank}"
    os.makedirs(root, exist_ok=True)
    g = torch.Generator().manual_seed(rank)
    for i in range(40):
        text = json.dumps({"x": torch.randn(16, generator=g).tolist(), "y": i % 4})
        if rank == 0 and i == 26:
            text = text[: len(text) // 2]  # partial copy
        with open(f"{root}/sample-{i:04d}.json", "w") as f:
            f.write(text)
    loader = DataLoader(JsonFiles(root), batch_size=4, num_workers=2)
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
