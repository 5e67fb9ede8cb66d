#!/bin/sh
# Rewrites tests/golden/*/expected.json from the current build, for review with `git diff`.
# Never run by CI: a changed expectation is a decision, not a side effect.
set -eu
faultline=${1:-build/faultline}
for case in tests/golden/*/; do
  [ -f "$case/args" ] && [ -f "$case/expected.json" ] || continue
  eval "\"$faultline\" $(cat "$case/args")" >"$case/expected.json" </dev/null || true
  echo "updated $case"
done
