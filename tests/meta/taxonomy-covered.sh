#!/bin/sh
# Every id of the taxonomy has a knowledge-base entry compiled into the program.
set -u
faultline=$1
tax=../shared/taxonomy.tsv
[ -f "$tax" ] || tax=tests/meta/taxonomy.tsv
ids=$("$faultline" kb list | cut -f1)
missing=0
for id in $(tail -n +2 "$tax" | cut -f1); do
  echo "$ids" | grep -qx "$id" || { echo "missing entry: $id"; missing=$((missing+1)); }
done
[ "$missing" -eq 0 ]
