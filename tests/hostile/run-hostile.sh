#!/bin/sh
# run-hostile.sh FAULTLINE CASE [sanitized] — runs `faultline diagnose` on one hostile input,
# generated in a temporary folder. Passes when the program ends by itself within 120 s with a
# report (exit 0 or 1), or refuses with exit 2 and a message on stderr; a signal (exit >= 128)
# or a timeout fails. Memory is capped at 4 GB of virtual memory, except for sanitized builds
# (AddressSanitizer reserves far more address space than it uses).
# shellcheck disable=SC3045,SC2016  # dash and bash both have ulimit -v
set -u
fl=$1 case=$2
sanitized=${3:-}
if [ -z "$sanitized" ] && nm "$fl" 2>/dev/null | grep -q '__asan_init\|__tsan_init\|__msan_init'; then
  sanitized=sanitized
fi
# a hang is what the limit catches: sanitizers make every run several times slower
limit=120
[ -n "$sanitized" ] && limit=280
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fl-hostile.XXXXXX")
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
out=$tmp/out.json err=$tmp/err.txt
oom='torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.00 GiB is free.'

# diagnose ARGS... — runs the program (stdin from $tmp/stdin when present), sets $rc.
diagnose() {
  in=/dev/null
  [ -e "$tmp/stdin" ] && in=$tmp/stdin
  (
    [ -z "$sanitized" ] && ulimit -v 4000000
    exec timeout "$limit" "$fl" diagnose --format json "$@" <"$in" >"$out" 2>"$err"
  )
  rc=$?
}

# piped GENERATOR ARGS... — like diagnose, with stdin from a generating command.
piped() {
  gen=$1
  shift
  (
    [ -z "$sanitized" ] && ulimit -v 4000000
    sh -c "$gen" | timeout "$limit" "$fl" diagnose --format json "$@" >"$out" 2>"$err"
  )
  rc=$?
}

fail() {
  echo "hostile $case: $*"
  echo "--- stderr:"
  head -c 2000 "$err"
  exit 1
}

check() {
  [ "$rc" -eq 124 ] && fail "timed out after $limit s"
  [ "$rc" -ge 128 ] && fail "killed by a signal (exit $rc)"
  case $rc in
    0 | 1) python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out" 2>/dev/null ||
      fail "exit $rc but the report is not JSON" ;;
    2) [ -s "$err" ] || fail "exit 2 without a message on stderr" ;;
    *) fail "unexpected exit status $rc" ;;
  esac
  echo "hostile $case: exit $rc, report $(wc -c <"$out") bytes${1:+, $1}"
  [ "$rc" -eq 2 ] && echo "  stderr: $(head -n 3 "$err")"
  return 0
}

case $case in
empty)
  : >"$tmp/empty.log"
  diagnose "$tmp/empty.log"; check ;;
empty-gz)
  : >"$tmp/empty.log.gz"
  diagnose "$tmp/empty.log.gz"; check ;;
truncated)
  i=0
  while [ $i -lt 2000 ]; do echo "step $i loss 1.0"; i=$((i + 1)); done >"$tmp/a.log"
  echo "$oom" >>"$tmp/a.log"
  gzip -c "$tmp/a.log" | head -c 3000 >"$tmp/t.log.gz"
  zstd -q -c "$tmp/a.log" | head -c 3000 >"$tmp/t.log.zst"
  mkdir "$tmp/d" && cp "$tmp/a.log" "$tmp/d/rank_0.log"
  tar -C "$tmp/d" -czf - rank_0.log | head -c 3000 >"$tmp/t.tar.gz"
  tar -C "$tmp/d" -cf - rank_0.log | head -c 5000 >"$tmp/t.tar"
  for f in t.log.gz t.log.zst t.tar.gz t.tar; do
    diagnose "$tmp/$f"; check "$f"
  done ;;
