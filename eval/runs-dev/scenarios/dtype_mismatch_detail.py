# expected: collective-mismatch
# initiating_rank: 3
# nproc: 4
# variants: record
# env: TORCH_DISTRIBUTED_DEBUG=DETAIL
# note: with TORCH_DISTRIBUTED_DEBUG=DETAIL, the ranks all-reduce a token count; rank 3 counts with an int64 tensor while the others use float32, and the debug wrapper process group reports that the collectives differ in tensor dtypes (rank 3's fingerprint vs the others').
"""Token counting all-reduce with a dtype that differs on rank 3, under the distributed debug mode."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(6):
        x, y = torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 3:
            tokens = torch.tensor([x.numel()], dtype=torch.int64)  # counted by a data helper
        else:
            tokens = torch.tensor([float(x.numel())])
        dist.all_reduce(tokens)
        log(rank, f"step {step} loss {loss.item():.4f} tokens seen {int(tokens.item())}")


if __name__ == "__main__":
    entry(main)
