# expected: unclassified
# initiating_rank: 0
# nproc: 3
# variants: plain logs
# note: rank 0 saves the epoch checkpoint to runs/exp7/checkpoints/epoch_0.pt, but the output folder was never created (the script's mkdir was behind a --resume flag); torch.save raises "Parent directory runs/exp7/checkpoints does not exist." on rank 0; ranks 1 and 2 wait in the barrier after the save. No entry covers a missing output folder, so unclassified.
"""Epoch checkpoint written by rank 0 into a folder that does not exist."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup

OUT = "runs/exp7/checkpoints"


def main():
    rank, world = setup()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(14, 28), torch.nn.SiLU(), torch.nn.Linear(28, 7)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for step in range(5):
            x, y = torch.randn(8, 14), torch.randint(0, 7, (8,))
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        log(rank, f"epoch {epoch} loss {loss.item():.4f}")
        if rank == 0:
            torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": epoch},
                       f"{OUT}/epoch_{epoch}.pt")
            log(rank, f"saved {OUT}/epoch_{epoch}.pt")
        dist.barrier()


if __name__ == "__main__":
    entry(main)
