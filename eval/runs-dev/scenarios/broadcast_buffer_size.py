# expected: collective-mismatch
# initiating_rank: 2
# nproc: 4
# variants: plain logs
# note: rank 0 broadcasts a 32-entry vocabulary-size table at start-up; rank 2 builds its receive buffer from a stale config with 24 entries, so the broadcast carries different sizes on different ranks and gloo fails (or the ranks time out after 10 s).
"""Start-up broadcast of a table whose receive buffer is sized from a stale config on rank 2."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=10)
    entries = 24 if rank == 2 else 32  # rank 2 read config.v1.json
    table = torch.arange(entries, dtype=torch.float32) if rank == 0 else torch.zeros(entries)
    log(rank, f"receiving table of {entries} entries")
    dist.broadcast(table, src=0)
    log(rank, f"table checksum {table.sum().item():.1f}")
    model = torch.nn.Linear(32, 4)
    for step in range(5):
        loss = model(table[:32].unsqueeze(0)).pow(2).mean()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
