import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from conftest import child_env


def run_child(tmp_path, code, **env):
    env.setdefault("FAULTLINE_DIAGNOSIS_DIR", str(tmp_path))
    env.setdefault("RANK", "5")
    env.setdefault("TORCHELASTIC_ERROR_FILE", None)
    e = child_env(**env)
    if env["TORCHELASTIC_ERROR_FILE"] is None:
        e.pop("TORCHELASTIC_ERROR_FILE", None)
    # a script file, not -c: tracebacks then show source lines, as in a real job
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(code))
    return subprocess.run([sys.executable, str(script)], capture_output=True,
                          env=e, cwd=str(tmp_path), timeout=120, check=False)


def load(path):
    with open(path) as f:
        return json.load(f)


def test_uncaught_exception(tmp_path):
    out = run_child(tmp_path, """
        import faultline
        faultline.watch_this_process()
        def step():
            raise RuntimeError("CUDA error: an illegal memory access was encountered")
        step()
    """)
    assert out.returncode == 1
    err = out.stderr.decode()
    # the interpreter's own traceback is still printed, then one headline line
    assert "Traceback (most recent call last)" in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("faultline: rank 5 RuntimeError: CUDA error: an illegal memory access")
    path = tmp_path / "faultline-rank5.json"
    assert str(path) in last
    report = load(path)
    assert report["process"]["event"] == "exception"
    assert report["process"]["rank"] == 5
    assert report["process"]["exception"]["type"] == "RuntimeError"
    d = report["diagnoses"][0]
    assert d["initiating_rank"] == 5
    assert any("illegal memory access" in e["text"] for e in d["evidence"])


def test_exception_in_a_thread(tmp_path):
    out = run_child(tmp_path, """
        import threading, faultline
        faultline.watch_this_process()
        def work():
            raise KeyError("shard-9")
        t = threading.Thread(target=work); t.start(); t.join()
        print("main goes on")
    """, RANK=None)
    assert out.returncode == 0 and b"main goes on" in out.stdout
    files = list(tmp_path.glob("faultline-pid*.json"))
    assert len(files) == 1
    report = load(files[0])
    assert report["process"]["exception"]["type"] == "KeyError"
    assert report["process"]["rank"] is None


def test_sigterm_default_action_still_ends_the_process(tmp_path):
    out = run_child(tmp_path, """
        import os, signal, faultline
        faultline.watch_this_process()
        os.kill(os.getpid(), signal.SIGTERM)
        import time; time.sleep(30)
        print("not reached")
    """)
    assert out.returncode == -signal.SIGTERM
    assert b"not reached" not in out.stdout
    report = load(tmp_path / "faultline-rank5.json")
    assert report["process"]["event"] == "signal"
    assert report["process"]["signal"] == "SIGTERM"
    assert b"faultline: rank 5 ended by SIGTERM" in out.stderr


def test_sigterm_chains_to_the_previous_handler(tmp_path):
    out = run_child(tmp_path, """
        import os, signal, sys, faultline
        def mine(signum, frame):
            print("previous handler ran", flush=True)
            sys.exit(3)
        signal.signal(signal.SIGTERM, mine)
        faultline.watch_this_process()
        os.kill(os.getpid(), signal.SIGTERM)
        import time; time.sleep(30)
    """)
    assert out.returncode == 3
    assert b"previous handler ran" in out.stdout
    assert (tmp_path / "faultline-rank5.json").exists()


def test_secrets_in_the_exception_are_masked(tmp_path):
    token = "hf_" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3h"
    out = run_child(tmp_path, """
        import faultline
        faultline.watch_this_process()
        raise PermissionError("401 for https://huggingface.co with token %s")
    """ % token)
    assert out.returncode == 1
    text = (tmp_path / "faultline-rank5.json").read_text()
    assert token not in text and "<hf-token>" in text
    assert token not in out.stderr.decode().strip().splitlines()[-1]


def test_composes_with_torch_record(tmp_path):
    pytest.importorskip("torch", reason="python3-torch is not installed: @record not tested")
    errfile = tmp_path / "attempt_0" / "2" / "error.json"
    errfile.parent.mkdir(parents=True)
    out = run_child(tmp_path, """
        import faultline
        from torch.distributed.elastic.multiprocessing.errors import record
        @record
        def main():
            faultline.watch_this_process()
            raise ValueError("tokenizer vocabulary has 32000 entries, the checkpoint 32001")
        main()
    """, TORCHELASTIC_ERROR_FILE=str(errfile), RANK="2", FAULTLINE_DIAGNOSIS_DIR=None)
    assert out.returncode == 1
    assert errfile.exists(), "record wrote no error.json"
    report = load(errfile.parent / "faultline-rank2.json")
    # read together with the traceback: record's error.json (written before the re-raise)
    assert report["input"]["sources"] == 2
    assert report["diagnoses"][0]["initiating_rank"] == 2
    assert report["process"]["exception"]["type"] == "ValueError"
