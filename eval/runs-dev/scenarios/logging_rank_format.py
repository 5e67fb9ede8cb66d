# expected: corrupt-data-sample
# initiating_rank: 2
# nproc: 4
# variants: plain
# note: the script logs through Python's logging with the format "%(asctime)s %(levelname)s pid=%(process)d rank=%(rank)s %(name)s: %(message)s" (the rank added by a logging filter); rank 2's tokenised sample 22 is empty (an empty line in its text file), so the padding collate's read of each sample's first token (s[0]) raises IndexError at step 2; the training loop logs it with logger.exception("batch failed") and re-raises; ranks 0, 1, 3 wait in DDP's all-reduce.
"""Logging with pid and rank in every line; the traceback of logger.exception carries neither."""
import logging

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import entry, setup


class RankFilter(logging.Filter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def filter(self, record):
        record.rank = self.rank
        return True


class Tokens(Dataset):
    def __init__(self, rank, n=64):
        g = torch.Generator().manual_seed(60 + rank)
        self.seqs = [torch.randint(1, 50, (int(torch.randint(3, 9, (1,), generator=g)),), generator=g)
                     for _ in range(n)]
        if rank == 2:
            self.seqs[22] = torch.zeros(0, dtype=torch.long)  # an empty line in the source text

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i]


def pad_collate(batch):
    lengths = [len(s) for s in batch]
    first_tokens = torch.stack([s[0] for s in batch])  # every sample has at least one token
    padded = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True)
    return padded, first_tokens, torch.tensor(lengths)


class BagModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.EmbeddingBag(50, 16)
        self.head = torch.nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.emb(x))


def main():
    rank, world = setup()
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(levelname)s pid=%(process)d rank=%(rank)s %(name)s: %(message)s"))
    handler.addFilter(RankFilter(rank))
    logger = logging.getLogger("train")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    loader = DataLoader(Tokens(rank), batch_size=8, shuffle=False, collate_fn=pad_collate)
    model = DDP(BagModel())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    logger.info("training on %d batches", len(loader))
    batches = iter(loader)
    for step in range(len(loader)):
        try:
            x, first, _ = next(batches)
        except Exception:
            logger.exception("batch failed at step %d", step)
            raise
        loss = torch.nn.functional.cross_entropy(model(x), first % 4)
        opt.zero_grad()
        loss.backward()
        opt.step()
        logger.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    entry(main)
