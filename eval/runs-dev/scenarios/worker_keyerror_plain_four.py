# expected: corrupt-data-sample
# initiating_rank: 2
# nproc: 4
# variants: plain record
# note: a DataLoader with num_workers=2 decodes samples from per-rank dictionaries of feature vectors keyed by sample id; rank 2's id list names id "s2-0041", which is missing from its feature store (a failed export), so a worker of rank 2 raises KeyError and the rank re-raises "Caught KeyError in DataLoader worker process N" with the worker's original traceback; ranks 0, 1, 3 wait in DDP's all-reduce.
"""A worker's KeyError re-raised in the main process of rank 2."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class FeatureStore(Dataset):
    def __init__(self, rank, n=64):
        g = torch.Generator().manual_seed(40 + rank)
        self.ids = [f"s{rank}-{i:04d}" for i in range(n)]
        self.features = {sid: torch.randn(16, generator=g) for sid in self.ids}
        if rank == 2:
            del self.features["s2-0041"]  # the export of this sample failed

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        sid = self.ids[i]
        return self.features[sid], i % 4


def main():
    rank, world = setup()
    loader = DataLoader(FeatureStore(rank), batch_size=8, shuffle=False, num_workers=2)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
