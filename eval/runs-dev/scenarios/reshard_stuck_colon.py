# expected: rank-stuck-outside-collective
# initiating_rank: 2
# nproc: 4
# variants: plain
# note: the script prints its own lines as print(f"rank {rank}: ...") (no brackets); init_process_group(timeout=6s); after step 2 rank 2 alone re-shards its local data (15 s of work, a progress line each second) while ranks 0, 1, 3 wait in DDP's gradient all-reduce of step 3 and time out; rank 2 is then stopped by its agent or fails when it reaches the collective.
"""A rank that re-shards its data in the middle of training while its peers wait in the all-reduce."""
import time

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, setup


def say(rank, msg):
    print(f"rank {rank}: {msg}", flush=True)


def main():
    rank, world = setup(timeout_s=6)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(6):
        if rank == 2 and step == 3:
            for part in range(15):
                time.sleep(1)  # rebuilding the local shard index, one part a second
                say(rank, f"resharding part {part + 1}/15")
        x = torch.randn(8, 16)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        say(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
