"""A real torchrun job (Debian's python3-torch, CPU, gloo, two ranks; rank 1 raises): the
diagnosis file beside rank 1's error.json names rank 1 and its exception."""
import glob
import json
import os
import socket
import subprocess
import sys

import pytest

from conftest import child_env

torch = pytest.importorskip("torch", reason="python3-torch is not installed: no torchrun job")


def test_two_rank_job_one_raises(tmp_path):
    job = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torchrun_job.py")
    logs = tmp_path / "logs"
    # --redirects/--tee 2 (stderr to attempt_K/N/stderr.log and to the console): Debian's torch
    # 1.13 on Python 3.11 cannot parse the default 0 (Std.from_str returns None for it).
    # A free port of the kernel's choosing, not --standalone's fixed 29400, which another job on
    # the machine may hold.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nnodes", "1", "--master_addr",
           "127.0.0.1", "--master_port", str(port), "--nproc_per_node", "2", "--redirects", "2",
           "--tee", "2", "--log_dir", str(logs), job]
    env = child_env(OMP_NUM_THREADS="1", GLOO_SOCKET_IFNAME="lo")
    env.pop("TORCHELASTIC_ERROR_FILE", None)
    env.pop("RANK", None)
    out = subprocess.run(cmd, capture_output=True, env=env, cwd=str(tmp_path), timeout=600,
                         check=False)
    err = out.stderr.decode(errors="replace")
    assert out.returncode != 0, err
    found = glob.glob(str(logs / "*" / "attempt_0" / "1" / "faultline-rank1.json"))
    assert len(found) == 1, err
    folder = os.path.dirname(found[0])
    assert os.path.exists(os.path.join(folder, "error.json")), "torch's @record wrote no error.json"
    with open(found[0]) as f:
        report = json.load(f)
    assert report["process"]["rank"] == 1
    assert report["process"]["exception"]["type"] == "ValueError"
    assert "31 labels for 32 samples" in report["process"]["exception"]["message"]
    top = report["diagnoses"][0]
    assert top["initiating_rank"] == 1
    assert any("ValueError: batch 17 of shard 1" in e["text"] for e in top["evidence"])
    # the headline reached torchrun's console
    assert "faultline: rank 1 ValueError: batch 17 of shard 1" in err
    # the whole job's folder, per-rank diagnoses included, still names rank 1 (those files are
    # skipped as faultline's own reports)
    import faultline
    whole = faultline.diagnose(str(logs))
    assert whole["diagnoses"][0]["initiating_rank"] == 1
    assert not any("faultline-rank" in e["source"] for d in whole["diagnoses"] for e in d["evidence"])
