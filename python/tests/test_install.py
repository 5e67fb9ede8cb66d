"""pip install ./python into a fresh virtual environment, offline (Debian's setuptools, no build
isolation, no dependencies), then the installed package works from outside the checkout with the
library and the program it carries. The CMake build is taken from FAULTLINE_BUILD_DIR (ctest sets
it to its build folder) or ../build when it holds the library; else setup.py builds one."""
import json
import os
import subprocess
import sys

from conftest import PYDIR, ROOT


def test_pip_install_offline(tmp_path):
    venv = tmp_path / "venv"
    # without a pip of its own: Debian's (a system site package) installs into it all the same
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(venv)], check=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("FAULTLINE_LIB", "FAULTLINE_BIN", "PYTHONPATH")}
    build = os.path.abspath(os.environ.get("FAULTLINE_BUILD_DIR") or os.path.join(ROOT, "build"))
    if os.path.exists(os.path.join(build, "libfaultline.so")):
        env["FAULTLINE_BUILD_DIR"] = build
    env["PIP_NO_INDEX"] = "1"
    py = str(venv / "bin" / "python")
    out = subprocess.run([py, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                          PYDIR], env=env, capture_output=True, timeout=900, check=False)
    assert out.returncode == 0, out.stdout.decode() + out.stderr.decode()
    env.pop("FAULTLINE_BUILD_DIR", None)
    example = os.path.join(ROOT, "examples", "torchrun-8rank-oom", "train.log")
    code = ("import faultline, json; r = faultline.diagnose(%r); "
            "print(json.dumps([faultline.library_path(), faultline.__file__, "
            "r['diagnoses'][0]['id']]))" % example)
    res = subprocess.run([py, "-c", code], cwd=str(tmp_path), env=env, capture_output=True,
                         check=False)
    assert res.returncode == 0, res.stderr.decode()
    lib, init, top = json.loads(res.stdout)
    site = str(venv)
    assert init.startswith(site) and lib.startswith(site), (lib, init)
    assert os.path.basename(lib) == "libfaultline.so.0"
    assert top == "cuda-oom"
    cli = subprocess.run([py, "-m", "faultline", "diagnose", "--format", "json", example],
                         cwd=str(tmp_path), env=env, capture_output=True, check=False)
    assert cli.returncode == 1, cli.stderr.decode()
    assert json.loads(cli.stdout)["diagnoses"][0]["id"] == "cuda-oom"
