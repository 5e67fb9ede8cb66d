# expected: none
# nproc: 2
# variants: logs
# note: healthy run with uneven shards handled correctly by DDP's Join context manager (throw_on_early_termination=False): rank 1 runs out early and shadows the collectives; every rank prints its step count and the job ends cleanly.
"""Uneven inputs done right: Join lets the rank that finishes early shadow the all-reduces."""
import torch
import torch.distributed as dist
from torch.distributed.algorithms.join import Join
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    n = 6 if rank == 1 else 10
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    done = 0
    with Join([model]):
        for step in range(n):
            x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            done += 1
            log(rank, f"step {step} loss {loss.item():.4f}")
    log(rank, f"finished after {done} steps")
    dist.destroy_process_group()


if __name__ == "__main__":
    entry(main)
