# expected: unclassified
# initiating_rank: 0
# nproc: 4
# variants: plain
# note: rank 0 alone runs a validation pass every 3 steps while ranks 1-3 go on training; its confusion-matrix update indexes a 10x10 tensor with each validation label, and one validation label is 10 (a class added after the matrix was sized), so rank 0 raises IndexError ("index 10 is out of bounds for dimension 0 with size 10") in its metric code at step 3; ranks 1-3 are already in the all-reduce of step 4. An error in the program's own metric code, not in loading a training sample: no entry, so unclassified.
"""Rank 0 validates alone between steps; its metric code fails while the others train."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import MLP, entry, log, setup

NUM_CLASSES = 10


def validate(model, rank):
    g = torch.Generator().manual_seed(5)
    confusion = torch.zeros(NUM_CLASSES, NUM_CLASSES, dtype=torch.long)
    labels = torch.randint(0, NUM_CLASSES, (40,), generator=g)
    labels[27] = 10  # a class added to the validation set after the metric was sized
    with torch.no_grad():
        preds = model.module(torch.randn(40, 16, generator=g)).argmax(1)
    for y, p in zip(labels.tolist(), preds.tolist()):
        confusion[y, p] += 1
    return confusion.diag().sum().item() / confusion.sum().item()


def main():
    rank, world = setup()
    model = DDP(MLP(d_out=NUM_CLASSES))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(10):
        x, y = torch.randn(8, 16), torch.randint(0, NUM_CLASSES, (8,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")
        if rank == 0 and step % 3 == 0 and step > 0:
            log(rank, f"validation at step {step}")
            acc = validate(model, rank)
            log(rank, f"val accuracy {acc:.3f}")


if __name__ == "__main__":
    entry(main)
