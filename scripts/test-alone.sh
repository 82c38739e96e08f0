#!/usr/bin/env bash
# Runs each test file given (arguments, or one a line on stdin) alone in a vitest of its
# own, two at a time: a file that passes only after another one ran (a table, a Redis
# key, a file in dist/ it left behind) fails here. Prints each failure with its seed
# (TEST_SEED=<seed> npx vitest run <file> repeats it) and the end of its output.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
files=$(mktemp)
trap 'rm -f "$files"' EXIT
if [ "$#" -gt 0 ]; then printf '%s\n' "$@"; else cat; fi | grep -v '^$' >"$files"
count=$(wc -l <"$files")
echo "each of $count test files alone"
[ "$count" -gt 0 ] || exit 0
# CI unset: the JSON report of the main run stays the only test-results.json
failed=$(xargs -P 2 -I{} sh -c '
  out=$(env -u CI vitest run "$1" --reporter=dot 2>&1) ||
    { echo "FAILED alone: $1"; echo "$out" | grep -m1 "Running tests with seed"; echo "$out" | tail -40; }' _ {} <"$files")
if [ -n "$failed" ]; then
  echo "$failed"
  exit 1
fi
echo "all $count passed alone"
