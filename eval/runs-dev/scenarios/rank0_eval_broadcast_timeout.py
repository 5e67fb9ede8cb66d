# expected: rank0-long-work-timeout
# initiating_rank: 0
# nproc: 3
# variants: plain logs
# note: init_process_group(timeout=6s); after step 4 rank 0 alone runs a full evaluation pass (about 15 s of work) and then broadcasts the best score to the other ranks; ranks 1 and 2 are already waiting in that broadcast and time out; rank 0 then fails when it reaches it.
"""Rank 0 evaluates alone while the other ranks wait for its broadcast."""
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def evaluate(model, batches=30):
    score = 0.0
    with torch.no_grad():
        for _ in range(batches):
            score += model(torch.randn(32, 10)).softmax(-1).max(-1).values.mean().item()
            time.sleep(0.5)  # decoding and metric computation of a generation benchmark
    return score / batches


def main():
    rank, world = setup(timeout_s=6)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(10, 20), torch.nn.GELU(), torch.nn.Linear(20, 3)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    best = torch.zeros(1)
    for step in range(8):
        x, y = torch.randn(8, 10), torch.randint(0, 3, (8,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
        if step == 4:
            if rank == 0:
                print("Running evaluation on the held-out set", flush=True)
                best[0] = evaluate(model.module)
            dist.broadcast(best, src=0)
            log(rank, f"best score {best.item():.4f}")


if __name__ == "__main__":
    entry(main)
