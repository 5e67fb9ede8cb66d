"""faultline.diagnose(): one analysis through libfaultline, returning the JSON report as a dict."""
import ctypes
import json
import os

from . import _lib

_MASK_MODES = {"all": _lib.FL_MASK_ALL, "secrets": _lib.FL_MASK_SECRETS, "none": None}
_kb_cache = {}


class _KB:
    """A compiled knowledge base (read-only once compiled: shared by every call)."""

    def __init__(self, lib, dirs):
        self._lib = lib
        self.ptr = ctypes.c_void_p()
        err = _lib.Error()
        if lib.fl_kb_new(ctypes.byref(self.ptr)) != _lib.FL_OK:
            raise MemoryError("faultline: cannot allocate the knowledge base")
        st = lib.fl_kb_add_embedded(self.ptr, ctypes.byref(err))
        for d in dirs:
            if st == _lib.FL_OK:
                st = lib.fl_kb_add_dir(self.ptr, os.fsencode(d), ctypes.byref(err))
        if st == _lib.FL_OK:
            st = lib.fl_kb_compile(self.ptr, ctypes.byref(err))
        if st != _lib.FL_OK:
            raise _lib.FaultlineError("knowledge base: " + err.text(), st)

    def __del__(self):
        if getattr(self, "ptr", None) and self._lib is not None:
            self._lib.fl_kb_free(self.ptr)


def _kb(lib, dirs):
    key = tuple(os.path.abspath(d) for d in dirs)
    kb = _kb_cache.get(key)
    if kb is None:
        kb = _kb_cache[key] = _KB(lib, key)
    return kb


def _classify(paths_or_text):
    """(paths, text): bytes and multi-line strings are log text; a path object, a list of
    paths, an existing file or folder, or "-" (stdin) are paths; any other string is text."""
    x = paths_or_text
    if isinstance(x, (bytes, bytearray, memoryview)):
        return None, bytes(x)
    if isinstance(x, os.PathLike):
        return [os.fspath(x)], None
    if isinstance(x, str):
        if "\n" not in x and (x == "-" or os.path.exists(x)):
            return [x], None
        return None, x.encode("utf-8", "surrogateescape")
    if isinstance(x, (list, tuple)):
        paths = [os.fspath(p) for p in x]
        if not paths:
            raise ValueError("faultline.diagnose: an empty list of paths")
        return paths, None
    raise TypeError("faultline.diagnose takes a path, a list of paths, or log text (str/bytes), "
                    "not %s" % type(x).__name__)


def _report_json(lib, libc, report):
    buf, size = ctypes.c_void_p(), ctypes.c_size_t()
    fp = libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
    if not fp:
        raise MemoryError("faultline: open_memstream failed")
    opts = _lib.ReportOptions(format=_lib.FL_FORMAT_JSON)
    st = lib.fl_report_write(report, ctypes.byref(opts), fp)
    libc.fclose(fp)
    try:
        if st != _lib.FL_OK:
            raise _lib.FaultlineError("cannot write the report: " + _lib.status_name(lib, st), st)
        return ctypes.string_at(buf, size.value).decode("utf-8")
    finally:
        libc.free(buf)


def _masked(lib, masker, text):
    if not masker:
        return text
    raw = text.encode("utf-8", "surrogateescape")
    out = ctypes.c_void_p()
    if lib.fl_masker_apply(masker, raw, len(raw), ctypes.byref(out), None) != _lib.FL_OK:
        return "(message not maskable)"
    try:
        return ctypes.string_at(out).decode("utf-8", "replace")
    finally:
        _lib.load()[1].free(out)


