# expected: corrupt-data-sample
# initiating_rank: 5
# nproc: 8
# variants: plain logs
# note: eight ranks read CSV-like text records and parse each field with float(); one record in rank 5's shard was written with a decimal comma ("0,75"), so float() raises ValueError in Dataset.__getitem__ at step 3 on rank 5 (num_workers=0); the other seven ranks wait in DDP's all-reduce and lose the connection.
"""Eight ranks parse text records; one record of rank 5 has a decimal comma."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class TextRecords(Dataset):
    def __init__(self, rank, n=48):
        g = torch.Generator().manual_seed(100 + rank)
        vals = torch.rand(n, 17, generator=g)
        self.lines = [";".join(f"{v:.4f}" for v in row.tolist()) for row in vals]
        if rank == 5:
            fields = self.lines[29].split(";")
            fields[6] = "0,75"  # exported by a tool with a German locale
            self.lines[29] = ";".join(fields)

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        fields = [float(f) for f in self.lines[i].split(";")]
        return torch.tensor(fields[:16]), int(fields[16] * 4)


def main():
    rank, world = setup()
    loader = DataLoader(TextRecords(rank), batch_size=8, shuffle=False)
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
