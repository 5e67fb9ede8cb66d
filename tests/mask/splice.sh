#!/bin/sh
# splice.sh FAULTLINE FIXTURE_ROOT MASK_DIR — a property test of masking: a secret-shaped line
# from the masking corpus (secrets.tsv) is spliced into every positive fixture log of the KB, once
# as a line of its own at a position drawn from the log's name and once appended to the log's
# first error line (where evidence, root-cause text and facts come from). The secret must appear
# in no output: not in `faultline mask`, not in any `diagnose` format, in either mask mode.
set -u
fl=$1
root=$2
mdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$mdir/secrets.tsv" >"$tmp/s.tsv"
nsec=$(wc -l <"$tmp/s.tsv")
fail=0
i=0
mkdir -p "$tmp/logs"
for log in "$root"/*/pos-*.log; do
  i=$((i + 1))
  row=$(sed -n "$((i % nsec + 1))p" "$tmp/s.tsv")
  secret=$(printf '%s' "$row" | cut -f2)
  line=$(printf '%s' "$row" | cut -f3-)
  n=$(wc -l <"$log")
  at=$(( $(printf '%s' "$log" | cksum | cut -d' ' -f1) % (n + 1) ))
  out="$tmp/logs/$i.log"
  # the line alone after line $at, and appended to the first error line
  awk -v at="$at" -v add="$line" '
    { if (!done && $0 ~ /(Error|error|Exception|FAILED|failed)/) { print $0 " " add; done = 1 } else print }
    NR == at { print add }
    END { if (at == 0 || at > NR) print add }' "$log" >"$out"
  printf '%s\n' "$secret" >"$tmp/logs/$i.secret"
  case $((i % 3)) in 0) fmt=json ;; 1) fmt=text ;; *) fmt=markdown ;; esac
  mode=all
  [ $((i % 2)) -eq 0 ] && mode=secrets
  "$fl" diagnose --color never --format $fmt --mask $mode "$out" >"$tmp/logs/$i.diag" 2>&1
  if grep -qF -- "$secret" "$tmp/logs/$i.diag"; then
    echo "secret of $(basename "$(dirname "$log")")/$(basename "$log") survives in diagnose ($fmt, --mask $mode):"
    grep -F -- "$secret" "$tmp/logs/$i.diag" | head -3
    fail=1
  fi
done
# mask: every spliced log at once, in both modes
cat "$tmp"/logs/*.secret >"$tmp/all.secrets"
for mode in all secrets; do
  "$fl" mask --mask $mode "$tmp"/logs/*.log >"$tmp/mask.$mode" 2>&1 || { echo "mask --mask $mode failed"; fail=1; }
  if grep -F -f "$tmp/all.secrets" "$tmp/mask.$mode" >"$tmp/leaks"; then
    echo "secrets survive in mask --mask $mode:"
    head -5 "$tmp/leaks"
    fail=1
  fi
done
echo "spliced a secret into $i fixture logs"
[ "$i" -gt 0 ] || fail=1
exit $fail
