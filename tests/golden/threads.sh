#!/bin/sh
# The report does not depend on the number of threads: every multi-file fixture gives the same
# JSON read on 1, 2 and 5 threads.
set -u
faultline=$1
fail=0
for d in tests/fixtures/kb/*/pos-*/ tests/fixtures/kb/*/neg-*/ examples/; do
  one=$("$faultline" diagnose --no-mask --threads 1 --format json "$d" 2>&1)
  for t in 2 5; do
    other=$("$faultline" diagnose --no-mask --threads $t --format json "$d" 2>&1)
    [ "$one" = "$other" ] || { echo "differs with $t threads: $d"; fail=1; }
  done
done
exit $fail
