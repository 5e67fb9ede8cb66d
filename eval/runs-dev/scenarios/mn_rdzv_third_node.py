# expected: rendezvous-timeout
# nodes: 2
# nproc: 2
# variants: plain
# launch: --nnodes 3 --nproc_per_node 2 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:{port} --rdzv_id job-3n --rdzv_conf join_timeout=10
# note: a c10d rendezvous for exactly 3 nodes; two agents join (node0 and node1), the third node never starts (its allocation failed), so both agents' rendezvous times out after join_timeout=10 s before any worker starts. Each node's console is its own file.
"""A normal training script; the third node of the c10d rendezvous never joins."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    loss = model(torch.randn(4, 16)).sum()
    loss.backward()
    log(rank, "step 0 done")


if __name__ == "__main__":
    entry(main)
