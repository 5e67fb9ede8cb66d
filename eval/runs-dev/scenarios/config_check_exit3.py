# expected: child-failed
# initiating_rank: 1
# nproc: 4
# variants: logs record
# note: after step 2 every rank checks that its optimizer's learning-rate schedule matches the config; rank 1 reads an edited config and calls sys.exit(3) with no message (a library's silent guard); ranks 0, 2, 3 lose the connection in DDP's all-reduce. No entry names the cause, so the launcher's report for rank 1 (exit code 3) is what remains.
"""A silent sys.exit(3) on rank 1 from a schedule consistency guard."""
import sys

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def schedule_ok(rank, step):
    warmup = 5 if rank != 1 else 50  # rank 1 picked up the edited config
    return warmup == 5 or step < 2


def main():
    rank, world = setup()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(20, 20), torch.nn.LayerNorm(20), torch.nn.Linear(20, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    sched = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=5)
    for step in range(10):
        x, y = torch.randn(4, 20), torch.randint(0, 2, (4,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        log(rank, f"step {step} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f}")
        if step >= 2 and not schedule_ok(rank, step):
            sys.exit(3)


if __name__ == "__main__":
    entry(main)
