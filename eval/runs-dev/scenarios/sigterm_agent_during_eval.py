# expected: slurm-preemption
# nproc: 3
# variants: logs
# setup: sigterm:evaluating\sepoch\s1
# note: a healthy three-rank run stopped from outside: when rank 0 logs "evaluating epoch 1", the torchrun agent receives SIGTERM (as a scheduler's preemption or scancel sends it), forwards it to the workers and exits. No error before it.
"""A healthy run with per-epoch evaluation; the launcher is sent SIGTERM from outside."""
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(7, 14), torch.nn.ReLU(), torch.nn.Linear(14, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(50):
        for step in range(10):
            loss = torch.nn.functional.cross_entropy(model(torch.randn(8, 7)), torch.randint(0, 2, (8,)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(0.1)
        log(rank, f"evaluating epoch {epoch}")
        acc = torch.tensor([0.5 + 0.01 * epoch])
        dist.all_reduce(acc)
        log(rank, f"epoch {epoch} accuracy {acc.item() / world:.3f}")


if __name__ == "__main__":
    entry(main)
