# expected: none
# nproc: 4
# variants: plain logs
# note: healthy DDP run of 40 steps on 4 ranks with a progress line every 5 steps and a final summary; nothing fails.
"""A healthy DDP training run with periodic progress output."""
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(rank)
    w_true = torch.randn(16, 4, generator=torch.Generator().manual_seed(0))
    t0 = time.time()
    for step in range(1, 41):
        x = torch.randn(32, 16, generator=g)
        y = (x @ w_true).argmax(dim=1)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            avg = loss.detach().clone()
            dist.all_reduce(avg)
            if rank == 0:
                print(f"step {step:3d}/40 | loss {avg.item() / world:.4f} | {32 * world * step / (time.time() - t0):.0f} samples/s")
    if rank == 0:
        print("training finished: 40 steps")
    dist.destroy_process_group()


if __name__ == "__main__":
    entry(main)
