# expected: rank0-long-work-timeout
# initiating_rank: 0
# nproc: 4
# variants: logs record
# note: init_process_group(timeout=5s); after step 3 rank 0 alone writes a checkpoint to slow storage (12 s, a throttled write loop) while ranks 1-3 wait in the barrier that follows and time out; rank 0 then fails when it reaches the barrier.
"""Rank 0 saves a checkpoint to slow storage while the other ranks wait in a barrier."""
import os
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def save_to_slow_storage(state, path, chunks=24):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.save(state, path + ".tmp")
    for _ in range(chunks):  # the remote filesystem accepts about one chunk every 0.5 s
        time.sleep(0.5)
    os.replace(path + ".tmp", path)


def main():
    rank, world = setup(timeout_s=5)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(8):
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
        if step == 3:
            if rank == 0:
                print(f"Saving model checkpoint to checkpoints/step-{step}", flush=True)
                save_to_slow_storage(model.module.state_dict(), f"checkpoints/step-{step}/model.pt")
            dist.barrier()


if __name__ == "__main__":
    entry(main)
