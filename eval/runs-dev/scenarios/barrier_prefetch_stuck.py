# expected: rank-stuck-outside-collective
# initiating_rank: 2
# nproc: 4
# variants: plain record
# note: init_process_group(timeout=5s); at the end of every epoch each rank prefetches its next shard and then meets the others in dist.barrier(); after epoch 1 rank 2's prefetch blocks for 14 s on a stalled network read, so ranks 0, 1 and 3 time out in the barrier; rank 2 then fails when it reaches the barrier (or is stopped by the agent first).
"""A barrier at each epoch's end; one rank's prefetch stalls before it."""
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def prefetch_next_shard(rank, epoch):
    if rank == 2 and epoch == 1:
        time.sleep(14)  # the object store stops answering mid-read
    return torch.randn(32, 16)


def main():
    rank, world = setup(timeout_s=5)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    data = torch.randn(32, 16)
    for epoch in range(3):
        for step in range(4):
            loss = model(data[step * 8:(step + 1) * 8]).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        log(rank, f"epoch {epoch} loss {loss.item():.4f}")
        data = prefetch_next_shard(rank, epoch)
        dist.barrier()


if __name__ == "__main__":
    entry(main)
