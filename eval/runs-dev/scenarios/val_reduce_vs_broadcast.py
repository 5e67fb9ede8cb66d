# expected: collective-mismatch
# initiating_rank: 3
# nproc: 4
# variants: plain logs
# note: after every epoch the ranks all-reduce their validation loss; rank 3 imports an older evaluation helper that instead takes rank 0's value with dist.broadcast(src=0), so at the first validation three ranks are in all_reduce and rank 3 is in broadcast; gloo pairs the mismatched operations and fails, or the ranks time out after 8 s.
"""Validation loss all-reduced on three ranks and broadcast on rank 3 (an older helper)."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def reduce_val_loss(rank, val):
    if rank == 3:  # evaluation helper from the previous release: "rank 0's number is the truth"
        dist.broadcast(val, src=0)
        return val
    dist.all_reduce(val)
    return val / dist.get_world_size()


def main():
    rank, world = setup(timeout_s=8)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(3):
        for step in range(4):
            x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            xv, yv = torch.randn(16, 16), torch.randint(0, 4, (16,))
            val = torch.nn.functional.cross_entropy(model(xv), yv).reshape(1)
        val = reduce_val_loss(rank, val)
        log(rank, f"epoch {epoch} val loss {val.item():.4f}")


if __name__ == "__main__":
    entry(main)
