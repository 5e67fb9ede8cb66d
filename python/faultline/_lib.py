"""ctypes binding to libfaultline.so: where the library is found, and the few calls diagnose()
needs. The library writes the report as JSON (the CLI's contract); this module only parses it.

The library is looked for, in order:
  1. the FAULTLINE_LIB environment variable (a path to libfaultline.so*);
  2. this package's folder (pip install puts it there);
  3. the build tree of a source checkout: ../build/ next to python/ (cmake -B build);
  4. the system's library path (cmake --install), via ctypes.util.find_library.
"""
import ctypes
import ctypes.util
import glob
import os
import threading

_HERE = os.path.dirname(os.path.abspath(__file__))
_CHECKOUT = os.path.dirname(os.path.dirname(_HERE))

FL_OK = 0
FL_FORMAT_JSON = 1
FL_MASK_ALL = 0
FL_MASK_SECRETS = 1
_STATUS_NAMES = [
    "FL_OK", "FL_ERR_NOMEM", "FL_ERR_IO", "FL_ERR_FORMAT", "FL_ERR_KB", "FL_ERR_PATTERN",
    "FL_ERR_USAGE", "FL_ERR_LIMIT", "FL_ERR_NOTFOUND", "FL_ERR_INTERNAL",
]


class FaultlineError(Exception):
    """The library refused or failed: bad input (nothing readable), an invalid --kb entry, or
    the library itself could not be found or loaded."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class Error(ctypes.Structure):
    _fields_ = [("file", ctypes.c_char * 512), ("line", ctypes.c_uint),
                ("col", ctypes.c_uint), ("msg", ctypes.c_char * 512)]

    def text(self):
        file = self.file.decode("utf-8", "replace")
        msg = self.msg.decode("utf-8", "replace")
        if file and self.line:
            return "%s:%u:%u: %s" % (file, self.line, self.col, msg)
        return "%s: %s" % (file, msg) if file else msg


class ReportOptions(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("color", ctypes.c_int), ("explain", ctypes.c_int)]


ErrorCallback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(Error))


def candidates():
    """Paths tried for the library, in order (for messages and tests)."""
    out = []
    env = os.environ.get("FAULTLINE_LIB")
    if env:
        out.append(env)
    out += sorted(glob.glob(os.path.join(_HERE, "libfaultline.so*")))
    out.append(os.path.join(_CHECKOUT, "build", "libfaultline.so"))
    found = ctypes.util.find_library("faultline")
    if found:
        out.append(found)
    return out


def _declare(lib):
    P, c = ctypes.POINTER, ctypes
    vp = c.c_void_p
    sigs = {
        "fl_strerror": (c.c_char_p, [c.c_int]),
        "fl_kb_new": (c.c_int, [P(vp)]),
        "fl_kb_add_embedded": (c.c_int, [vp, P(Error)]),
        "fl_kb_add_dir": (c.c_int, [vp, c.c_char_p, P(Error)]),
        "fl_kb_compile": (c.c_int, [vp, P(Error)]),
        "fl_kb_free": (None, [vp]),
        "fl_scanner_new": (c.c_int, [vp, vp, P(vp)]),
        "fl_scanner_free": (None, [vp]),
        "fl_scanner_open_source": (c.c_int, [vp, c.c_char_p, P(c.c_int)]),
        "fl_scanner_feed": (c.c_int, [vp, c.c_int, c.c_char_p, c.c_size_t]),
        "fl_scanner_close_source": (c.c_int, [vp, c.c_int]),
        "fl_scanner_finish": (c.c_int, [vp, P(vp)]),
        "fl_scan_path": (c.c_int, [vp, c.c_char_p, P(Error)]),
        "fl_scan_paths": (c.c_int, [vp, P(c.c_char_p), c.c_size_t, c.c_uint, ErrorCallback, vp]),
        "fl_report_write": (c.c_int, [vp, P(ReportOptions), vp]),
        "fl_report_free": (None, [vp]),
        "fl_masker_new": (c.c_int, [c.c_int, P(vp)]),
        "fl_masker_free": (None, [vp]),
        "fl_masker_apply": (c.c_int, [vp, c.c_char_p, c.c_size_t, P(vp), P(c.c_size_t)]),
        "fl_report_mask": (c.c_int, [vp, vp]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args


def _declare_libc(libc):
    vp = ctypes.c_void_p
    libc.open_memstream.restype = vp
    libc.open_memstream.argtypes = [ctypes.POINTER(vp), ctypes.POINTER(ctypes.c_size_t)]
    libc.fclose.restype = ctypes.c_int
    libc.fclose.argtypes = [vp]
    libc.free.restype = None
    libc.free.argtypes = [vp]


_lock = threading.Lock()
_loaded = None


def load():
    """(library, libc, path): the first library of candidates() that loads."""
    global _loaded
    with _lock:
        if _loaded is None:
            tried = []
            for path in candidates():
                if not (os.path.exists(path) or os.sep not in path):
                    tried.append("%s (absent)" % path)
                    continue
                try:
                    lib = ctypes.CDLL(path)
                except OSError as e:
                    tried.append("%s (%s)" % (path, e))
                    continue
                _declare(lib)
                libc = ctypes.CDLL(None)
                _declare_libc(libc)
                _loaded = (lib, libc, path)
                break
            else:
                raise FaultlineError(
                    "libfaultline.so not found; tried: " + "; ".join(tried) + ". Build it with "
                    "`cmake -S . -B build -G Ninja && cmake --build build` in the faultline "
                    "checkout, or set FAULTLINE_LIB to its path")
        return _loaded


def status_name(lib, st):
    return lib.fl_strerror(st).decode() if 0 <= st < len(_STATUS_NAMES) else "status %d" % st
