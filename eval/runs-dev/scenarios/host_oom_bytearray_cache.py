# expected: host-oom
# initiating_rank: 1
# nproc: 4
# variants: plain
# ulimit: -v 3000000
# note: the job runs under a 3 GB address-space limit per process (ulimit -v); rank 1 preloads its packed token file into a bytearray sized from a header field that is 4 GiB (the file is concatenated from several parts) and the interpreter raises a bare MemoryError; ranks 0, 2, 3 wait in the barrier after loading.
"""Rank 1 reserves a read buffer larger than the process may map."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def preload(rank):
    declared = (4 << 30) if rank == 1 else (1 << 20)  # bytes, from the packed file's header
    buf = bytearray(declared)
    return memoryview(buf)[:16]


def main():
    rank, world = setup()
    head = preload(rank)
    log(rank, f"preloaded token file, first bytes {bytes(head[:4])!r}")
    dist.barrier()
    w = torch.nn.Linear(3, 3)
    for step in range(3):
        w(torch.randn(2, 3)).sum().backward()
        log(rank, f"step {step}")


if __name__ == "__main__":
    entry(main)
