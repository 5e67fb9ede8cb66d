"""faultline.watch_this_process(): when this (training) process dies of an uncaught exception,
or is ended by SIGTERM (what torchrun sends the other workers when one fails), write this rank's
diagnosis as JSON and print a one-line headline on stderr.

Where the diagnosis goes (diagnosis_path()):
  - under torchrun, next to the rank's error.json: the folder of TORCHELASTIC_ERROR_FILE
    (<log_dir>/<run_id>/attempt_K/<local_rank>/), as faultline-rank<RANK>.json;
  - else in FAULTLINE_DIAGNOSIS_DIR when set, else in the current folder, with the same name
    (faultline-pid<PID>.json when RANK is not set).

It composes with torch.distributed.elastic.multiprocessing.errors.record: @record writes
error.json and re-raises, then the exception reaches sys.excepthook, where this module reads that
error.json (structured evidence: the exception, its traceback and time) together with the
traceback it formats itself.
"""
import json
import os
import signal
import sys
import threading
import traceback

from . import _diagnose

_installed = {}


def _env_int(name):
    try:
        return int(os.environ[name])
    except (KeyError, ValueError):
        return None


def diagnosis_path():
    """Where this process's diagnosis is written (see the module's documentation)."""
    rank = _env_int("RANK")
    name = "faultline-rank%d.json" % rank if rank is not None else "faultline-pid%d.json" % os.getpid()
    error_file = os.environ.get("TORCHELASTIC_ERROR_FILE")
    if error_file:
        folder = os.path.dirname(os.path.abspath(error_file))
    else:
        folder = os.environ.get("FAULTLINE_DIAGNOSIS_DIR") or os.getcwd()
    return os.path.join(folder, name)


def _source_name(rank):
    # the engine reads the rank from a name like rank_3 (prefix_from_path)
    return "rank_%d.traceback" % rank if rank is not None else "pid_%d.traceback" % os.getpid()


def _headline(process, report, path):
    who = "rank %d" % process["rank"] if process["rank"] is not None else "pid %d" % process["pid"]
    if process["event"] == "signal":
        what = "ended by %s" % process["signal"]
    else:
        exc = process["exception"]
        what = "%s: %s" % (exc["type"], exc["message"].splitlines()[0] if exc["message"] else "")
        what = what.rstrip(": ")
    diags = report.get("diagnoses") or []
    if diags:
        d = diags[0]
        init = d.get("initiating_rank")
        found = "%s [%s]" % (d.get("title"), d.get("id"))
        if init is not None:
            found += ", initiating rank %s" % init
    else:
        found = "no known failure"
    line = "faultline: %s %s -> %s; diagnosis in %s" % (who, what, found, path)
    return " ".join(line.split())[:1000]


def _write(event, text, exc=None, signame=None):
    cfg = _installed["config"]
    rank = _env_int("RANK")
    process = {"event": event, "rank": rank, "local_rank": _env_int("LOCAL_RANK"),
               "world_size": _env_int("WORLD_SIZE"), "pid": os.getpid()}
    paths = []
    error_file = os.environ.get("TORCHELASTIC_ERROR_FILE")
    if error_file and os.path.isfile(error_file):
        paths.append(error_file)  # written by @record before the exception reached us
    also = []
    if exc is not None:
        also = [type(exc).__module__ + "." + type(exc).__qualname__
                if type(exc).__module__ not in ("builtins", "__main__") else type(exc).__qualname__,
                str(exc)]
    report, masked = _diagnose.analyse(paths, [(_source_name(rank), text.encode("utf-8", "replace"))],
                                       cfg["mask"], cfg["kb"], 1, also)
    if exc is not None:
        process["exception"] = {"type": masked[0], "message": masked[1]}
    if signame:
        process["signal"] = signame
    report["process"] = process
    path = cfg["path"] or diagnosis_path()
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)
    if cfg["headline"]:
        sys.stderr.write(_headline(process, report, path) + "\n")
        sys.stderr.flush()
    return path


def _safely(fn, *args, **kw):
    # The process is already dying: a failure here must not hide the original error.
    try:
        return fn(*args, **kw)
    except Exception as e:  # noqa: BLE001
        try:
            sys.stderr.write("faultline: could not write the diagnosis: %s\n" % e)
        except Exception:  # noqa: BLE001
            pass
    return None


def _on_exception(exc_type, exc, tb):
    if exc_type is None or issubclass(exc_type, (SystemExit,)):
        return
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    _safely(_write, "exception", text, exc=exc)


def _excepthook(exc_type, exc, tb):
    _installed["prev_excepthook"](exc_type, exc, tb)
    _on_exception(exc_type, exc, tb)


def _threading_excepthook(args):
    _installed["prev_threading_excepthook"](args)
    _on_exception(args.exc_type, args.exc_value, args.exc_traceback)


def _on_sigterm(signum, frame):
    name = signal.Signals(signum).name
    stack = "".join(traceback.format_stack(frame)) if frame is not None else ""
    text = "%s received by PID %d; its stack:\n%s" % (name, os.getpid(), stack)
    _safely(_write, "signal", text, signame=name)
    prev = _installed["prev_sigterm"]
    if callable(prev):
        prev(signum, frame)
    elif prev == signal.SIG_IGN:
        return
    else:  # SIG_DFL (or a handler not set from Python): end the way the signal would have
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


def watch_this_process(mask="all", kb=(), path=None, headline=True):
    """Installs the hooks (once; later calls only update the settings):
    sys.excepthook and threading.excepthook (each calls the previous hook first), and a SIGTERM
    handler that writes the diagnosis and then calls the previous handler (or, when that was the
    default action, ends the process by SIGTERM all the same). The SIGTERM handler can only be
    installed from the main thread; from another thread it is skipped.

    mask, kb: as for diagnose(). path: where to write (default: diagnosis_path() at the time
    of the failure). headline: print the one-line summary on stderr.
    Returns the path the diagnosis will be written to (for the current environment)."""
    if isinstance(kb, (str, os.PathLike)):
        kb = [kb]
    _installed["config"] = {"mask": mask, "kb": [os.fspath(k) for k in kb], "path": path,
                            "headline": headline}
    if mask not in _diagnose._MASK_MODES:
        raise ValueError("mask must be 'all', 'secrets' or 'none', not %r" % (mask,))
    if "prev_excepthook" not in _installed:
        _installed["prev_excepthook"] = sys.excepthook
        sys.excepthook = _excepthook
        _installed["prev_threading_excepthook"] = threading.excepthook
        threading.excepthook = _threading_excepthook
    if "prev_sigterm" not in _installed and threading.current_thread() is threading.main_thread():
        _installed["prev_sigterm"] = signal.getsignal(signal.SIGTERM)
        signal.signal(signal.SIGTERM, _on_sigterm)
    return path or diagnosis_path()
