# expected: host-oom
# initiating_rank: 2
# nproc: 3
# variants: logs
# ulimit: -v 3000000
# note: the job runs under a 3 GB address-space limit per process (ulimit -v); rank 2's DataLoader worker (num_workers=1) builds a mixing buffer of 600M floats for a long-context sample (2.4 GB on top of the interpreter and torch), torch's CPU allocator fails in the worker and the rank re-raises "Caught RuntimeError in DataLoader worker process 0" with "DefaultCPUAllocator: can't allocate memory"; ranks 0 and 1 wait in DDP's all-reduce.
"""Per-sample buffers allocated inside a DataLoader worker; one sample on rank 2 is huge."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import MLP, entry, log, setup


class LongContext(Dataset):
    def __init__(self, rank):
        self.rank = rank
        self.lengths = [512] * 64
        if rank == 2:
            self.lengths[20] = 600_000_000  # a sample whose length field was read as bytes, not tokens

    def __len__(self):
        return len(self.lengths)

    def __getitem__(self, i):
        buf = torch.empty(self.lengths[i], dtype=torch.float32).normal_()
        return buf[:16].clone(), int(self.lengths[i] % 4)


def main():
    rank, world = setup()
    loader = DataLoader(LongContext(rank), batch_size=4, num_workers=1)
    model = DDP(MLP())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
