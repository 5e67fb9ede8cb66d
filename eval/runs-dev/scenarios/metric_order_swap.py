# expected: collective-mismatch
# initiating_rank: 1
# nproc: 3
# variants: plain logs
# note: at the end of each epoch every rank all-reduces two metrics, a 1-element loss sum and a 10-element per-class count; rank 1 runs an older metrics helper that reduces them in the opposite order, so the first all_reduce pairs 1 element with 10 on different ranks and gloo fails (or the ranks time out after 8 s).
"""Two metric all-reduces issued in a different order on rank 1."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def reduce_metrics(rank, loss_sum, class_counts):
    if rank == 1:  # metrics.py from the previous release
        dist.all_reduce(class_counts)
        dist.all_reduce(loss_sum)
    else:
        dist.all_reduce(loss_sum)
        dist.all_reduce(class_counts)


def main():
    rank, world = setup(timeout_s=8)
    model = DDP(MLP(d_in=10, hidden=20, d_out=10))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(77 + rank)
    for epoch in range(2):
        loss_sum, counts = torch.zeros(1), torch.zeros(10)
        for step in range(4):
            x, y = torch.randn(8, 10, generator=g), torch.randint(0, 10, (8,), generator=g)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.detach()
            counts += torch.bincount(y, minlength=10).float()
        log(rank, f"epoch {epoch} local loss {loss_sum.item() / 4:.4f}")
        reduce_metrics(rank, loss_sum, counts)
        log(rank, f"epoch {epoch} global loss {loss_sum.item() / (4 * world):.4f}")


if __name__ == "__main__":
    entry(main)
