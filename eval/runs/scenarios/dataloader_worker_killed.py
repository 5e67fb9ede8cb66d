# expected: dataloader-worker-killed
# initiating_rank: 0
# nproc: 2
# variants: plain record
# note: one DataLoader worker of rank 0 is killed with SIGKILL while decoding (what the host OOM killer does to a worker; here the worker sends it to itself); the rank raises "DataLoader worker (pid N) is killed by signal: Killed."
"""DataLoader workers that build large per-sample buffers; one worker of rank 0 is killed."""
import os
import signal

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset, get_worker_info

from common import MLP, entry, log, setup


class Augmented(Dataset):
    def __init__(self, rank):
        self.rank = rank

    def __len__(self):
        return 96

    def __getitem__(self, i):
        info = get_worker_info()
        if self.rank == 0 and i == 41 and info is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        g = torch.Generator().manual_seed(i)
        return torch.randn(16, generator=g), i % 4


def main():
    rank, world = setup()
    loader = DataLoader(Augmented(rank), batch_size=8, num_workers=2)
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
