#!/bin/sh
# `faultline mask` and every report format on a log full of secrets and private details: no
# secret (nor, in the default mode, private detail) may appear in any output, and masking must
# not change the diagnosis. Usage: run-mask.sh FAULTLINE FIXTURE_DIR
set -u
fl=$1
dir=$2
log=$dir/run.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$fl" mask "$log" >"$tmp/mask.all" || { echo "mask failed"; fail=1; }
"$fl" mask --mask secrets <"$log" >"$tmp/mask.secrets" || { echo "mask from stdin failed"; fail=1; }
gzip -c "$log" >"$tmp/node-9.log.gz"
"$fl" mask "$tmp/node-9.log.gz" >"$tmp/mask.gz" || { echo "mask of .gz failed"; fail=1; }
cmp -s "$tmp/mask.all" "$tmp/mask.gz" || { echo "mask of .gz differs from mask of the file"; fail=1; }
(cd "$dir" && tar cf "$tmp/logs.tar" run.log)
"$fl" mask "$tmp/logs.tar" >"$tmp/mask.tar" || { echo "mask of .tar failed"; fail=1; }
cmp -s "$tmp/mask.all" "$tmp/mask.tar" || { echo "mask of .tar differs from mask of the file"; fail=1; }
for fmt in json text markdown; do
  "$fl" diagnose --color never --format $fmt "$log" >"$tmp/diag.$fmt" 2>&1
  "$fl" diagnose --color never --format $fmt --mask secrets "$log" >"$tmp/diag-secrets.$fmt" 2>&1
done
"$fl" diagnose --format json --no-mask "$log" >"$tmp/raw.json"

# every secret is gone from every output
while IFS= read -r s; do
  [ -n "$s" ] || continue
  for f in "$tmp"/mask.* "$tmp"/diag.* "$tmp"/diag-secrets.*; do
    if grep -qF -- "$s" "$f"; then echo "secret '$s' survives in $(basename "$f")"; fail=1; fi
  done
done <"$dir/secrets.txt"
# private details are gone in the default mode, kept with --mask secrets
while IFS= read -r s; do
  [ -n "$s" ] || continue
  for f in "$tmp"/mask.all "$tmp"/mask.gz "$tmp"/diag.*; do
    if grep -qF -- "$s" "$f"; then echo "private '$s' survives in $(basename "$f")"; fail=1; fi
  done
done <"$dir/private.txt"
grep -qF "gpu-node-01" "$tmp/mask.secrets" || { echo "--mask secrets masked a host name"; fail=1; }
grep -qF "127.0.0.1" "$tmp/mask.all" || { echo "127.0.0.1 was masked"; fail=1; }
grep -qF "hf_QzXw8LmNpR4tYv2BcD6fGhJk9sAe3UiOyT" "$log" || { echo "fixture lost its token"; fail=1; }

# secrets quoted in exception messages (root cause, evidence) and hosts named by a launcher
leaks=$dir/leaks.log
for fmt in json text markdown; do
  "$fl" diagnose --color never --format $fmt "$leaks" >"$tmp/leaks.$fmt" 2>&1
  for s in My5qlPassw0rd Zk3Qm8Rw2Ty6Ui0Op4As8Df2Gh6Jk0Lz4Xc8Vb2N Rd1sPassw0rd gpu-node-17 gpu-node-18; do
    if grep -qF -- "$s" "$tmp/leaks.$fmt"; then echo "'$s' survives in diagnose --format $fmt"; fail=1; fi
  done
done
"$fl" mask "$leaks" >"$tmp/leaks.mask"
grep -qF 'redis://:<password>@' "$tmp/leaks.mask" || { echo "redis URL without a user not masked as one"; fail=1; }
grep -q "WORLD INFO DICT: {'host-1': \[0, 1\], 'host-2'" "$tmp/leaks.mask" || { echo "WORLD INFO DICT hosts not masked"; fail=1; }
# a Kubernetes Secret dumped into a job's log: its data values go; its names, an empty or
# templated value and a ConfigMap's data stay
k8s=$dir/k8s.log
"$fl" mask --mask secrets "$k8s" >"$tmp/k8s.mask" || { echo "mask of k8s.log failed"; fail=1; }
for s in l2fDuH3/yPAl GPvdQJHPI5ff05tRWvGtyfJiQcDQZ eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxl Fv2Md+cqpw155pMP; do
  if grep -qF -- "$s" "$tmp/k8s.mask"; then echo "Secret value '$s' survives in mask"; fail=1; fi
done
for l in '  hf-token: <secret>' '  gcs-sa.json: <secret>' '  username: YWRtaW4=' '  name: trainer-creds' '  api-url: "{{ .Values.apiUrl }}"' \
         '  LOG_LEVEL: info' '    torchrun --nproc-per-node 8 train.py' 'step 10 loss 2.3141'; do
  grep -qxF -- "$l" "$tmp/k8s.mask" || { echo "k8s.log: '$l' not in the masked output"; fail=1; }
done

# a file name in an error message is a path, not a host
"$fl" diagnose "$tmp/trian.log" 2>"$tmp/missing.err" >/dev/null
grep -qF "trian.log: No such file" "$tmp/missing.err" || { echo "missing file named $(cat "$tmp/missing.err")"; fail=1; }

# masking does not change the diagnosis
id() { grep -m1 '"id"' "$1" | sed 's/.*"id": *"\([^"]*\)".*/\1/'; }
[ "$(id "$tmp/raw.json")" = "cuda-oom" ] || { echo "unmasked diagnosis is '$(id "$tmp/raw.json")', not cuda-oom"; fail=1; }
[ "$(id "$tmp/diag.json")" = "$(id "$tmp/raw.json")" ] || { echo "masked and unmasked diagnoses differ"; fail=1; }
[ "$(id "$tmp/diag-secrets.json")" = "$(id "$tmp/raw.json")" ] || { echo "--mask secrets changed the diagnosis"; fail=1; }
grep -q '"initiating_host": "host-1"' "$tmp/diag.json" || { echo "initiating host not pseudonymised"; fail=1; }
grep -q 'cuda-oom' "$tmp/diag.text" || { echo "text report lacks the diagnosis"; fail=1; }
grep -q 'cuda-oom' "$tmp/diag.markdown" || { echo "markdown report lacks the diagnosis"; fail=1; }
exit $fail
