import json
import os
import subprocess

import pytest

import faultline
from faultline import _lib

EXAMPLE = "examples/torchrun-8rank-oom/train.log"


def golden(root, case):
    with open(os.path.join(root, "tests", "golden", case, "expected.json")) as f:
        return json.load(f)


def same_but_version(a, b):
    a, b = dict(a), dict(b)
    a.pop("version"), b.pop("version")
    return a == b


def test_path_gives_the_golden_report(root, monkeypatch):
    monkeypatch.chdir(root)
    report = faultline.diagnose(EXAMPLE)
    assert same_but_version(report, golden(root, "example-json"))
    assert report["version"].startswith("faultline ")


def test_same_report_as_the_program(root, monkeypatch):
    monkeypatch.chdir(root)
    prog = os.environ.get("FAULTLINE_BIN", os.path.join(root, "build", "faultline"))
    out = subprocess.run([prog, "diagnose", "--format", "json", "tests/golden"],
                         capture_output=True, check=False)
    assert out.returncode == 1, out.stderr
    assert faultline.diagnose("tests/golden") == json.loads(out.stdout)


def test_text_and_bytes(root):
    with open(os.path.join(root, EXAMPLE), "rb") as f:
        data = f.read()
    for given in (data, data.decode()):
        report = faultline.diagnose(given)
        d = report["diagnoses"][0]
        assert (d["id"], d["initiating_rank"]) == ("cuda-oom", 3)
        assert d["evidence"][0]["source"] == "<text>"
    named = faultline.diagnose(data, source_name="node-7/rank_3.log", mask="none")
    assert named["diagnoses"][0]["evidence"][0]["source"] == "node-7/rank_3.log"


def test_differential_is_marked_not_matched(root):
    """A save that failed with EIO alone: disk-full comes after the matched storage-io-error as
    its differential (differential_of, no evidence); with the ENOSPC of the retry in the log too,
    disk-full matched its own line and nothing is a differential."""
    with open(os.path.join(root, "tests/fixtures/kb/storage-io-error/pos-wording-torch-legacy-fd.log")) as f:
        eio = f.read()
    ds = faultline.diagnose(eio)["diagnoses"]
    assert [(d["id"], d["differential_of"]) for d in ds] == [("storage-io-error", None),
                                                            ("disk-full", "storage-io-error")]
    assert ds[0]["evidence"] and ds[1]["evidence"] == []
    assert ds[1]["confidence"] == pytest.approx(ds[0]["confidence"] / 2, abs=0.01)
    both = faultline.diagnose(os.path.join(root, "tests/fixtures/differential/eio-then-enospc.log"))
    assert {d["id"]: d["differential_of"] for d in both["diagnoses"]} == {"storage-io-error": None,
                                                                          "disk-full": None}


def test_list_of_paths_and_pathlike(root, monkeypatch):
    import pathlib
    monkeypatch.chdir(root)
    a = faultline.diagnose([EXAMPLE])
    b = faultline.diagnose(pathlib.Path(EXAMPLE))
    assert a == b and a["diagnoses"][0]["id"] == "cuda-oom"


def test_healthy_text_has_no_diagnosis():
    report = faultline.diagnose("step 10 loss 2.31\nstep 11 loss 2.29\n")
    assert report["diagnoses"] == []
    assert report["input"]["sources"] == 1


TOKEN = "hf_" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3h"


def test_masking_modes():
    log = ("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
           "    fetch()\n"
           "OSError: could not reach https://user@node-3.cluster.example.com with token %s\n"
           % TOKEN)
    texts = {m: json.dumps(faultline.diagnose(log, mask=m)["diagnoses"])
             for m in ("all", "secrets", "none")}
    assert TOKEN in texts["none"]
    assert TOKEN not in texts["secrets"] and TOKEN not in texts["all"]
    assert "<hf-token>" in texts["all"]
    with pytest.raises(ValueError):
        faultline.diagnose(log, mask="some")


def test_unreadable_input_raises(tmp_path):
    with pytest.raises(faultline.FaultlineError) as e:
        faultline.diagnose([str(tmp_path / "nope.log")])
    assert "nope.log" in str(e.value)


def test_wrong_type():
    with pytest.raises(TypeError):
        faultline.diagnose(42)


def test_extra_kb_folder(tmp_path):
    entry = tmp_path / "bad.md"
    entry.write_text("---\nid: broken\n---\nno front matter fields\n")
    with pytest.raises(faultline.FaultlineError) as e:
        faultline.diagnose("x\n", kb=[str(tmp_path)])
    assert "knowledge base" in str(e.value)


def test_library_lookup_order(tmp_path, monkeypatch):
    monkeypatch.setenv("FAULTLINE_LIB", str(tmp_path / "libfaultline.so"))
    c = _lib.candidates()
    assert c[0] == str(tmp_path / "libfaultline.so")
    assert c.index(os.path.join(_lib._CHECKOUT, "build", "libfaultline.so")) > 0
    assert os.path.basename(faultline.library_path()).startswith("libfaultline.so")


def test_version_is_the_projects(root):
    import re
    with open(os.path.join(root, "include", "faultline.h")) as f:
        v = re.search(r'^#define FL_VERSION "([0-9.]+)"', f.read(), re.M).group(1)
    assert faultline.__version__ == v
    assert faultline.diagnose("x\n")["version"] == "faultline " + v
