# expected: corrupt-data-sample
# initiating_rank: 2
# nproc: 4
# variants: plain logs record
# note: a tokenised sample on rank 2 was stored with "label_ids" instead of "labels"; the padding collate_fn raises KeyError while building the batch; ranks 0, 1, 3 wait in DDP's all-reduce until the connection closes.
"""Padding collate over variable-length token samples; rank 2's shard has one sample with a wrong key."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader

from common import entry, log, setup

VOCAB, PAD = 100, 0


def make_samples(rank, n=48):
    g = torch.Generator().manual_seed(100 + rank)
    samples = []
    for i in range(n):
        length = int(torch.randint(4, 12, (1,), generator=g))
        ids = torch.randint(1, VOCAB, (length,), generator=g).tolist()
        s = {"input_ids": ids, "labels": ids[1:] + [PAD]}
        if rank == 2 and i == 21:
            s = {"input_ids": ids, "label_ids": ids[1:] + [PAD]}  # written by an older preprocessing script
        samples.append(s)
    return samples


def pad_collate(batch):
    width = max(len(b["input_ids"]) for b in batch)
    ids = torch.full((len(batch), width), PAD)
    labels = torch.full((len(batch), width), -100)
    for i, b in enumerate(batch):
        ids[i, : len(b["input_ids"])] = torch.tensor(b["input_ids"])
        labels[i, : len(b["labels"])] = torch.tensor(b["labels"])
    return {"input_ids": ids, "labels": labels}


class TinyLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(VOCAB, 32)
        self.out = torch.nn.Linear(32, VOCAB)

    def forward(self, ids):
        return self.out(self.emb(ids))


def main():
    rank, world = setup()
    loader = DataLoader(make_samples(rank), batch_size=4, collate_fn=pad_collate)
    model = DDP(TinyLM())
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step, batch in enumerate(loader):
        logits = model(batch["input_ids"])
        loss = torch.nn.functional.cross_entropy(logits.view(-1, VOCAB), batch["labels"].view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 2 == 0:
            log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
