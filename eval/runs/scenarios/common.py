"""Small helpers shared by the scenario scripts: process-group setup, seeding, a toy model, and the
optional @record wrapper (the "record" variant of eval/runs/generate sets SCENARIO_RECORD=1)."""
import os
import sys
from datetime import timedelta

import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record


def setup(timeout_s=30, seed=1234):  # joins the gloo process group that torchrun describes
    _wait_for_all_ranks()
    dist.init_process_group("gloo", timeout=timedelta(seconds=timeout_s))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(seed)
    return rank, world


def log(rank, msg):
    print(f"[rank {rank}] {msg}", flush=True)


class MLP(torch.nn.Module):
    def __init__(self, d_in=16, hidden=32, d_out=4):
        super().__init__()
        self.fc1 = torch.nn.Linear(d_in, hidden)
        self.fc2 = torch.nn.Linear(hidden, d_out)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def entry(main):
    """Runs main(), under torch.distributed.elastic's @record when the run asks for error files."""
    fn = record(main) if os.environ.get("SCENARIO_RECORD") == "1" else main
    sys.exit(fn())


def _wait_for_all_ranks():
    """Waits, on the launcher's store, until every rank has started. On a loaded machine the ranks
    finish importing torch seconds apart, and a scenario's short process-group timeout (meant for
    its collectives) must not expire in init_process_group already. Nothing is printed.
    Only the static rendezvous has such a store: under the c10d rendezvous MASTER_PORT is where
    rank 0's own store will listen, so there is nothing to wait on before init_process_group."""
    import time

    if os.environ.get("TORCHELASTIC_USE_AGENT_STORE") != "True":
        return
    store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]),
                          is_master=False, timeout=timedelta(seconds=300))
    world = int(os.environ["WORLD_SIZE"])
    store.add("scenario_started", 1)
    while store.add("scenario_started", 0) < world:
        time.sleep(0.05)
