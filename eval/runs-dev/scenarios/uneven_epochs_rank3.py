# expected: uneven-inputs-hang
# initiating_rank: 3
# nproc: 4
# variants: plain logs
# note: three epochs over per-rank shards without a DistributedSampler; rank 3's shard has 5 batches, the others' 6, so rank 3 drifts a step ahead each epoch (its epoch 1 starts while the others are in step 5 of epoch 0; the all-reduces still pair up) and after its 15th step it finishes its last epoch, prints "training done" and leaves while ranks 0-2 are in the all-reduce of their 16th step and fail (connection closed).
"""Uneven epoch lengths: one rank finishes its epochs early and leaves."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

from common import MLP, entry, log, setup


def main():
    rank, world = setup(timeout_s=20)
    n = 40 if rank == 3 else 48  # rank 3's shard lost a file when the data was split
    g = torch.Generator().manual_seed(rank)
    data = TensorDataset(torch.randn(n, 16, generator=g), torch.randint(0, 4, (n,), generator=g))
    loader = DataLoader(data, batch_size=8, shuffle=False)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(3):
        for step, (x, y) in enumerate(loader):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log(rank, f"epoch {epoch} step {step} loss {loss.item():.4f}")
    log(rank, "training done")


if __name__ == "__main__":
    entry(main)
