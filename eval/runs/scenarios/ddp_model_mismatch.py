# expected: ddp-model-mismatch-across-ranks
# initiating_rank: 1
# nproc: 2
# variants: logs
# note: rank 1 reads a stale config with hidden=48 while rank 0 uses hidden=32; constructing DistributedDataParallel verifies parameter shapes across ranks and raises.
"""Ranks build models of different width from disagreeing configs."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup


def load_config(rank):
    cfg = {"hidden": 32, "lr": 0.1}
    if rank == 1:
        cfg["hidden"] = 48  # an old copy of config.yaml on this worker
    return cfg


def main():
    rank, world = setup()
    cfg = load_config(rank)
    log(rank, f"building model with hidden={cfg['hidden']}")
    model = DDP(MLP(hidden=cfg["hidden"]))
    log(rank, "model wrapped in DDP")


if __name__ == "__main__":
    entry(main)
