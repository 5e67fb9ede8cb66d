# expected: store-connection-refused
# initiating_rank: 1
# nproc: 3
# variants: plain logs
# note: the script sets up its process group itself with init_method="tcp://127.0.0.1:PORT", the port read from each node's copy of the job config; rank 1's copy is stale and names a port where no store listens, so its TCPStore client is refused until its 10 s timeout and it raises; ranks 0 and 2 wait for it in init_process_group and time out or fail after it leaves.
"""A process group set up by hand, with rank 1 connecting to the store port of a stale config."""
import os
from datetime import timedelta

import torch.distributed as dist

from common import log


def main():
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    port = int(os.environ["MASTER_PORT"]) + (7 if rank == 1 else 3)  # rank 1's config is stale
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world, timeout=timedelta(seconds=10))
    log(rank, "process group ready")
    dist.barrier()
    log(rank, "done")


if __name__ == "__main__":
    main()
