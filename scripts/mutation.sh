#!/usr/bin/env bash
# Mutation testing per module (not in CI: minutes per module). Each module's
# mutants run only against that module's tests. Incremental: a rerun tests only
# mutants of changed code. Usage: npm run mutation [-- credits|generations|deliver|deliver-step]
set -uo pipefail
cd "$(dirname "$0")/.."
# StrykerJS 10 (and its Babel 8) needs Node 22 or later. It is not a devDependency, so
# that `npm install` on an older system Node prints no EBADENGINE: it is installed here,
# on demand and without touching package.json or the lock, by the npm that runs this
# script on the project's own Node 24 (npm scripts put node_modules/.bin/node first).
stryker_version=10.1.1
if [ "$(stryker --version 2>/dev/null)" != "$stryker_version" ]; then
  npm install --no-save --no-audit --no-fund \
    "@stryker-mutator/core@$stryker_version" "@stryker-mutator/vitest-runner@$stryker_version" || exit 1
fi
# MUTATION_FAST=1: the ledger's property and concurrency tests at a size one mutant can
# afford (see test/integration/credits/ledger-contract.ts); CI keeps the full counts.
export MUTATION_FAST=1
run() {
  local name=$1 mutate=$2 tests=$3
  echo "== mutation: $name"
  # the report goes to reports/mutation/$name.json (stryker.config.mjs)
  MUTATION_NAME="$name" MUTATION_TESTS="$tests" npx stryker run --mutate "$mutate" || return 1
}
modules=("${@:-credits generations deliver}")
status=0
for m in ${modules[*]}; do
  case "$m" in
    # the contract on real Postgres only (PGlite runs the same suite in CI)
    credits) run credits "src/credits/ledger.ts" "test/integration/credits/ledger.postgres.test.ts,test/integration/credits/*-mutants.test.ts" || status=1 ;;
    # the state machine: its arrows, the first one, the state sets and the reads
    generations)
      run generations "src/generations/transitions.ts,src/generations/create.ts,src/generations/states.ts,src/generations/reads.ts" \
        "test/integration/generations/service.test.ts,test/integration/generations/steps.test.ts,test/integration/generations/transitions-mutants.test.ts,test/integration/generations/create-mutants.test.ts" || status=1 ;;
    # deliver-inline.ts (in deliver/ since the structure issue) is pinned end to end: the inline e2e files run for it
    deliver)
      run deliver "src/generations/deliver/*.ts,src/generations/status.ts,src/generations/result-keyboard.ts" \
        "test/integration/generations/deliver-step.test.ts,test/integration/generations/deliver-mutants.test.ts,test/integration/generations/result-buttons.test.ts,test/integration/generations/send-outputs-mutants.test.ts,test/integration/delivery.test.ts,test/unit/status-table.test.ts,test/e2e/inline.test.ts,test/e2e/inline-delivery.test.ts" || status=1 ;;
    deliver-step)
      run deliver-step "src/generations/deliver/deliver-step.ts" \
        "test/integration/generations/deliver-step.test.ts,test/integration/generations/deliver-mutants.test.ts,test/integration/generations/result-buttons.test.ts,test/integration/delivery.test.ts" || status=1 ;;
    *) echo "unknown module $m"; status=1 ;;
  esac
done
exit $status
