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
# afford (see test/domain/credits/ledger-contract.ts); CI keeps the full counts.
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
    credits) run credits "src/domain/credits/ledger.ts" "test/domain/credits/ledger.postgres.integration.test.ts,test/domain/credits/*-mutants.integration.test.ts" || status=1 ;;
    # the state machine: its arrows, the first one, the state sets and the reads
    generations)
      run generations "src/domain/generations/transitions.ts,src/domain/generations/create.ts,src/domain/generations/states.ts,src/domain/generations/reads.ts" \
        "test/domain/generations/service.integration.test.ts,test/domain/generations/steps.integration.test.ts,test/domain/generations/transitions-mutants.integration.test.ts,test/domain/generations/create-mutants.integration.test.ts" || status=1 ;;
    # deliver-inline.ts (in deliver/ since the structure issue) is pinned end to end: the inline e2e files run for it
    deliver)
      run deliver "src/domain/generations/deliver/*.ts,src/domain/generations/status.ts,src/domain/generations/result-keyboard.ts" \
        "test/domain/generations/deliver-step.integration.test.ts,test/domain/generations/deliver-mutants.integration.test.ts,test/domain/generations/result-buttons.integration.test.ts,test/domain/generations/send-outputs-mutants.integration.test.ts,test/domain/generations/delivery.integration.test.ts,test/domain/generations/status-table.unit.test.ts,test/features/inline/inline.e2e.test.ts,test/features/inline/inline-delivery.e2e.test.ts" || status=1 ;;
    deliver-step)
      run deliver-step "src/domain/generations/deliver/deliver-step.ts" \
        "test/domain/generations/deliver-step.integration.test.ts,test/domain/generations/deliver-mutants.integration.test.ts,test/domain/generations/result-buttons.integration.test.ts,test/domain/generations/delivery.integration.test.ts" || status=1 ;;
    *) echo "unknown module $m"; status=1 ;;
  esac
done
exit $status
