# expected: rank-stuck-outside-collective
# initiating_rank: 1
# nproc: 3
# variants: plain
# note: init_process_group(timeout=6s); after step 2 rank 1 alone uploads its metrics to a tracking server that answers slowly (9 s, a progress line each second) before the next step, while ranks 0 and 2 wait in DDP's gradient all-reduce and time out after 6 s; rank 1 then reaches the all-reduce and finds its peers gone (or is stopped by the agent first).
"""A rank that uploads its metrics synchronously while its peers wait in the all-reduce."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def upload_metrics(rank, step):
    for chunk in range(9):
        time.sleep(1)  # the tracking server acknowledges one chunk a second
        log(rank, f"tracking upload step {step} chunk {chunk + 1}/9")


def main():
    rank, world = setup(timeout_s=6)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(6):
        x = torch.randn(8, 16)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
        if rank == 1 and step == 2:
            upload_metrics(rank, step)


if __name__ == "__main__":
    entry(main)