long-line)
  # 200 MB in one line, the OOM message at its end
  piped "head -c 200000000 /dev/zero | tr '\\0' a; echo ' $oom'" -; check ;;
many-lines)
  # 10 million identical error lines: the report must stay small
  piped "yes '$oom' | head -n 10000000" -; check
  size=$(wc -c <"$out")
  [ "$size" -lt 102400 ] || fail "report of $size bytes (limit 100 KB)"
  grep -q '"cuda-oom"' "$out" || fail "cuda-oom not diagnosed" ;;
nul-bytes)
  { printf 'a\000b\000\000\n'; head -c 100000 /dev/zero; printf '\n%s\000tail\n' "$oom"; } >"$tmp/n.log"
  diagnose "$tmp/n.log"; check ;;
invalid-utf8)
  { printf '\377\376\300\200 \355\240\200 \364\220\200\200 \342\202\n'
    printf '\033[31m\033]0;x\007%s\r\r\033[\n' "$oom"; head -c 65536 /dev/urandom; echo; } >"$tmp/u.log"
  diagnose "$tmp/u.log"; check ;;
many-files)
  mkdir "$tmp/logs"
  (cd "$tmp/logs" && seq 0 9999 | xargs -n 1000 sh -c 'for i; do echo "step $i" >"rank_$i.log"; done' sh)
  echo "$oom" >>"$tmp/logs/rank_4242.log"
  diagnose "$tmp/logs"; check ;;
symlink-loop)
  mkdir -p "$tmp/loop/a"
  ln -s .. "$tmp/loop/a/up"
  ln -s self "$tmp/loop/self"
  ln -s "$tmp/loop" "$tmp/loop/a/back"
  echo "$oom" >"$tmp/loop/a/rank_0.log"
  diagnose "$tmp/loop"; check
  diagnose "$tmp/loop/self"; check "self-link" ;;
unreadable)
  if [ "$(id -u)" = 0 ]; then
    echo "hostile $case: skipped (root reads any file)"
    exit 0
  fi
  echo "$oom" >"$tmp/secret.log" && chmod 000 "$tmp/secret.log"
  diagnose "$tmp/secret.log"; check
  mkdir "$tmp/dir" && echo "$oom" >"$tmp/dir/rank_0.log" && echo x >"$tmp/dir/rank_1.log"
  chmod 000 "$tmp/dir/rank_1.log"
  diagnose "$tmp/dir"; check "folder with one unreadable file" ;;
catastrophic-regex)
  mkdir -p "$tmp/kb/memory"
  cat >"$tmp/kb/memory/redos.md" <<'MD'
---
id: redos
title: Catastrophic backtracking
category: memory
severity: high
role: primary
signals:
  - name: redos
    regex: '(a+)+$'
  - name: nested
    regex: '^(\w+\s?)*(?<rank>\d+)$'
  - name: atom
    regex: 'loader state: (a+)+$'
---

## Quick answer

- **Symptom:** x
MD
  { head -c 60000 /dev/zero | tr '\0' a; echo '!'
    head -c 60000 /dev/zero | tr '\0' 'w'; echo ' x!'; echo "$oom"; } >"$tmp/r.log"
  diagnose --kb "$tmp/kb" "$tmp/r.log"; check
  # many lines on which the regex (its literal found, PCRE2 confirming) backtracks: it is
  # disabled after a few, and the report says so
  i=0
  while [ $i -lt 40 ]; do
    printf 'loader state: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\n'
    i=$((i + 1))
  done >"$tmp/many.log"
  echo "$oom" >>"$tmp/many.log"
  diagnose --kb "$tmp/kb" "$tmp/many.log"; check "many backtracking lines"
  grep -q "signal 'atom' of entry 'redos' was disabled" "$out" ||
    fail "no warning that the backtracking signal was disabled" ;;
*)
  echo "run-hostile.sh: no case $case" >&2
  exit 2 ;;
esac
exit 0
