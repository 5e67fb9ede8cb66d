# expected: rank-stuck-outside-collective
# initiating_rank: 2
# nodes: 2
# nproc: 2
# variants: plain logs
# note: two nodes of two ranks each; init_process_group(timeout=6s); at step 2 global rank 2 (node 1, local rank 0) blocks for 15 s fetching its next shard from object storage, while ranks 0, 1, 3 wait in the gradient all-reduce and time out; rank 2 then fails when it reaches the collective.
"""Two-node job; the first rank of node 1 hangs on a shard download."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def fetch_shard(rank, step):
    if rank == 2 and step == 2:
        time.sleep(15)  # the object store stopped answering this node
    g = torch.Generator().manual_seed(rank * 100 + step)
    return torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)


def main():
    rank, world = setup(timeout_s=6)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(6):
        x, y = fetch_shard(rank, step)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
