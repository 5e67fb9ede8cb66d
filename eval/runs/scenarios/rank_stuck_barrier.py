# expected: rank-stuck-outside-collective
# initiating_rank: 2
# nproc: 4
# variants: plain logs record
# note: init_process_group(timeout=5s); at step 3 rank 2 blocks in its data loader (a 12 s sleep standing for a hung read) while ranks 0, 1, 3 wait in the gradient all-reduce and time out; rank 2 then fails when it reaches the collective.
"""DDP loop in which one rank's data fetch hangs for longer than the process-group timeout."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def fetch_batch(rank, step, g):
    if rank == 2 and step == 3:
        time.sleep(12)  # a read from network storage that hangs
    return torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)


def main():
    rank, world = setup(timeout_s=5)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(8):
        x, y = fetch_batch(rank, step, g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
