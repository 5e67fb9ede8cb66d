# expected: corrupt-data-sample
# initiating_rank: 1
# nproc: 2
# variants: plain logs record
# note: one JSON-lines record on rank 1's shard lacks the "label" field; Dataset.__getitem__ raises KeyError at step 3 (num_workers=0); rank 0 then fails in the DDP all-reduce.
"""DDP training over per-rank JSON-lines shards; one record in rank 1's shard has no "label"."""
import json
import os

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class JsonlDataset(Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.records = [json.loads(line) for line in f]

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        rec = self.records[i]
        return torch.tensor(rec["features"]), torch.tensor(rec["label"])


def write_shard(path, rank, n=64):
    g = torch.Generator().manual_seed(rank)
    with open(path, "w") as f:
        for i in range(n):
            rec = {"id": f"{rank}-{i}", "features": torch.randn(16, generator=g).tolist(), "label": i % 4}
            if rank == 1 and i == 13:
                del rec["label"]  # the malformed record
            f.write(json.dumps(rec) + "\n")


def main():
    rank, world = setup()
    os.makedirs("data", exist_ok=True)
    path = f"data/train-{rank:05d}-of-{world:05d}.jsonl"
    write_shard(path, rank)
    loader = DataLoader(JsonlDataset(path), batch_size=4, shuffle=False)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
    log(rank, "done")


if __name__ == "__main__":
    entry(main)
