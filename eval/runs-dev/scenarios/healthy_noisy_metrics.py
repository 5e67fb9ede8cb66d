# expected: none
# nproc: 3
# variants: plain
# note: healthy three-rank run whose own log lines carry alarming words in metric names (val_error, nan_count 0, inf_grads 0, "0 errors, 0 timeouts"), with PyTorch's UserWarning about calling lr_scheduler.step() before optimizer.step() on the first step; nothing fails.
"""A healthy run with words in its metrics that look like failures."""
import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from common import entry, log, setup


def main():
    rank, world = setup()
    model = DDP(torch.nn.Linear(6, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
    for step in range(15):
        if step == 0:
            sched.step()  # the warm-start helper steps the schedule first (PyTorch warns)
        x, y = torch.randn(10, 6), torch.randint(0, 2, (10,))
        out = model(x)
        loss = torch.nn.functional.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        nan_count = sum(int(torch.isnan(p.grad).sum()) for p in model.parameters())
        inf_grads = sum(int(torch.isinf(p.grad).sum()) for p in model.parameters())
        opt.step()
        if step > 0:
            sched.step()
        val_error = float((out.argmax(-1) != y).float().mean())
        if rank == 0 and step % 3 == 0:
            log(rank, f"step {step} loss {loss.item():.4f} val_error {val_error:.3f} "
                      f"nan_count {nan_count} inf_grads {inf_grads}")
    if rank == 0:
        log(rank, "data pipeline: 0 errors, 0 timeouts, 0 retries")


if __name__ == "__main__":
    entry(main)
