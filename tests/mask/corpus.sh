#!/bin/sh
# corpus.sh FAULTLINE FIXTURE_DIR — the masking corpus: secrets.tsv holds one line per secret of
# a documented format (rule, secret, line) and lookalikes.tsv lines that only resemble one
# (rule, line). `faultline mask --mask secrets` must remove >= 95% of the secrets (and, in this
# corpus, all of them) and leave >= 90% of the look-alikes exactly as they are; every rule
# family needs at least one sample of each kind. Prints the numbers it measured.
set -u
fl=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$dir/secrets.tsv" >"$tmp/s.tsv"
grep -v '^#' "$dir/lookalikes.tsv" >"$tmp/l.tsv"
cut -f3- "$tmp/s.tsv" >"$tmp/s.in"
cut -f2- "$tmp/l.tsv" >"$tmp/l.in"
fail=0
for mode in secrets all; do
  "$fl" mask --mask $mode "$tmp/s.in" >"$tmp/s.$mode" || { echo "mask --mask $mode failed"; exit 1; }
done
"$fl" mask --mask secrets "$tmp/l.in" >"$tmp/l.out" || { echo "mask failed"; exit 1; }
[ "$(wc -l <"$tmp/s.in")" = "$(wc -l <"$tmp/s.secrets")" ] || { echo "line count changed"; exit 1; }

# one awk over the corpus and both outputs (a process per line is slow on a busy machine)
paste "$tmp/s.secrets" "$tmp/s.all" | awk -F'\t' -v tsv="$tmp/s.tsv" '
  { getline row <tsv; split(row, f, "\t"); secret = f[2]
    if (index($0, secret)) print "leaked (" f[1] "): " $1; else masked++ }
  END { print masked + 0, NR }' >"$tmp/s.res"
awk -F'\t' -v out="$tmp/l.out" '
  { getline o <out; line = $0; sub(/^[^\t]*\t/, "", line)
    if (o == line) kept++; else print "changed (" $1 "): " line " -> " o }
  END { print kept + 0, NR }' "$tmp/l.tsv" >"$tmp/l.res"
sed '$d' "$tmp/s.res"
sed '$d' "$tmp/l.res"
read -r masked total <<EOF2
$(tail -n 1 "$tmp/s.res")
EOF2
read -r kept ltotal <<EOF2
$(tail -n 1 "$tmp/l.res")
EOF2
echo "secrets masked: $masked/$total ($((masked * 100 / total))%)"
echo "look-alikes untouched: $kept/$ltotal ($((kept * 100 / ltotal))%)"
[ $((masked * 100)) -ge $((total * 95)) ] || { echo "below 95% of secrets masked"; fail=1; }
[ $((kept * 100)) -ge $((ltotal * 90)) ] || { echo "below 90% of look-alikes untouched"; fail=1; }
# every rule family has a true and a false sample
for rule in $(cut -f1 "$tmp/s.tsv" | sort -u); do
  cut -f1 "$tmp/l.tsv" | grep -qx "$rule" || { echo "rule '$rule' has no look-alike sample"; fail=1; }
done
for rule in $(cut -f1 "$tmp/l.tsv" | sort -u); do
  cut -f1 "$tmp/s.tsv" | grep -qx "$rule" || { echo "rule '$rule' has no secret sample"; fail=1; }
done
exit $fail
