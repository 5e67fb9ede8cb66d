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

total=0 masked=0
while IFS="$(printf '\t')" read -r rule secret line; do
  total=$((total + 1))
  out=$(sed -n "${total}p" "$tmp/s.secrets")
  all=$(sed -n "${total}p" "$tmp/s.all")
  case "$out$all" in
    *"$secret"*) echo "leaked ($rule): $out" ;;
    *) masked=$((masked + 1)) ;;
  esac
done <"$tmp/s.tsv"
ltotal=0 kept=0
while IFS="$(printf '\t')" read -r rule line; do
  ltotal=$((ltotal + 1))
  out=$(sed -n "${ltotal}p" "$tmp/l.out")
  if [ "$out" = "$line" ]; then kept=$((kept + 1)); else echo "changed ($rule): $line -> $out"; fi
done <"$tmp/l.tsv"
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
