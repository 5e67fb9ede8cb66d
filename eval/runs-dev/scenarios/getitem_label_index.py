# expected: corrupt-data-sample
# initiating_rank: 3
# nproc: 4
# variants: plain logs
# note: an image-classification Dataset maps each sample's class name to an index through a list of 10 class names; one annotation in rank 3's shard carries class id 12 (from a newer label set), so Dataset.__getitem__ raises IndexError (list index out of range) at step 4 on rank 3 (num_workers=0); ranks 0-2 are left in DDP's all-reduce.
"""A small CNN over synthetic 12x12 images; one annotation on rank 3 points past the class list."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, Dataset

from common import entry, log, setup

CLASSES = ["cat", "dog", "car", "ship", "tree", "bird", "fish", "cup", "lamp", "shoe"]
LABEL_INDEX = {c: i for i, c in enumerate(CLASSES)}


class Annotated(Dataset):
    def __init__(self, rank, n=64):
        g = torch.Generator().manual_seed(7 * rank + 3)
        self.images = torch.randn(n, 1, 12, 12, generator=g)
        self.class_ids = torch.randint(0, len(CLASSES), (n,), generator=g).tolist()
        if rank == 3:
            self.class_ids[37] = 12  # annotation exported with the 14-class label set

    def __len__(self):
        return len(self.class_ids)

    def __getitem__(self, i):
        name = CLASSES[self.class_ids[i]]
        return self.images[i], LABEL_INDEX[name]


class SmallCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 8, 3, padding=1)
        self.pool = torch.nn.AdaptiveAvgPool2d(4)
        self.head = torch.nn.Linear(8 * 16, len(CLASSES))

    def forward(self, x):
        return self.head(self.pool(torch.relu(self.conv(x))).flatten(1))


def main():
    rank, world = setup()
    loader = DataLoader(Annotated(rank), batch_size=8, shuffle=False)
    model = DDP(SmallCNN())
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        for step, (x, y) in enumerate(loader):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log(rank, f"epoch {epoch} step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
