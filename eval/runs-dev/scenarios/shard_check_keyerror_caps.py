# expected: corrupt-data-sample
# initiating_rank: 3
# nproc: 4
# variants: plain
# note: the script prints its own lines as "[Rank N] ..." (capital R, as DeepSpeed's log_dist does); before training each rank checks the first sample of its shard through Dataset.__getitem__ and prints "shard check ok"; the manifest row of rank 3's first sample has no "label" field, so __getitem__ raises KeyError on rank 3 before its check line; ranks 0-2 print theirs and wait in DDP's start-up broadcast.
"""A pre-flight check of each rank's first sample; one manifest row of rank 3 lacks its label."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import Dataset

from common import MLP, entry, setup


def say(rank, msg):
    print(f"[Rank {rank}] {msg}", flush=True)


class Manifest(Dataset):
    def __init__(self, rank, n=32):
        self.rows = [{"x": [float(rank + i)] * 16, "label": i % 4} for i in range(n)]
        if rank == 3:
            del self.rows[0]["label"]  # row exported before labels were joined in

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows[i]
        return torch.tensor(row["x"]), row["label"]


def main():
    rank, world = setup()
    say(rank, "building shard")
    data = Manifest(rank)
    x0, y0 = data[0]
    say(rank, f"shard check ok: {len(data)} samples, first label {y0}")
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(3):
        x, y = data[step]
        loss = model(x.unsqueeze(0)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        say(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
