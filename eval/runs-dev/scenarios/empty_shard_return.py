# expected: uneven-inputs-hang
# initiating_rank: 2
# nproc: 3
# variants: plain logs
# note: the dataset of 20 files is split into contiguous shards of ceil(20/3)=7; rank 2's shard is files 14-20, but only 14 files exist locally, so rank 2 finds an empty shard, prints "no samples for this rank" and returns from main before the training loop (exit code 0); ranks 0 and 1 are left in the parameter broadcast of the DDP constructor.
"""Contiguous file sharding that leaves rank 2 with nothing to train on."""
import math

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup

LOCAL_FILES = [f"part-{i:05d}.bin" for i in range(14)]  # the other 6 are still being copied
TOTAL_FILES = 20


def my_shard(rank, world):
    per = math.ceil(TOTAL_FILES / world)
    return [f for f in LOCAL_FILES[rank * per:(rank + 1) * per]]


def main():
    rank, world = setup()
    files = my_shard(rank, world)
    if not files:
        log(rank, "no samples for this rank, nothing to do")
        return 0
    log(rank, f"training on {len(files)} files")
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, name in enumerate(files * 2):
        g = torch.Generator().manual_seed(hash(name) % 1000)
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
