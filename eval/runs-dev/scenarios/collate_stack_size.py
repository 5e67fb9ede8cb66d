# expected: corrupt-data-sample
# initiating_rank: 1
# nproc: 4
# variants: plain record
# note: spectrogram clips are stacked by a collate_fn that calls torch.stack; one clip in rank 1's shard was cut to 40 frames instead of 64 (a truncated recording), so torch.stack raises "stack expects each tensor to be equal size" inside the collate at step 2 on rank 1; ranks 0, 2, 3 wait in DDP's all-reduce.
"""Audio-style spectrogram batches with a custom collate; a short clip on rank 1 breaks the stack."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader

from common import entry, log, setup

MELS, FRAMES = 20, 64


def clips(rank, n=40):
    g = torch.Generator().manual_seed(500 + rank)
    out = []
    for i in range(n):
        frames = 40 if (rank == 1 and i == 13) else FRAMES
        out.append({"mel": torch.randn(MELS, frames, generator=g), "speaker": i % 5})
    return out


def stack_collate(batch):
    return torch.stack([b["mel"] for b in batch]), torch.tensor([b["speaker"] for b in batch])


class SpeakerNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv1d(MELS, 16, 5, padding=2)
        self.head = torch.nn.Linear(16, 5)

    def forward(self, mel):
        return self.head(torch.relu(self.conv(mel)).mean(dim=2))


def main():
    rank, world = setup()
    loader = DataLoader(clips(rank), batch_size=6, collate_fn=stack_collate)
    model = DDP(SpeakerNet())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, (mel, speaker) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(mel), speaker)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(rank, f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    entry(main)
