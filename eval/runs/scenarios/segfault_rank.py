# expected: worker-segfault
# initiating_rank: 2
# nproc: 4
# variants: plain logs record
# note: at step 3 rank 2 dereferences a NULL pointer through ctypes (standing for a broken native extension) and dies by SIGSEGV with no Python traceback; the peers lose the connection.
"""DDP loop that calls into native code which crashes on one rank."""
import ctypes

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def native_augment(rank, step, x):
    if rank == 2 and step == 3:
        ctypes.string_at(0)  # reads address 0: SIGSEGV
    return x


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(8):
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        x = native_augment(rank, step, x)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
