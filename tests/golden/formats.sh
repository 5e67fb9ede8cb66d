#!/bin/sh
# The bundled example read as a plain file, .gz, .zst, .tar.gz and from stdin gives the same
# report (source names aside), and a truncated .gz still gives a report with a warning.
set -eu
faultline=$1 jsoncmp=$2
log=examples/torchrun-8rank-oom/train.log
expected=tests/golden/example-json/expected.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gzip -c "$log" >"$tmp/train.log.gz"
zstd -q -c "$log" >"$tmp/train.log.zst"
mkdir -p "$tmp/job" && cp "$log" "$tmp/job/train.log" && tar -C "$tmp" -czf "$tmp/job.tar.gz" job
check() { # name, then the command's output file
  "$jsoncmp" --ignore-sources "$expected" "$2" || { echo "differs: $1"; exit 1; }
}
for f in train.log.gz train.log.zst job.tar.gz; do
  "$faultline" diagnose --format json "$tmp/$f" >"$tmp/out.json" || [ $? -eq 1 ]
  check "$f" "$tmp/out.json"
done
"$faultline" diagnose --format json - <"$log" >"$tmp/out.json" || [ $? -eq 1 ]
check stdin "$tmp/out.json"
gzip -dc "$tmp/train.log.gz" | gzip -c | "$faultline" diagnose --format json - >"$tmp/out.json" || [ $? -eq 1 ]
check "gzip on stdin" "$tmp/out.json"
# truncated: the first 60% of the .gz
size=$(wc -c <"$tmp/train.log.gz")
head -c $((size * 6 / 10)) "$tmp/train.log.gz" >"$tmp/cut.log.gz"
rc=0
"$faultline" diagnose --format json "$tmp/cut.log.gz" >"$tmp/out.json" 2>"$tmp/err" || rc=$?
grep -q "truncated gzip stream" "$tmp/err" || { echo "no truncation warning"; cat "$tmp/err"; exit 1; }
grep -q '"errors": \[' "$tmp/out.json" || { echo "no report for a truncated file"; exit 1; }
# 1 with a diagnosis in what was read; 2 (the input is incomplete) when nothing was found
if grep -q '"diagnoses": \[\]' "$tmp/out.json"; then
  [ "$rc" -eq 2 ] && grep -q '"complete": false' "$tmp/out.json" || { echo "exit $rc for a truncated file with nothing found"; exit 1; }
else
  [ "$rc" -eq 1 ] || { echo "exit $rc for a truncated file with a diagnosis"; exit 1; }
fi
echo ok
