# expected: uneven-inputs-hang
# initiating_rank: 2
# nproc: 3
# variants: plain logs
# note: final validation gathers each batch's predictions with all_gather, over per-rank validation lists without a DistributedSampler; rank 2's list has 5 batches and the others 6, so rank 2 finishes validation, prints its summary and exits cleanly, while ranks 0 and 1 wait in the all_gather of their sixth batch and fail (connection closed or timeout).
"""Validation with per-batch all_gather over unevenly sized per-rank lists."""
import torch
import torch.distributed as dist

from common import entry, log, setup


def main():
    rank, world = setup(timeout_s=10)
    model = torch.nn.Linear(12, 4)
    val_batches = 5 if rank == 2 else 6  # 17 validation batches split by a round-robin list
    correct = 0
    with torch.no_grad():
        for b in range(val_batches):
            x = torch.randn(8, 12)
            pred = model(x).argmax(-1)
            gathered = [torch.zeros_like(pred) for _ in range(world)]
            dist.all_gather(gathered, pred)
            correct += int((torch.cat(gathered) == 0).sum())
            log(rank, f"val batch {b} gathered {sum(t.numel() for t in gathered)} predictions")
    log(rank, f"validation done: {correct} matches")


if __name__ == "__main__":
    entry(main)
