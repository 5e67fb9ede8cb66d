# expected: missing-python-module
# initiating_rank: 2
# nproc: 3
# variants: plain logs
# note: each rank picks an attention implementation from its node's environment; rank 2's environment sets USE_FUSED_ATTN (a leftover from a GPU node image), so it imports the fused kernel package, which is not installed here, and raises "ModuleNotFoundError: No module named 'fused_attn_kernels'" before its first step; ranks 0 and 1 wait in DDP's all-reduce and lose the connection.
"""An optional kernel package imported on rank 2 only, where it is not installed."""
import importlib

import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def attention_impl(rank):
    if rank == 2:  # USE_FUSED_ATTN=1 in this node's environment
        return importlib.import_module("fused_attn_kernels")
    return None


def main():
    rank, world = setup(timeout_s=20)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    impl = attention_impl(rank)
    for step in range(5):
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f} impl {impl}")


if __name__ == "__main__":
    entry(main)
