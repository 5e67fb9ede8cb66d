# expected: worker-sigkill
# initiating_rank: 3
# nodes: 2
# nproc: 2
# variants: logs
# note: two nodes of two ranks each; at step 4 global rank 3 (node 1, local rank 1) is killed with SIGKILL (the node's OOM killer; here the process sends it to itself), with no output of its own; ranks 0-2 lose the connection in the all-reduce and node 1's agent reports the signal.
"""Two-node job; the second rank of node 1 is killed with SIGKILL."""
import os
import signal

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(30, 30), torch.nn.GELU(), torch.nn.Linear(30, 3)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(8):
        x, y = torch.randn(12, 30), torch.randint(0, 3, (12,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        if rank == 3 and step == 4:
            os.kill(os.getpid(), signal.SIGKILL)
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
