#!/bin/sh
# One golden case: a folder with `args` (the diagnose arguments, relative to the repository
# root), `expected.json` (the report, compared as data), `expected.stdout` / `expected.stderr`
# (a substring of each), and `expected.exit` (the exit status). Update with scripts/update-golden.sh.
set -u
faultline=$1 jsoncmp=$2 case=$3
args=$(cat "$case/args")
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
if [ -f "$case/stdin" ]; then
  eval "\"$faultline\" $args" <"$case/stdin" >"$out" 2>"$err"
else
  eval "\"$faultline\" $args" </dev/null >"$out" 2>"$err"
fi
rc=$?
want=$(cat "$case/expected.exit" 2>/dev/null || echo 1)
if [ "$rc" != "$want" ]; then
  echo "exit status $rc, expected $want"; cat "$err"; exit 1
fi
if [ -f "$case/expected.json" ]; then
  "$jsoncmp" "$case/expected.json" "$out" || exit 1
fi
if [ -f "$case/expected.stdout" ]; then
  grep -qF -- "$(cat "$case/expected.stdout")" "$out" || { echo "stdout lacks: $(cat "$case/expected.stdout")"; exit 1; }
fi
if [ -f "$case/expected.stderr" ]; then
  grep -qF -- "$(cat "$case/expected.stderr")" "$err" || { echo "stderr lacks: $(cat "$case/expected.stderr")"; cat "$err"; exit 1; }
fi
exit 0
