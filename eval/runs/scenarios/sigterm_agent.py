# expected: slurm-preemption
# nproc: 2
# variants: plain
# setup: sigterm:step\s30\b
# note: a healthy run that is stopped from outside: once rank 0 has logged step 30, the torchrun agent receives SIGTERM (as scancel or a preemption sends it), forwards it to the workers and exits. No error before it.
"""A healthy, long-running training loop; the launcher is sent SIGTERM from outside."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    for step in range(1000):
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            log(rank, f"step {step} loss {loss.item():.4f}")
        time.sleep(0.05)


if __name__ == "__main__":
    entry(main)
