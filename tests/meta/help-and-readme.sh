#!/bin/sh
# Every long option of `faultline diagnose --help`, `kb --help` and `watch --help` appears in README.md.
set -u
faultline=$1
fail=0
for opt in $( ("$faultline" diagnose --help; "$faultline" kb --help; "$faultline" watch --help) | grep -o -- '--[a-z][a-z-]*' | sort -u); do
  [ "$opt" = "--help" ] && continue
  grep -q -- "$opt" README.md || { echo "README.md does not document $opt"; fail=1; }
done
exit $fail
