# expected: loss-nan
# initiating_rank: 2
# nproc: 4
# variants: plain logs record
# note: a batch on rank 2 carries an inf feature at step 5; its local loss is nan and the script's own check prints "Loss is nan, stopping training" and calls sys.exit(1) (the DETR/timm idiom) before backward; the other ranks are left in DDP's all-reduce.
"""DDP regression with a finite-loss guard copied from the classic DETR/timm training loop."""
import math
import sys

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, setup


def main():
    rank, world = setup()
    model = DDP(MLP(d_out=1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    g = torch.Generator().manual_seed(rank)
    for step in range(20):
        x = torch.randn(8, 16, generator=g)
        if rank == 2 and step == 5:
            x[3, 7] = float("inf")  # an unnormalised sample
        y = x.sum(dim=1, keepdim=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss_value = loss.item()
        if not math.isfinite(loss_value):
            print("Loss is {}, stopping training".format(loss_value))
            sys.exit(1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"Epoch: [0]  [{step:>2}/20]  loss: {loss_value:.4f}  lr: 0.010000")


if __name__ == "__main__":
    entry(main)
