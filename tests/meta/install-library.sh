#!/bin/sh
# `cmake --install` of the library component puts libfaultline.so (with its soname link), the
# header and faultline.pc under a prefix, and a C program built with nothing but
# `pkg-config --cflags --libs faultline` links against it and diagnoses a log.
# Usage: install-library.sh BUILD_DIR SOURCE_DIR SONAME
set -u
build=$1 src=$2 soname=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" --component library >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; echo "cmake --install failed"; exit 1; }
pc=$(find "$tmp/prefix" -name faultline.pc)
[ -n "$pc" ] || { echo "faultline.pc not installed"; find "$tmp/prefix"; exit 1; }
[ -f "$tmp/prefix/include/faultline.h" ] || { echo "faultline.h not installed"; exit 1; }
libdir=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=libdir faultline)
[ -e "$libdir/$soname" ] || { echo "$libdir/$soname not installed"; find "$tmp/prefix"; exit 1; }
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs faultline) ||
  { echo "pkg-config cannot read $pc"; exit 1; }
# shellcheck disable=SC2086
cc -o "$tmp/consumer" "$src/tests/lib/pc_consumer.c" $flags ||
  { echo "cannot build against the installed library with: $flags"; exit 1; }
out=$(LD_LIBRARY_PATH=$libdir "$tmp/consumer" "$src/examples/torchrun-8rank-oom/train.log") ||
  { echo "the installed library failed: $out"; exit 1; }
[ "$out" = "cuda-oom 3" ] || { echo "expected 'cuda-oom 3', got '$out'"; exit 1; }
LD_LIBRARY_PATH=$libdir ldd "$tmp/consumer" | grep -q "$libdir/$soname" ||
  { echo "the program did not load the installed $soname"; exit 1; }
echo "installed under a prefix; built with: $flags; diagnosed: $out"
