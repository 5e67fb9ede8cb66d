# expected: corrupt-data-sample
# initiating_rank: 0
# nproc: 3
# variants: logs record
# note: a text Dataset tokenises sentences with a fixed word->id dictionary inside DataLoader workers (num_workers=2); one sentence in rank 0's shard holds a word that is not in the vocabulary, so the lookup raises KeyError in a worker and the rank re-raises "Caught KeyError in DataLoader worker process N"; ranks 1 and 2 wait in DDP's all-reduce.
"""Bag-of-words classifier; the vocabulary lookup happens in DataLoader workers."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import entry, log, setup

WORDS = "the a model data train loss step rank node batch grad token layer head norm".split()
VOCAB = {w: i for i, w in enumerate(WORDS)}


class Sentences(Dataset):
    def __init__(self, rank, n=96):
        g = torch.Generator().manual_seed(31 + rank)
        self.rows = []
        for i in range(n):
            idx = torch.randint(0, len(WORDS), (6,), generator=g).tolist()
            words = [WORDS[j] for j in idx]
            if rank == 0 and i == 50:
                words[3] = "optimiser"  # a word the vocabulary was never built with
            self.rows.append((" ".join(words), i % 3))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        ids = torch.tensor([VOCAB[w] for w in text.split()])
        return ids, label


def main():
    rank, world = setup()
    loader = DataLoader(Sentences(rank), batch_size=8, num_workers=2)
    model = DDP(torch.nn.Sequential(torch.nn.EmbeddingBag(len(WORDS), 24), torch.nn.Linear(24, 3)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (ids, label) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(ids), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 2 == 0:
            log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
