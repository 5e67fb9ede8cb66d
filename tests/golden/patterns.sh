#!/bin/sh
# `faultline kb patterns` writes what grep -E accepts (exit 1 on no match, not 2 on a syntax
# error), and `--for rg` writes every word boundary as rg's ASCII one.
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
sed 's/(?-u:\\b)//g' "$tmp/rg" | grep -q '\\b' && { echo "a bare \\b left in the rg dialect"; exit 1; }
"$faultline" kb patterns --for awk >/dev/null 2>&1
[ $? = 2 ] || { echo "an unknown dialect must be a usage error"; exit 1; }
exit 0
