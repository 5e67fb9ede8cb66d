# expected: uneven-inputs-hang
# initiating_rank: 1
# nproc: 4
# variants: plain record
# note: per-rank file lists without a DistributedSampler: rank 1's shard has 5 batches, the others 8; rank 1 finishes its loop, prints "epoch done" and leaves, while ranks 0, 2, 3 are still in DDP's gradient all-reduce of step 5 and fail (connection closed / timeout).
"""Per-rank shards of different length, no DistributedSampler and no Join."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

from common import MLP, entry, log, setup


def main():
    rank, world = setup(timeout_s=8)
    n = 40 if rank == 1 else 64  # shard sizes from an uneven split of the file list
    g = torch.Generator().manual_seed(rank)
    ds = TensorDataset(torch.randn(n, 16, generator=g), torch.randint(0, 4, (n,), generator=g))
    loader = DataLoader(ds, batch_size=8)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
    log(rank, f"epoch done after {len(loader)} steps")


if __name__ == "__main__":
    entry(main)
