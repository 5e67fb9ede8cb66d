# expected: corrupt-data-sample
# nproc: 4
# variants: plain
# note: ranks 1, 2 and 3 read their samples through one node-local manifest cache whose row 19 lost its "label" field (a partial rewrite), while rank 0 reads the intact copy; at step 2 the three ranks reach row 19 in the same moment (the all-reduce of step 1 releases them together) and each raises KeyError in Dataset.__getitem__, so three tracebacks are printed at once on the shared console; rank 0 waits in DDP's all-reduce. Three ranks fail the same way together: no initiating rank.
"""Three ranks raise the same KeyError at the same moment; their tracebacks share one console."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class Manifest(Dataset):
    def __init__(self, rank, n=64):
        g = torch.Generator().manual_seed(11)
        self.rows = [{"features": torch.randn(16, generator=g), "label": i % 4} for i in range(n)]
        if rank != 0:
            del self.rows[19]["label"]  # the cached manifest was rewritten halfway

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows[i]
        return row["features"], row["label"]


def main():
    rank, world = setup()
    loader = DataLoader(Manifest(rank), batch_size=8, shuffle=False)
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
