#!/usr/bin/env bash
# The whole order check, before a release (about 30 minutes on 2 cores; CI runs only
# the files a change touched alone): every test file alone, then the whole suite in
# three shuffled orders. Each seed is printed: TEST_SEED=<seed> npm test repeats one.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
status=0
find test -name '*.test.ts' | sort | bash scripts/test-alone.sh || status=1
for run in 1 2 3; do
  seed=$RANDOM
  printf '\n== shuffled run %s (seed %s)\n' "$run" "$seed"
  env -u CI TEST_SEED="$seed" vitest run --reporter=dot || { echo "FAILED shuffled run $run (seed $seed)"; status=1; }
done
exit "$status"
