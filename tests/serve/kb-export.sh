#!/bin/sh
# `faultline kb export --html DIR`: one page per entry plus the index and the assets, every
# link between the pages resolves, and no page carries inline script.
set -u
fl=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$fl" kb export --html "$out/site" || { echo "export failed"; exit 1; }
fail=0
n=$("$fl" kb list | wc -l)
got=$(ls "$out/site/kb" | grep -c '\.html$')
[ "$got" -eq $((n + 1)) ] || { echo "expected $((n + 1)) pages, got $got"; fail=1; }
for f in index.html kb/index.html kb/cuda-oom.html static/style.css static/app.js; do
  [ -s "$out/site/$f" ] || { echo "missing $f"; fail=1; }
done
grep -q '<h2>Fix</h2>' "$out/site/kb/cuda-oom.html" || { echo "cuda-oom.html has no Fix section"; fail=1; }
grep -q '<ul class="checklist"><li><label><input type="checkbox">' "$out/site/kb/cuda-oom.html" ||
  { echo "cuda-oom.html: Confirm is not a checklist"; fail=1; }
grep -q '<section id="references"><h2>References</h2><ol class="references"><li><a rel="noopener noreferrer" href="https://' \
  "$out/site/kb/cuda-oom.html" || { echo "cuda-oom.html: no references section"; fail=1; }
# every relative link of every page points at a file of the site
for page in "$out"/site/kb/*.html; do
  for href in $(grep -o 'href="[^"]*' "$page" | sed 's/^href="//' | grep -v '^[a-z]*:' | sed 's/#.*//' | sort -u); do
    [ -n "$href" ] || continue
    [ -e "$(dirname "$page")/$href" ] || { echo "$(basename "$page"): broken link $href"; fail=1; }
  done
  if grep -q '<script>' "$page"; then echo "$(basename "$page"): inline script"; fail=1; fi
done
exit $fail
