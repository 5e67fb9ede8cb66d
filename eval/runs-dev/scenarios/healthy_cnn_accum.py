# expected: none
# nproc: 3
# variants: logs
# note: healthy three-rank CNN run with gradient accumulation over 4 micro-batches (DDP no_sync on the first three), a learning-rate warmup, gradient clipping, 40 micro-steps and a final accuracy line from rank 0; nothing fails.
"""A healthy CNN run with gradient accumulation."""
import contextlib

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup()
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.ReLU(), torch.nn.Flatten(),
                              torch.nn.Linear(4 * 6 * 6, 3))
    model = DDP(net)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 5))
    g = torch.Generator().manual_seed(rank)
    for micro in range(40):
        x, y = torch.randn(4, 1, 8, 8, generator=g), torch.randint(0, 3, (4,), generator=g)
        sync = (micro + 1) % 4 == 0
        with (contextlib.nullcontext() if sync else model.no_sync()):
            loss = torch.nn.functional.cross_entropy(model(x), y) / 4
            loss.backward()
        if sync:
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            if rank == 0:
                log(rank, f"update {(micro + 1) // 4} loss {4 * loss.item():.4f} grad norm {norm:.3f} lr {sched.get_last_lr()[0]:.4f}")
    if rank == 0:
        log(rank, "training complete: 10 updates")


if __name__ == "__main__":
    entry(main)
