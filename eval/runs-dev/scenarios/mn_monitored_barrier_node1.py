# expected: rank-stuck-outside-collective
# initiating_rank: 3
# nodes: 2
# nproc: 2
# variants: plain logs
# note: two nodes of two ranks each; before saving, every rank enters dist.monitored_barrier(timeout=5s) except global rank 3 (node 1, local rank 1), which is still computing its share of the validation metrics (a 15 s sleep); rank 0 reports that rank 3 failed to pass the monitored barrier, naming the global rank while node 1's files and prefixes carry local rank 1.
"""Two-node job; a monitored barrier names the rank of node 1 that did not arrive."""
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=30)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(11, 22), torch.nn.ReLU(), torch.nn.Linear(22, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(4):
        loss = torch.nn.functional.cross_entropy(model(torch.randn(8, 11)), torch.randint(0, 2, (8,)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
    if rank == 3:
        time.sleep(15)  # its validation shard is three times larger than the others'
    log(rank, "waiting for all ranks before saving")
    dist.monitored_barrier(timeout=timedelta(seconds=5))
    log(rank, "all ranks ready")


if __name__ == "__main__":
    entry(main)
