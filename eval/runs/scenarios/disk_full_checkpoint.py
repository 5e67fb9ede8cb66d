# expected: disk-full
# initiating_rank: 0
# nproc: 2
# variants: plain record
# setup: tmpfs:checkpoints:256k
# note: checkpoints/ is a 256 KiB tmpfs; rank 0 saves a ~1 MiB checkpoint at the end of epoch 0 and torch.save fails because the filesystem is full (ENOSPC inside PytorchStreamWriter); rank 1 waits in the barrier.
"""Rank 0 saves an epoch checkpoint onto a filesystem that is too small."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup(timeout_s=10)
    model = DDP(MLP(hidden=512))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for epoch in range(2):
        for step in range(4):
            x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log(rank, f"epoch {epoch} step {step} loss {loss.item():.4f}")
        if rank == 0:
            state = {"model": model.module.state_dict(), "optim": opt.state_dict(), "epoch": epoch}
            torch.save(state, f"checkpoints/epoch{epoch}.pt")
            log(rank, f"saved checkpoints/epoch{epoch}.pt")
        dist.barrier()


if __name__ == "__main__":
    entry(main)
