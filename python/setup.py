"""Builds libfaultline.so and the faultline program with CMake from the checkout this folder is in
(python/ beside CMakeLists.txt), and puts both into the package: faultline/libfaultline.so.N
(loaded by ctypes) and faultline/bin/faultline (run by `python -m faultline`).

FAULTLINE_BUILD_DIR=DIR takes both from an existing CMake build folder instead of building.
Offline install with Debian's setuptools:
    pip install --no-build-isolation --no-deps ./python
"""
import glob
import os
import re
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def project_version():
    # one place for the version: the public header, which CMake reads too
    with open(os.path.join(ROOT, "include", "faultline.h"), encoding="utf-8") as f:
        m = re.search(r'^#define FL_VERSION "([0-9.]+)"', f.read(), re.M)
    if not m:
        raise RuntimeError("no #define FL_VERSION in %s/include/faultline.h" % ROOT)
    return m.group(1)


def cmake_build():
    given = os.environ.get("FAULTLINE_BUILD_DIR")
    if given:
        return os.path.abspath(given)
    bdir = os.path.join(HERE, "build", "cmake")
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    subprocess.check_call(["cmake", "-S", ROOT, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release",
                           "-DFL_TESTS=OFF"] + gen)
    subprocess.check_call(["cmake", "--build", bdir, "--target", "faultline_shared", "faultline"])
    return bdir


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        bdir = cmake_build()
        libs = [p for p in glob.glob(os.path.join(bdir, "libfaultline.so.*"))
                if not os.path.islink(p)]
        prog = os.path.join(bdir, "faultline")
        if len(libs) != 1 or not os.path.isfile(prog):
            raise RuntimeError("%s holds no libfaultline.so.* and faultline program: build them "
                               "with `cmake --build %s`" % (bdir, bdir))
        pkg = os.path.join(self.build_lib, "faultline")
        # one file, named by its soname, so that _lib.candidates() finds it
        soname = re.match(r"(libfaultline\.so\.[0-9]+)", os.path.basename(libs[0])).group(1)
        shutil.copyfile(libs[0], os.path.join(pkg, soname))
        os.makedirs(os.path.join(pkg, "bin"), exist_ok=True)
        shutil.copy2(prog, os.path.join(pkg, "bin", "faultline"))


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True  # a platform wheel: it carries a shared object and a program


setup(version=project_version(), cmdclass={"build_py": BuildWithLibrary},
      distclass=BinaryDistribution)
