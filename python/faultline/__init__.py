"""faultline for Python: diagnose failed distributed training runs from their logs, in-process,
through libfaultline.so (the same engine and the same JSON report as `faultline diagnose
--format json`), and write a rank's diagnosis when a training process dies.

    import faultline
    report = faultline.diagnose("logs/")          # or a list of paths, or the log text
    faultline.watch_this_process()                # at the top of a torchrun worker
"""
from ._diagnose import diagnose
from ._lib import FaultlineError
from ._watch import watch_this_process, diagnosis_path

__all__ = ["diagnose", "watch_this_process", "diagnosis_path", "FaultlineError", "library_path"]
__version__ = "0.1.0"


def library_path():
    """The path of the libfaultline.so this module uses (loading it if needed)."""
    from . import _lib
    return _lib.load()[2]
