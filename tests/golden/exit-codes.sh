#!/bin/sh
# exit-codes.sh FAULTLINE — the exit status table of `diagnose` (README "Exit status"), with the
# inputs made on the spot: an empty folder cannot be committed, and a truncated archive is
# clearer made from a known log than kept as an opaque blob.
#   0  read whole, nothing found        1  a diagnosis (even in input read in part)
#   2  usage error; nothing readable or nothing to read (message); read in part and nothing
#      found (the report says the input is incomplete, in every format)
set -u
fl=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
healthy=tests/fixtures/healthy/torchrun-4rank-ok.log
oom=examples/torchrun-8rank-oom/train.log

# expect STATUS STDERR-SUBSTRING ARGS... : runs diagnose, checks the status and stderr
expect() {
  want=$1 msg=$2
  shift 2
  "$fl" diagnose "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  if [ "$rc" != "$want" ]; then echo "diagnose $*: exit $rc, expected $want"; cat "$tmp/err"; fail=1; fi
  if [ -n "$msg" ] && ! grep -qF -- "$msg" "$tmp/err"; then
    echo "diagnose $*: stderr lacks '$msg':"; cat "$tmp/err"; fail=1
  fi
}

mkdir "$tmp/empty"
gzip -c "$healthy" | head -c 800 >"$tmp/healthy-cut.log.gz"
# the failure first, then filler that the cut removes in part
{ cat "$oom"; seq 1 200000 | sed 's/^/step /'; } | gzip -c | head -c 100000 >"$tmp/oom-cut.log.gz"
# a zstd frame header followed by bytes that are no zstd block
{ printf '\050\265\057\375'; head -c 400 README.md; } >"$tmp/corrupt.log.zst"

expect 0 "" "$healthy"
expect 1 "" "$oom"
expect 2 "does-not-exist.log: No such file" "$tmp/does-not-exist.log"
expect 2 "no log to read" "$tmp/empty"
expect 2 "--format takes" --format yaml "$oom"
for fmt in text json markdown; do
  expect 2 "corrupt.log.zst" --format $fmt "$tmp/corrupt.log.zst"
  cp "$tmp/out" "$tmp/zst.$fmt"
  expect 2 "healthy-cut.log.gz" --format $fmt "$tmp/healthy-cut.log.gz"
  cp "$tmp/out" "$tmp/gz.$fmt"
  expect 2 "healthy-cut.log.gz" --format $fmt "$healthy" "$tmp/healthy-cut.log.gz"
done
# a diagnosis in what could be read still stands
expect 1 "oom-cut.log.gz" "$tmp/oom-cut.log.gz"
grep -q '^1. CUDA out of memory' "$tmp/out" || { echo "no diagnosis in the cut log"; fail=1; }
# "incomplete" in every format, never a bare "No known failure found."
for f in zst gz; do
  for fmt in text markdown; do
    grep -q "the input is incomplete" "$tmp/$f.$fmt" || { echo "$f.$fmt does not say the input is incomplete"; fail=1; }
    grep -qx "No known failure found." "$tmp/$f.$fmt" && { echo "$f.$fmt calls the input healthy"; fail=1; }
  done
  grep -q '"complete": false' "$tmp/$f.json" || { echo "$f.json lacks \"complete\": false"; fail=1; }
done
"$fl" diagnose --format json "$healthy" | grep -q '"complete": true' || { echo "healthy json lacks \"complete\": true"; fail=1; }
exit $fail
