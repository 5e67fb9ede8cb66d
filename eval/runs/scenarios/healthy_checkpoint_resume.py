# expected: none
# nproc: 2
# variants: plain
# note: healthy run that trains 10 steps, saves a checkpoint, reloads it on every rank (map_location cpu, strict) and trains 10 more steps; nothing fails.
"""A healthy save / resume cycle within one run."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, setup


def train(model, opt, rank, g, steps, start):
    for step in range(start, start + steps):
        x, y = torch.randn(16, 16, generator=g), torch.randint(0, 4, (16,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0 and step % 2 == 0:
            print(f"iter {step:3d} | loss {loss.item():.4f} | lr {opt.param_groups[0]['lr']:.3g}")


def main():
    rank, world = setup()
    g = torch.Generator().manual_seed(rank)
    model = DDP(MLP())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    train(model, opt, rank, g, 10, 0)
    if rank == 0:
        os.makedirs("checkpoints", exist_ok=True)
        torch.save({"model": model.module.state_dict(), "optim": opt.state_dict(), "step": 10}, "checkpoints/step10.pt")
        print("checkpoint written: checkpoints/step10.pt")
    dist.barrier()
    state = torch.load("checkpoints/step10.pt", map_location="cpu")
    model.module.load_state_dict(state["model"])
    opt.load_state_dict(state["optim"])
    if rank == 0:
        print(f"resumed from checkpoints/step10.pt at step {state['step']}")
    train(model, opt, rank, g, 10, state["step"])
    if rank == 0:
        print("done: 20 steps")
    dist.destroy_process_group()


if __name__ == "__main__":
    entry(main)
