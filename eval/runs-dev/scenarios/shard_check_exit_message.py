# expected: child-failed
# initiating_rank: 1
# nproc: 3
# variants: plain logs
# note: before training each rank checks that its data shard's index lists as many samples as the manifest says; rank 1's index was regenerated with a newer tokenizer and is short, so the script prints nothing else and calls sys.exit("shard 1: index has 960 samples, manifest says 1024") (a message and exit code 1, no traceback); ranks 0 and 2 lose the connection in DDP's first all-reduce. No entry names a script's own check, so the launcher's report for rank 1 is what remains.
"""A data-shard check that ends rank 1 through sys.exit with a message."""
import sys

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def shard_samples(rank):
    return 960 if rank == 1 else 1024  # rank 1's index came from the newer tokenizer


def main():
    rank, world = setup(timeout_s=20)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    have, want = shard_samples(rank), 1024
    if have != want:
        sys.exit(f"shard {rank}: index has {have} samples, manifest says {want}")
    for step in range(6):
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
