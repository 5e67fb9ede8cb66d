# expected: dataloader-worker-killed
# initiating_rank: 2
# nodes: 2
# nproc: 2
# variants: logs
# note: two nodes of two ranks each, DataLoader with num_workers=2; a worker of global rank 2 (node 1, local rank 0) is killed with SIGKILL while decoding a sample (what the host OOM killer does to a worker; here the worker sends it to itself), and the rank raises "DataLoader worker (pid N) is killed by signal: Killed."; the other ranks wait in DDP's all-reduce.
"""Two-node job; a DataLoader worker of the first rank of node 1 is killed."""
import os
import signal

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import entry, log, setup


class Decoded(Dataset):
    def __init__(self, rank):
        self.rank = rank

    def __len__(self):
        return 80

    def __getitem__(self, i):
        if self.rank == 2 and i == 37:
            os.kill(os.getpid(), signal.SIGKILL)  # the kernel picked this worker
        g = torch.Generator().manual_seed(i)
        return torch.randn(3, 8, 8, generator=g), i % 4


def main():
    rank, world = setup()
    loader = DataLoader(Decoded(rank), batch_size=8, num_workers=2)
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 6, 3), torch.nn.ReLU(), torch.nn.Flatten(),
                              torch.nn.Linear(6 * 6 * 6, 4))
    model = DDP(net)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
