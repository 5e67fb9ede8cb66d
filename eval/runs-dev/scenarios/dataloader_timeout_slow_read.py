# expected: dataloader-timeout
# initiating_rank: 2
# nproc: 3
# variants: plain logs
# note: each rank reads audio clips through a DataLoader with one worker and timeout=3; rank 2's clip at step 3 sits on a stalled network mount (a 10 s read), so its worker delivers nothing for 3 s and the DataLoader raises "DataLoader timed out after 3 seconds" on rank 2; ranks 0 and 1 wait in DDP's all-reduce and lose the connection.
"""A DataLoader timeout on rank 2 while its worker waits on a stalled read."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class Clips(Dataset):
    def __init__(self, rank):
        self.rank = rank

    def __len__(self):
        return 64

    def __getitem__(self, i):
        if self.rank == 2 and i == 24:  # the clip behind the stalled mount
            time.sleep(10)
        g = torch.Generator().manual_seed(i)
        return torch.randn(16, generator=g), i % 4


def main():
    rank, world = setup(timeout_s=20)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loader = DataLoader(Clips(rank), batch_size=8, num_workers=1, timeout=3)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
