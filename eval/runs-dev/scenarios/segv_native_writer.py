# expected: worker-segfault
# initiating_rank: 1
# nproc: 3
# variants: plain record
# note: every rank writes a metrics record through a native helper after step 3; on rank 1 the helper reads through a NULL pointer (ctypes.string_at(0), standing for a buggy C extension) and the process dies by SIGSEGV with no Python traceback; ranks 0 and 2 lose the connection in the next all-reduce.
"""A native metrics writer crashes with a NULL read on rank 1."""
import ctypes

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def native_write(rank, payload):
    address = 0 if rank == 1 else ctypes.addressof(payload)  # rank 1's handle was never opened
    return ctypes.string_at(address)  # reads up to the NUL byte, as the C helper's strlen does


def main():
    rank, world = setup()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(6, 6), torch.nn.ReLU(), torch.nn.Linear(6, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(8):
        loss = model(torch.randn(10, 6)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
        if step == 3:
            native_write(rank, ctypes.create_string_buffer(b"step" * 4))


if __name__ == "__main__":
    entry(main)
