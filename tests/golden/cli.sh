#!/bin/sh
# cli.sh FAULTLINE — the command line is strict and regular: values are checked whole, options
# that contradict each other are refused, --opt=value and -- work, every (sub)command has --help,
# colour follows the terminal and TERM, and piped standard input is read without a '-'.
set -u
fl=$1
log=examples/torchrun-8rank-oom/train.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# refuse STDERR-SUBSTRING ARGS...: exit 2 and the message
refuse() {
  msg=$1
  shift
  "$fl" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  [ "$rc" = 2 ] || { echo "faultline $*: exit $rc, expected 2"; fail=1; }
  grep -qF -- "$msg" "$tmp/err" || { echo "faultline $*: stderr lacks '$msg':"; cat "$tmp/err"; fail=1; }
  [ -s "$tmp/out" ] && { echo "faultline $*: printed a report anyway"; fail=1; }
}
refuse "--evidence takes a whole number" diagnose --evidence 8x "$log"
refuse "--evidence takes a whole number" diagnose --evidence 0 "$log"
refuse "--threads takes a whole number" diagnose --threads 4abc "$log"
refuse "--threads takes a whole number" diagnose --threads=-3 "$log"
refuse "--color takes never, always or auto" diagnose --color sometimes "$log"
refuse "--format takes" diagnose --format=yaml "$log"
refuse "contradict" diagnose --no-mask --mask all "$log"
refuse "contradict" diagnose --mask secrets --mask all "$log"
refuse "contradict" stacks --mask all --no-mask "$log"
refuse "needs a value" diagnose "$log" --format
refuse "unknown option '--bogus'" diagnose --bogus "$log"
refuse "unknown option '--no-mask'" mask --no-mask "$log"
refuse "kb show takes no --strict" kb show --strict cuda-oom

# --opt=value, options after paths, and --
"$fl" diagnose --format=json --evidence=3 --threads=2 "$log" >"$tmp/j" 2>/dev/null
[ $? = 1 ] && grep -q '"id": "cuda-oom"' "$tmp/j" || { echo "--format=json not taken"; fail=1; }
"$fl" diagnose "$log" --format json >"$tmp/j2" 2>/dev/null
grep -q '"id": "cuda-oom"' "$tmp/j2" || { echo "an option after the path not taken"; fail=1; }
cp "$log" "$tmp/-odd.log"
"$fl" diagnose --format json -- "$tmp/-odd.log" >"$tmp/j3" 2>"$tmp/e3"
[ $? = 1 ] || { echo "-- did not end the options:"; cat "$tmp/e3"; fail=1; }

# --help everywhere, on stdout, exit 0
for cmd in "diagnose" "mask" "stacks" "kb" "kb list" "kb show" "kb search" "kb lint" "kb patterns"; do
  # shellcheck disable=SC2086
  "$fl" $cmd --help >"$tmp/h" 2>"$tmp/he" </dev/null
  rc=$?
  [ "$rc" = 0 ] && grep -q "usage: faultline $cmd" "$tmp/h" || {
    echo "faultline $cmd --help: exit $rc"; head -3 "$tmp/h" "$tmp/he"; fail=1; }
done

# piped standard input without '-'
"$fl" diagnose --format json <"$log" >"$tmp/p" 2>/dev/null
grep -q '"id": "cuda-oom"' "$tmp/p" || { echo "piped stdin not read without '-'"; fail=1; }

# colour: never when not a terminal; on a terminal unless TERM=dumb or NO_COLOR
esc=$(printf '\033[')
"$fl" diagnose "$log" >"$tmp/c" 2>/dev/null
grep -qF "$esc" "$tmp/c" && { echo "colour written to a pipe"; fail=1; }
if command -v script >/dev/null; then
  TERM=xterm script -qec "\"$fl\" diagnose \"$log\"" /dev/null >"$tmp/tty" 2>&1 </dev/null
  grep -qF "$esc" "$tmp/tty" || { echo "no colour on a terminal (the check cannot tell TERM=dumb apart)"; fail=1; }
  TERM=dumb script -qec "\"$fl\" diagnose \"$log\"" /dev/null >"$tmp/dumb" 2>&1 </dev/null
  grep -qF "$esc" "$tmp/dumb" && { echo "colour with TERM=dumb"; fail=1; }
  TERM=xterm NO_COLOR=1 script -qec "\"$fl\" diagnose \"$log\"" /dev/null >"$tmp/nc" 2>&1 </dev/null
  grep -qF "$esc" "$tmp/nc" && { echo "colour with NO_COLOR"; fail=1; }
fi
# reports for people: kb show lists references and related entries; Markdown fences the fix's code
"$fl" kb show cuda-oom >"$tmp/show" 2>&1
grep -q '^References' "$tmp/show" && grep -q '^  https://' "$tmp/show" || { echo "kb show prints no references"; fail=1; }
grep -q '^Related' "$tmp/show" && grep -q '^  cuda-oom-fragmentation ' "$tmp/show" || { echo "kb show prints no related entries"; fail=1; }
"$fl" diagnose --format markdown "$log" >"$tmp/md" 2>/dev/null
[ "$(grep -B1 '^# Hugging Face Trainer' "$tmp/md" | head -1)" = '```' ] || { echo "the fix's code is not fenced in Markdown"; fail=1; }
exit $fail
