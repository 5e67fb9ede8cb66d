import json
import os
import subprocess
import sys

from conftest import child_env


def run(root, *args):
    return subprocess.run([sys.executable, "-m", "faultline"] + list(args), cwd=root,
                          capture_output=True, env=child_env(), check=False)


def test_diagnose_mirrors_the_program(root):
    out = run(root, "diagnose", "--format", "json", "examples/torchrun-8rank-oom/train.log")
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    assert report["diagnoses"][0]["id"] == "cuda-oom"


def test_usage_error_and_version(root):
    out = run(root, "diagnose")
    assert out.returncode == 2
    assert b"needs at least one PATH" in out.stderr
    v = run(root, "version")
    assert v.returncode == 0 and b"0." in v.stdout


def test_missing_program_message(root, tmp_path):
    env = child_env(FAULTLINE_BIN=str(tmp_path / "none"), PATH=str(tmp_path))
    code = ("import sys, faultline.__main__ as m; m._HERE = %r; sys.exit(m.main(['version']))"
            % str(tmp_path / "pkg"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, check=False)
    assert out.returncode == 2
    assert b"was not found" in out.stderr and b"cmake --build build" in out.stderr
