#!/bin/sh
# mixes-threads.sh GEN FAULTLINE SEGMENTS OUTDIR — every bench/gen mix, generated small, gives
# the same JSON report on 1, 2 and 16 threads, and bench/gen writes the same bytes twice.
#
# Single-file mixes are checked with tests/segments (each file cut into 2 and 16 segments: the
# CLI only cuts files of 128 MB or more); the folder mix (slurm, per-node files) through the
# CLI, whose threads share the files out. Each mix must also yield a diagnosis.
set -eu
gen=$1 fl=$2 segments=$3 out=$4
rm -rf "$out"
mkdir -p "$out/files"
fail=0
# diag THREADS PATH JSON: the report; exit 1 (a diagnosis) is what every mix must give
diag() {
    rc=0
    "$fl" diagnose --threads "$1" --format json "$2" >"$3" || rc=$?
    [ $rc -eq 1 ] || { echo "$mix: exit $rc on $1 threads, not 1 (a diagnosis)"; fail=1; }
}
for mix in $(python3 "$gen" --list); do
    if [ "$mix" = slurm ]; then
        python3 "$gen" --mix slurm --files 16 --size 1M --out "$out/slurm" 2>/dev/null
        python3 "$gen" --mix slurm --files 16 --size 1M --out "$out/slurm-again" 2>/dev/null
        diff -r "$out/slurm" "$out/slurm-again" >/dev/null || { echo "$mix: not deterministic"; fail=1; }
        rm -rf "$out/slurm-again"
        path=$out/slurm
    else
        path=$out/files/$mix.log
        python3 "$gen" --mix "$mix" --size 1M --out "$path" 2>/dev/null
        python3 "$gen" --mix "$mix" --size 1M --out "$out/again.log" 2>/dev/null
        cmp -s "$path" "$out/again.log" || { echo "$mix: not deterministic"; fail=1; }
        rm -f "$out/again.log"
    fi
    diag 1 "$path" "$out/$mix-1.json"
    for n in 2 16; do
        diag $n "$path" "$out/$mix-$n.json"
        cmp -s "$out/$mix-1.json" "$out/$mix-$n.json" || { echo "$mix: $n threads differ from 1"; fail=1; }
    done
    echo "$mix: checked"
done
"$segments" --threads 2,16 "$out/files" "$out/slurm" || fail=1
exit $fail
