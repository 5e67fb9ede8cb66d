# expected: dataloader-timeout
# initiating_rank: 1
# nproc: 2
# variants: logs
# note: DataLoader(timeout=3, num_workers=2); on rank 1 reading sample 30 blocks for 10 s (a hung storage read), so the rank raises "DataLoader timed out after 3 seconds".
"""DataLoader with a batch timeout; one read on rank 1 hangs on slow storage."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class SlowStore(Dataset):
    def __init__(self, rank):
        self.rank = rank

    def __len__(self):
        return 64

    def __getitem__(self, i):
        if self.rank == 1 and i == 30:
            time.sleep(10)
        g = torch.Generator().manual_seed(i)
        return torch.randn(16, generator=g), i % 4


def main():
    rank, world = setup()
    loader = DataLoader(SlowStore(rank), batch_size=4, num_workers=2, timeout=3)
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
