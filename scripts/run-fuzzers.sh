#!/bin/sh
# run-fuzzers.sh SECONDS [HARNESS...] — builds the libFuzzer targets with clang (build-fuzz/,
# AddressSanitizer + UndefinedBehaviorSanitizer, library instrumented for coverage) and runs each
# harness for SECONDS on a temporary copy of its corpus (tests/fuzz/corpus/<name>/). Fails on
# any crash, leak, timeout or sanitizer report; the reproducer is left in build-fuzz/crashes/.
# FUZZ_JOBS=N runs N harnesses at once (default 1).
set -eu
cd "$(dirname "$0")/.."
secs=${1:?usage: run-fuzzers.sh SECONDS [HARNESS...]}
shift
harnesses=${*:-fuzz_prefix fuzz_framer fuzz_scan fuzz_kb_load fuzz_condition fuzz_reader fuzz_mask fuzz_segments}
jobs=${FUZZ_JOBS:-1}
build=${FUZZ_BUILD_DIR:-build-fuzz}

command -v clang >/dev/null || { echo "run-fuzzers: clang is required" >&2; exit 2; }
if [ ! -f "$build/build.ninja" ]; then
  CC=clang cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFL_FUZZ=ON \
    -DFL_SANITIZE=address,undefined -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link
fi
targets=""
for h in $harnesses; do targets="$targets $h"; done
# shellcheck disable=SC2086
ninja -C "$build" $targets

work=$(mktemp -d "${TMPDIR:-/tmp}/fl-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/crashes"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

run_one() {
  h=$1
  mkdir -p "$work/$h"
  cp tests/fuzz/corpus/"$h"/* "$work/$h/" 2>/dev/null || true
  echo "run-fuzzers: $h for ${secs}s"
  if "$build/tests/fuzz/$h" -max_total_time="$secs" -timeout=25 -rss_limit_mb=4096 -max_len=65536 \
      -artifact_prefix="$build/crashes/$h-" -print_final_stats=1 "$work/$h" \
      >"$work/$h.log" 2>&1; then
    echo "run-fuzzers: $h ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$work/$h.log" | grep -o '[0-9]*$') runs)"
  else
    echo "run-fuzzers: $h FAILED" >&2
    tail -n 60 "$work/$h.log" >&2
    return 1
  fi
}

fail=0
running=0
pids=""
for h in $harnesses; do
  run_one "$h" &
  pids="$pids $!"
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    for p in $pids; do wait "$p" || fail=1; done
    pids=""
    running=0
  fi
done
for p in $pids; do wait "$p" || fail=1; done
if [ "$fail" -ne 0 ]; then
  echo "run-fuzzers: failures; reproducers in $build/crashes/" >&2
  exit 1
fi
echo "run-fuzzers: all harnesses ran ${secs}s without a finding"
