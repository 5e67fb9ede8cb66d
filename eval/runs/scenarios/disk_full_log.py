# expected: disk-full
# initiating_rank: 1
# nproc: 2
# variants: logs
# setup: tmpfs:outputs:64k
# note: every rank appends per-step predictions to outputs/preds-rank<N>.jsonl on a 64 KiB tmpfs; rank 1 writes larger records and its write raises OSError [Errno 28] No space left on device first.
"""Each rank dumps per-step predictions to a small output filesystem."""
import json

import torch
import torch.distributed as dist

from common import MLP, entry, log, setup


def main():
    rank, world = setup(timeout_s=10)
    model = MLP()
    g = torch.Generator().manual_seed(rank)
    rows = 64 if rank == 1 else 8
    with open(f"outputs/preds-rank{rank}.jsonl", "w") as out:
        for step in range(40):
            x = torch.randn(rows, 16, generator=g)
            with torch.no_grad():
                p = model(x).softmax(-1)
            for row in p.tolist():
                out.write(json.dumps({"step": step, "probs": row}) + "\n")
            out.flush()
            t = torch.tensor([float(step)])
            dist.all_reduce(t)
            if step % 5 == 0:
                log(rank, f"step {step}: wrote {rows} predictions")


if __name__ == "__main__":
    entry(main)
