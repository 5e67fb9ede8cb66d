# expected: anomaly-nan-backward
# initiating_rank: 0
# nproc: 4
# variants: logs
# note: torch.autograd.set_detect_anomaly(True); a custom loss takes a signed power (x ** 0.5) of a prediction margin that is negative for one sample of rank 0 at step 3, so the backward of the power yields nan and anomaly mode raises "Function 'PowBackward0' returned nan values in its 0th output." on rank 0; the other ranks wait in DDP's all-reduce.
"""A margin loss with a square root; anomaly detection is on while debugging."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def margin_loss(scores, target):
    margin = scores.gather(1, target.unsqueeze(1)).squeeze(1) - scores.mean(dim=1) + 1.0
    return (margin.clamp(max=4.0) ** 0.5).mean()


def main():
    torch.autograd.set_detect_anomaly(True)
    rank, world = setup()
    model = DDP(MLP(d_in=12, hidden=24, d_out=5))
    opt = torch.optim.SGD(model.parameters(), lr=0.02)
    g = torch.Generator().manual_seed(400 + rank)
    for step in range(10):
        x, y = torch.randn(6, 12, generator=g), torch.randint(0, 5, (6,), generator=g)
        if rank == 0 and step == 3:
            x[2] = x[2] * 40.0  # one outlier row drives its margin below zero
        scores = model(x)
        if rank == 0 and step == 3:
            scores = scores - torch.nn.functional.one_hot(y, 5) * 50.0
        loss = margin_loss(scores, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
