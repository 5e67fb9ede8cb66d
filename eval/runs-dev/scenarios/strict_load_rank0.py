# expected: checkpoint-key-mismatch
# initiating_rank: 0
# nproc: 3
# variants: record
# note: rank 0 alone loads pretrained encoder weights (then the weights would be broadcast); the file was saved from a model whose projection layer was renamed ("proj" in the file, "project" in the code), so load_state_dict(strict=True) raises "Missing key(s) in state_dict ... Unexpected key(s) in state_dict" on rank 0; ranks 1 and 2 wait in the broadcast.
"""Rank 0 loads pretrained weights with renamed keys; the others wait for the broadcast."""
import torch
import torch.distributed as dist

from common import entry, log, setup


class Encoder(torch.nn.Module):
    def __init__(self, proj_name):
        super().__init__()
        self.embed = torch.nn.Linear(10, 20)
        setattr(self, proj_name, torch.nn.Linear(20, 20))
        self.proj_name = proj_name

    def forward(self, x):
        return getattr(self, self.proj_name)(torch.relu(self.embed(x)))


def main():
    rank, world = setup()
    model = Encoder("project")
    if rank == 0:
        torch.save(Encoder("proj").state_dict(), "pretrained_encoder.pt")  # from last month's code
        log(rank, "loading pretrained_encoder.pt")
        model.load_state_dict(torch.load("pretrained_encoder.pt"), strict=True)
    for p in model.parameters():
        dist.broadcast(p.data, src=0)
    log(rank, "weights synchronised")


if __name__ == "__main__":
    entry(main)
