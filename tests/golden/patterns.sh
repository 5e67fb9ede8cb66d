#!/bin/sh
# `faultline kb patterns` writes what grep -E accepts (exit 1 on no match, not 2 on a syntax
# error), and `--for rg` what rg accepts, every word boundary as rg's ASCII one. A KB regex's
# look-around and back-reference, which neither tool runs, leave a pattern that still matches the
# lines faultline matches (bench/ compares the cost of the same scan).
set -u
faultline=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$faultline" kb patterns >"$tmp/ere" || { echo "kb patterns failed"; exit 1; }
"$faultline" kb patterns --for rg >"$tmp/rg" || { echo "kb patterns --for rg failed"; exit 1; }
[ "$(wc -l <"$tmp/ere")" -gt 100 ] || { echo "too few patterns"; exit 1; }
[ "$(wc -l <"$tmp/ere")" = "$(wc -l <"$tmp/rg")" ] || { echo "dialects differ in length"; exit 1; }
printf 'a healthy line\n' >"$tmp/log"
LC_ALL=C grep -c -E -f "$tmp/ere" "$tmp/log" >/dev/null
[ $? = 1 ] || { echo "grep -E rejects the patterns"; exit 1; }
grep -q '\\b' "$tmp/ere" || { echo "expected \\b in the ERE dialect"; exit 1; }
rg -c -f "$tmp/rg" "$tmp/log" >/dev/null
[ $? = 1 ] || { echo "rg rejects the patterns (or is not installed: scripts/install-deps.sh)"; exit 1; }
# checkpoint-parallelism-mismatch: a look-ahead (no lora_ parameter) and a back-reference (same rows)
line='size mismatch for layers.0.mlp.dense_4h_to_h.weight: copying a param with shape torch.Size([4096, 4096]) from checkpoint, the shape in current model is torch.Size([4096, 16384]).'
printf '%s\n' "$line" >"$tmp/tp"
"$faultline" diagnose --format json "$tmp/tp" | grep -q '"checkpoint-parallelism-mismatch"' ||
  { echo "faultline does not match the look-ahead line"; exit 1; }
LC_ALL=C grep -q -E -f "$tmp/ere" "$tmp/tp" || { echo "grep -E misses a line faultline matches"; exit 1; }
rg -q -f "$tmp/rg" "$tmp/tp" || { echo "rg misses a line faultline matches"; exit 1; }
sed 's/(?-u:\\b)//g' "$tmp/rg" | grep -q '\\b' && { echo "a bare \\b left in the rg dialect"; exit 1; }
"$faultline" kb patterns --for awk >/dev/null 2>&1
[ $? = 2 ] || { echo "an unknown dialect must be a usage error"; exit 1; }
exit 0
