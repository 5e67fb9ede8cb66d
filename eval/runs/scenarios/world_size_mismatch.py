# expected: rendezvous-timeout
# nproc: 2
# variants: plain
# note: the script passes its own world_size (from a config default of 4) to init_process_group while torchrun started only 2 processes; the store-based barrier in init_process_group waits for 4 and times out after 10 s on both ranks.
"""init_process_group with a world size taken from a config file that disagrees with the launch."""
import os
from datetime import timedelta

import torch.distributed as dist

CONFIG = {"num_gpus": 4, "backend": "gloo"}


def main():
    rank = int(os.environ["RANK"])
    print(f"rank {rank}: initialising with world_size={CONFIG['num_gpus']}", flush=True)
    dist.init_process_group(CONFIG["backend"], rank=rank, world_size=CONFIG["num_gpus"],
                            timeout=timedelta(seconds=10))
    print(f"rank {rank}: ready", flush=True)


if __name__ == "__main__":
    main()
