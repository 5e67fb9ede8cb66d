# expected: rank-stuck-outside-collective
# initiating_rank: 1
# nproc: 3
# variants: plain logs
# note: init_process_group(timeout=6s); after epoch 0 every rank evaluates its validation shard and meets the others in dist.barrier(); rank 1's validation shard reads from a hung network mount (a 15 s sleep in its loop), so ranks 0 and 2 time out in the barrier; rank 1 then fails when it reaches the barrier.
"""End-of-epoch validation followed by a barrier; rank 1's validation read hangs."""
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def validate(rank, model):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for i in range(5):
            if rank == 1 and i == 2:
                time.sleep(15)  # the read of val shard 2 blocks on the network mount
            total += model(torch.randn(4, 6)).abs().mean().item()
    model.train()
    return total / 5


def main():
    rank, world = setup(timeout_s=6)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(6, 12), torch.nn.Tanh(), torch.nn.Linear(12, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(2):
        for step in range(4):
            x = torch.randn(8, 6)
            loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        log(rank, f"epoch {epoch} train loss {loss.item():.4f}")
        score = validate(rank, model)
        log(rank, f"epoch {epoch} val score {score:.4f}")
        dist.barrier()


if __name__ == "__main__":
    entry(main)
