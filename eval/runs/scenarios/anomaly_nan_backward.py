# expected: anomaly-nan-backward
# initiating_rank: 3
# nproc: 4
# variants: plain logs record
# note: torch.autograd.set_detect_anomaly(True); rank 3 gets an all-zero embedding row whose L2 norm is differentiated (NaN gradient of sqrt at 0 through a divide), so backward raises "Function 'XBackward0' returned nan values" on rank 3 only.
"""Contrastive-style training that normalises embeddings by their norm, under anomaly detection."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(16, 8, bias=False)

    def forward(self, x):
        z = self.proj(x)
        return z / z.norm(dim=1, keepdim=True)


def main():
    torch.autograd.set_detect_anomaly(True)
    rank, world = setup()
    model = DDP(Encoder())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(rank)
    for step in range(10):
        x = torch.randn(8, 16, generator=g)
        if rank == 3 and step == 4:
            x[2] = 0.0  # a padding row that was not masked out
        z = model(x)
        loss = -(z @ z.t()).diagonal().mean() + (z @ z.t()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
