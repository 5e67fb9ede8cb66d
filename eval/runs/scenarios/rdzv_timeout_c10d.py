# expected: rendezvous-timeout
# nproc: 2
# variants: logs
# launch: --nnodes 2 --nproc_per_node 2 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:{port} --rdzv_id job-4711 --rdzv_conf join_timeout=8
# note: elastic launch with the c10d rendezvous for exactly 2 nodes; only this node joins, so the rendezvous times out after join_timeout=8 s before any worker starts.
"""A normal training script; the second node never joins the c10d rendezvous."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def main():
    rank, world = setup()
    model = DDP(MLP())
    log(rank, f"world size {world}, model ready")


if __name__ == "__main__":
    entry(main)
