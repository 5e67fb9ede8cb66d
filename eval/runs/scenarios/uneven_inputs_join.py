# expected: uneven-inputs-hang
# initiating_rank: 1
# nproc: 2
# variants: logs
# note: the loop runs inside Join([model], throw_on_early_termination=True); rank 1's shard is shorter, so when it runs out every rank raises "Detected at least one rank that exhausted inputs" / "Rank 1 exhausted all inputs."
"""Uneven shards under DDP's Join context manager with throw_on_early_termination."""
import torch
from torch.distributed.algorithms.join import Join
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    n = 5 if rank == 1 else 8
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    batches = [(torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)) for _ in range(n)]
    with Join([model], throw_on_early_termination=True):
        for step, (x, y) in enumerate(batches):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
