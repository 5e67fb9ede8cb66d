# expected: corrupt-data-sample
# initiating_rank: 1
# nproc: 2
# variants: plain logs record
# note: one PNG of rank 1's image folder is truncated to its first 300 bytes; Pillow raises while decoding it in a DataLoader worker (num_workers=2).
"""An image-folder classifier fed by DataLoader workers through Pillow; one PNG is cut short."""
import os

import numpy as np
import torch
from PIL import Image
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import entry, log, setup


class ImageFolder(Dataset):
    def __init__(self, root):
        self.paths = sorted(os.path.join(root, p) for p in os.listdir(root))

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        with Image.open(self.paths[i]) as im:
            arr = np.asarray(im.convert("RGB"), dtype=np.float32) / 255.0
        return torch.from_numpy(arr).permute(2, 0, 1), i % 2


def main():
    rank, world = setup()
    root = f"images/rank{rank}"
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(rank)
    for i in range(24):
        path = f"{root}/img_{i:05d}.png"
        Image.fromarray(rng.integers(0, 255, (32, 32, 3), dtype=np.uint8)).save(path)
        if rank == 1 and i == 13:
            with open(path, "rb") as f:
                head = f.read(300)
            with open(path, "wb") as f:
                f.write(head)
    loader = DataLoader(ImageFolder(root), batch_size=4, num_workers=2)
    model = DDP(torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.AdaptiveAvgPool2d(1),
                                    torch.nn.Flatten(), torch.nn.Linear(8, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
