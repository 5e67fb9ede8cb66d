# expected: rank-stuck-outside-collective
# initiating_rank: 6
# nproc: 8
# variants: plain
# note: eight ranks; after 4 steps every rank writes its shard of the metrics and meets the others in dist.monitored_barrier(timeout=6s, wait_all_ranks=True); rank 6 is still flushing its shard to a slow disk (a 20 s sleep), so rank 0 reports that rank 6 failed to pass the monitored barrier; the others fail after rank 0.
"""Eight ranks, one of which is late to a monitored barrier."""
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup(timeout_s=30)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(4):
        loss = model(torch.randn(8, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
    if rank == 6:
        time.sleep(20)  # flushing the metrics shard to a slow disk
    dist.monitored_barrier(timeout=timedelta(seconds=6), wait_all_ranks=True)
    log(rank, "metrics written")


if __name__ == "__main__":
    entry(main)
