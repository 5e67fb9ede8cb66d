"""The tests import faultline from this checkout's python/ and use the library and program named
by FAULTLINE_LIB and FAULTLINE_BIN (ctest sets both to its build's), else ../build/."""
import os
import sys

import pytest

PYDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(PYDIR)
sys.path.insert(0, PYDIR)


@pytest.fixture
def root():
    return ROOT


def child_env(**extra):
    """Environment for a child Python that imports this checkout's faultline."""
    env = dict(os.environ)
    env["PYTHONPATH"] = PYDIR + os.pathsep + env.get("PYTHONPATH", "")
    env.update({k: v for k, v in extra.items() if v is not None})
    return env