def diagnose(paths_or_text, mask="all", *, kb=(), threads=None, source_name="<text>"):
    """Diagnoses logs and returns the report of `faultline diagnose --format json` as a dict.

    paths_or_text: a path (file, folder, .gz/.zst/.tar* archive, "-" for stdin), a list of
    paths, or the log itself as str or bytes. A str with no newline that names an existing file
    or folder is a path; any other str is log text.
    mask: "all" (default: secrets and private details), "secrets", or "none".
    kb: folders of extra knowledge-base entries (same id: the folder's entry wins), like --kb.
    threads: threads reading files (default: the CPUs, at most 16; the report is the same).
    source_name: the name text input is reported under (rank hints in it count, as in
    rank_3.log).

    A diagnosis whose differential_of is not None matched no line: it is what the lines of the
    diagnosis with that id can also mean (the knowledge base's `differential`), listed last.

    Raises FaultlineError when no input could be read at all (the CLI's exit status 2), or when
    an entry of `kb` is invalid. Sources read only in part are listed in report["input"]["errors"].
    """
    paths, text = _classify(paths_or_text)
    texts = [(source_name, text)] if text is not None else []
    return analyse(paths or [], texts, mask, kb, threads)[0]


def analyse(paths, texts, mask="all", kb=(), threads=None, also_mask=()):
    """The work of diagnose(): texts [(name, bytes)] are fed first, then paths are read.
    Returns (report dict, [each string of also_mask masked with the report's masker, so that
    pseudonyms agree with the report's])."""
    if mask not in _MASK_MODES:
        raise ValueError("mask must be 'all', 'secrets' or 'none', not %r" % (mask,))
    if isinstance(kb, (str, os.PathLike)):
        kb = [kb]
    if threads is None:
        threads = max(1, min(os.cpu_count() or 1, 16))
    lib, libc, _ = _lib.load()
    knowledge = _kb(lib, [os.fspath(d) for d in kb])
    scanner, report, masker = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    errors = []

    def on_error(_ctx, e):
        errors.append(e.contents.text())

    callback = _lib.ErrorCallback(on_error)
    try:
        if lib.fl_scanner_new(knowledge.ptr, None, ctypes.byref(scanner)) != _lib.FL_OK:
            raise MemoryError("faultline: cannot create a scanner")
        if _MASK_MODES[mask] is not None and \
                lib.fl_masker_new(_MASK_MODES[mask], ctypes.byref(masker)) != _lib.FL_OK:
            raise MemoryError("faultline: cannot create the masker")
        st = _lib.FL_OK
        for name, data in texts:
            src = ctypes.c_int()
            st = lib.fl_scanner_open_source(scanner, os.fsencode(name), ctypes.byref(src))
            if st == _lib.FL_OK:
                st = lib.fl_scanner_feed(scanner, src, data, len(data))
            if st == _lib.FL_OK:
                st = lib.fl_scanner_close_source(scanner, src)
            if st != _lib.FL_OK:
                break
        if st == _lib.FL_OK and paths and not texts:
            arr = (ctypes.c_char_p * len(paths))(*[os.fsencode(p) for p in paths])
            st = lib.fl_scan_paths(scanner, arr, len(paths), threads, callback, None)
        elif st == _lib.FL_OK and paths:
            # beside text already fed: one path after the other, on this thread
            for p in paths:
                err = _lib.Error()
                if lib.fl_scan_path(scanner, os.fsencode(p), ctypes.byref(err)) != _lib.FL_OK:
                    errors.append(err.text())
        if st != _lib.FL_OK:
            why = "; ".join(_masked(lib, masker, e) for e in errors) or _lib.status_name(lib, st)
            raise _lib.FaultlineError("no input could be read: " + why, st)
        st = lib.fl_scanner_finish(scanner, ctypes.byref(report))
        if st != _lib.FL_OK:
            raise _lib.FaultlineError("analysis failed: " + _lib.status_name(lib, st), st)
        if masker and lib.fl_report_mask(report, masker) != _lib.FL_OK:
            raise _lib.FaultlineError("cannot mask the report (mask='none' returns it as is)")
        result = json.loads(_report_json(lib, libc, report))
        return result, [_masked(lib, masker, t) for t in also_mask]
    finally:
        lib.fl_report_free(report)
        lib.fl_masker_free(masker)
        lib.fl_scanner_free(scanner)
