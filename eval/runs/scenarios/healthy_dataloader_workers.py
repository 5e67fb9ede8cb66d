# expected: none
# nproc: 2
# variants: plain logs
# note: healthy run with a DistributedSampler, num_workers=2 and two epochs, validation at each epoch end and a checkpoint saved by rank 0; nothing fails.
"""A healthy epoch-based run with DataLoader workers, validation and a checkpoint."""
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

from common import MLP, entry, setup


def main():
    rank, world = setup()
    g = torch.Generator().manual_seed(0)
    x = torch.randn(512, 16, generator=g)
    y = (x[:, :4]).argmax(dim=1)
    train = TensorDataset(x[:448], y[:448])
    val = TensorDataset(x[448:], y[448:])
    sampler = DistributedSampler(train, shuffle=True, seed=0)
    loader = DataLoader(train, batch_size=16, sampler=sampler, num_workers=2)
    model = DDP(MLP())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(2):
        sampler.set_epoch(epoch)
        model.train()
        for step, (xb, yb) in enumerate(loader):
            loss = torch.nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if rank == 0 and step % 4 == 0:
                print(f"epoch {epoch} [{step * 16 * world:4d}/{len(train)}] loss {loss.item():.4f}")
        model.eval()
        with torch.no_grad():
            acc = (model(val.tensors[0]).argmax(1) == val.tensors[1]).float().mean()
        dist.all_reduce(acc)
        if rank == 0:
            print(f"epoch {epoch} validation accuracy {acc.item() / world:.3f}")
            os.makedirs("checkpoints", exist_ok=True)
            torch.save({"epoch": epoch, "model": model.module.state_dict()}, f"checkpoints/epoch{epoch}.pt")
            print(f"saved checkpoints/epoch{epoch}.pt")
        dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    entry(main)
