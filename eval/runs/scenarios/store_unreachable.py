# expected: store-connection-refused
# nproc: 2
# variants: plain
# launch: --nnodes 2 --node_rank 1 --nproc_per_node 2 --master_addr 127.0.0.1 --master_port {port} --rdzv_conf timeout=8
# note: this is node 1 of a 2-node static launch, pointed at a master address/port where no store listens (the master node is not up); its TCPStore client cannot connect and the launch fails before any worker starts.
"""A normal training script; this node cannot reach the master's store."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    log(rank, f"world size {world}, model ready")


if __name__ == "__main__":
    entry(main)
