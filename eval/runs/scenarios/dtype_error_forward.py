# expected: unclassified
# initiating_rank: 1
# nproc: 2
# variants: plain
# note: rank 1's features come from a float64 NumPy array that is not cast; the first linear layer raises a dtype error (Double input vs Float weight) on rank 1 only; rank 0 waits in the all-reduce. No entry for a dtype mismatch, so unclassified.
"""Features converted from NumPy without a dtype cast on one rank."""
import numpy as np
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def load_features(rank, step):
    rng = np.random.default_rng(rank * 100 + step)
    arr = rng.standard_normal((8, 16))
    if rank == 1:
        return torch.from_numpy(arr)  # float64, this rank's loader skips .float()
    return torch.from_numpy(arr).float()


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(5):
        x, y = load_features(rank, step), torch.randint(0, 4, (8,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
