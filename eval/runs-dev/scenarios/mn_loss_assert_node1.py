# expected: loss-nan
# initiating_rank: 2
# nodes: 2
# nproc: 2
# variants: plain record
# note: two nodes of two ranks each; the loop asserts that the loss is finite (assert not torch.isnan(loss), "loss is nan"); at step 4 global rank 2 (node 1, local rank 0) gets a batch whose log-probabilities include log(0), its loss is inf and the AssertionError is raised on rank 2; the other ranks wait in DDP's all-reduce.
"""Two-node job; the NaN check in the loop fires on the first rank of node 1."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup()
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.Softmax(dim=-1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(8):
        x, y = torch.randn(6, 8), torch.randint(0, 4, (6,))
        probs = model(x)
        if rank == 2 and step == 4:
            probs = probs * torch.tensor([0.0, 1.0, 1.0, 1.0])  # a masked class that the target uses
            y[0] = 0
        loss = torch.nn.functional.nll_loss(probs.log(), y)
        assert not torch.isnan(loss) and not torch.isinf(loss), "loss is nan"
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
