# expected: ddp-model-mismatch-across-ranks
# initiating_rank: 2
# nproc: 3
# variants: plain logs
# note: every rank builds the model from its node's copy of the config; rank 2's copy enables an auxiliary head (one more Linear layer), so the DDP constructor's check of the parameters across ranks fails: rank 2 has more parameters than ranks 0 and 1, and DDP raises on the ranks (RuntimeError naming the mismatch) before any step.
"""A model with one more layer on rank 2, found by DDP's constructor."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def build(rank):
    layers = [torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)]
    if rank == 2:  # aux_head: true in this node's config copy
        layers.append(torch.nn.Linear(4, 4))
    return torch.nn.Sequential(*layers)


def main():
    rank, world = setup(timeout_s=20)
    model = DDP(build(rank))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(5):
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
