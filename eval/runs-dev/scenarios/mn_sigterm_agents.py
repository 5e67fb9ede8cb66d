# expected: slurm-preemption
# nodes: 2
# nproc: 2
# variants: plain
# setup: sigterm:step\s12\b
# note: a healthy two-node run stopped from outside: once a console shows step 12, both torchrun agents receive SIGTERM (what a scheduler's preemption sends to every node of the job), forward it to their workers and exit. No error before it.
"""A long healthy two-node loop, preempted by SIGTERM to both agents."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(9, 9), torch.nn.Tanh(), torch.nn.Linear(9, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(400):
        loss = model(torch.randn(16, 9)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 3 == 0:
            log(rank, f"step {step} loss {loss.item():.4f}")
        time.sleep(0.2)


if __name__ == "__main__":
    entry(main)
