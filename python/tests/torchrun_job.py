"""A two-rank CPU job for tests/test_torchrun.py: both ranks join a gloo process group and
all-reduce a tensor, then rank 1 raises while rank 0 waits at a barrier (torchrun then ends rank 0
with SIGTERM). The entry point is wrapped in torch's @record, which writes error.json."""
import os

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

import faultline


@record
def main():
    faultline.watch_this_process()
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    t = torch.ones(4) * (rank + 1)
    dist.all_reduce(t)
    if rank == 1:
        raise ValueError("batch 17 of shard %d has %d labels for %d samples" % (rank, 31, 32))
    dist.barrier()  # never completes: rank 1 is gone


if __name__ == "__main__":
    main()
