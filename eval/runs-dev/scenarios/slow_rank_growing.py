# expected: rank-stuck-outside-collective
# initiating_rank: 3
# nproc: 4
# variants: plain record
# note: init_process_group(timeout=6s); rank 3's data preparation gets slower every step (its local cache is evicted: 1, 2, 4, 8 s per step) while the others wait for it in DDP's gradient all-reduce; at 8 s the wait exceeds the timeout and ranks 0-2 time out; rank 3 then fails when it reaches the collective.
"""A rank whose input pipeline slows down step after step until its peers time out."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def prepare(rank, step, g):
    if rank == 3:
        time.sleep(2 ** max(0, step - 1) if step > 0 else 0)  # cache miss cost doubles
    return torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)


def main():
    rank, world = setup(timeout_s=6)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(55 + rank)
    for step in range(8):
        t0 = time.time()
        x, y = prepare(rank, step, g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f} step time {time.time() - t0:.1f}s")


if __name__ == "__main__":
    entry(main)
