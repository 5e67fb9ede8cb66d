# expected: master-port-in-use
# nproc: 2
# variants: plain logs
# setup: bindport
# note: another process already listens on MASTER_PORT (a leftover job); torchrun's static rendezvous cannot start its TCPStore server and the job stops before any worker trains.
"""A normal DDP training script; the failure is in the launch, not in the script."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(5):
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
