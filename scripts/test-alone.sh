#!/usr/bin/env bash
# Runs each test file given (arguments, or one a line on stdin) alone in a vitest of its
# own, two at a time: a file that passes only after another one ran (a table, a Redis
# key, a file in dist/ it left behind) fails here. Prints each failure with its seed
# (TEST_SEED=<seed> npx vitest run <file> repeats it) and the end of its output.
# ALONE_BUDGET_SECONDS: no file starts after this long, nor one that the last run's
# durations say would end past it (CI's time bound); the ones left are named, and
# `npm run test:order` runs every file alone before a release.
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
started=$(date +%s)
budget=${ALONE_BUDGET_SECONDS:-0}
skipped=$(mktemp)
durations=$(mktemp)
trap 'rm -f "$files" "$skipped" "$durations"' EXIT
# each file's seconds, as "<path> <seconds>" lines: from the last run (the durations
# reporter's), or else the record in test/durations.json
node -e '
  const fs = require("fs");
  const from = ["test-results/durations.json", "test/durations.json"].find((p) => fs.existsSync(p));
  const seconds = from ? JSON.parse(fs.readFileSync(from, "utf8")) : {};
  for (const [file, s] of Object.entries(seconds)) console.log(file, Math.ceil(Number(s) || 0));
' >"$durations" 2>/dev/null
failed=$(STARTED="$started" BUDGET="$budget" SKIPPED="$skipped" DURATIONS="$durations" xargs -P 2 -I{} sh -c '
  if [ "$BUDGET" -gt 0 ]; then
    took=$(awk -v f="$1" "\$1 == f { print \$2 }" "$DURATIONS")
    if [ $(( $(date +%s) - STARTED + ${took:-0} )) -ge "$BUDGET" ]; then echo "$1" >>"$SKIPPED"; exit 0; fi
  fi
  out=$(env -u CI vitest run "$1" --reporter=dot 2>&1) ||
    { echo "FAILED alone: $1"; echo "$out" | grep -m1 "Running tests with seed"; echo "$out" | tail -40; }' _ {} <"$files")
if [ -s "$skipped" ]; then
  echo "not run alone within ${budget} s ($(wc -l <"$skipped") files; npm run test:order runs every file alone):"
  sed 's/^/  /' "$skipped"
fi
if [ -n "$failed" ]; then
  echo "$failed"
  exit 1
fi
echo "all $(( count - $(wc -l <"$skipped") )) run alone passed"
