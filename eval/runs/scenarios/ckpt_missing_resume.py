# expected: unclassified
# nproc: 2
# variants: plain
# args: --resume checkpoints/step_3000.pt
# note: --resume names checkpoints/step_3000.pt, which does not exist (a typo in the step); torch.load raises FileNotFoundError on every rank at start-up. No entry is about a missing checkpoint (data-file-missing is for training data), so unclassified.
"""Resume from a checkpoint path given on the command line that does not exist."""
import argparse

import torch

from common import MLP, entry, log, setup


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--resume", required=True)
    args = p.parse_args()
    rank, world = setup()
    model = MLP()
    log(rank, f"resuming from {args.resume}")
    model.load_state_dict(torch.load(args.resume, map_location="cpu"))


if __name__ == "__main__":
    entry(main)
