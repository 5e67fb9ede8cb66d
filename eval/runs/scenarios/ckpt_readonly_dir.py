# expected: unclassified
# initiating_rank: 0
# nproc: 2
# variants: logs
# setup: rotmpfs:checkpoints
# note: checkpoints/ is a read-only mount; at the end of epoch 0 rank 0 (the only rank that saves) fails in torch.save ("File checkpoints/epoch0.pt cannot be opened." / EROFS) and rank 1 waits in the barrier after saving. No entry covers a read-only target (disk-full is ENOSPC), so unclassified.
"""Rank 0 saves a checkpoint every epoch into a folder that is mounted read-only."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup(timeout_s=10)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
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
            torch.save({"model": model.module.state_dict(), "epoch": epoch}, f"checkpoints/epoch{epoch}.pt")
            log(rank, f"saved checkpoints/epoch{epoch}.pt")
        dist.barrier()


if __name__ == "__main__":
    entry(main)
