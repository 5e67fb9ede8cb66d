# expected: worker-sigkill
# initiating_rank: 2
# nproc: 3
# variants: logs
# note: at step 5 rank 2 receives SIGKILL in the middle of its forward pass (what the kernel's OOM killer or an operator's kill -9 does; a timer thread of the process sends it); no Python error and no output from rank 2; ranks 0 and 1 lose the connection in the all-reduce.
"""Rank 2 is killed with SIGKILL by a timer during a forward pass."""
import os
import signal
import threading
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


class SlowBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 16)

    def forward(self, x):
        for _ in range(20):
            x = torch.tanh(self.lin(x))
        return x


def main():
    rank, world = setup()
    model = DDP(torch.nn.Sequential(SlowBlock(), torch.nn.Linear(16, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(10):
        if rank == 2 and step == 5:
            threading.Thread(target=lambda: (time.sleep(0.01), os.kill(os.getpid(), signal.SIGKILL)),
                             daemon=True).start()
        loss = model(torch.randn(64, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
        time.sleep(0.2)


if __name__ == "__main__":
    entry(main)
