# expected: master-port-in-use
# nproc: 3
# variants: logs
# setup: bindport
# note: the master port is still held by a process of an earlier job on this node; torchrun's static rendezvous cannot start its TCPStore server on that port, and the launch fails before any of the three workers starts.
"""A normal training script; the failure is in the launch."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup()
    model = DDP(torch.nn.Linear(4, 4))
    model(torch.randn(2, 4)).sum().backward()
    log(rank, "step 0 done")


if __name__ == "__main__":
    entry(main)
