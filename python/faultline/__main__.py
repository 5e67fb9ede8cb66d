"""python -m faultline ARGS...: the faultline program with the same arguments (it is executed,
replacing this process, so exit statuses, output and options are the program's own).

The program is looked for in: FAULTLINE_BIN; this package's bin/ folder (pip install puts it
there); the build tree of a source checkout (../build/faultline next to python/); PATH.
"""
import os
import shutil
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def find_program():
    for p in (os.environ.get("FAULTLINE_BIN"), os.path.join(_HERE, "bin", "faultline"),
              os.path.join(os.path.dirname(os.path.dirname(_HERE)), "build", "faultline")):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which("faultline")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    prog = find_program()
    if prog is None:
        sys.stderr.write("faultline: the faultline program was not found (FAULTLINE_BIN, the "
                         "package's bin/, ../build/faultline, PATH); build it with `cmake -S . "
                         "-B build -G Ninja && cmake --build build` or `pip install ./python`\n")
        return 2
    sys.stdout.flush()
    os.execv(prog, [prog] + list(argv))
    return 2  # not reached


if __name__ == "__main__":
    sys.exit(main())
