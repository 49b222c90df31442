#!/bin/sh
# `npm test`, and so CI (.ci/run): installs what is missing, builds the production `dist/` once,
# then runs at once the static checks (test/checks.sh), the suite on this Node and on Node 24 LTS,
# and the browser tests once Chromium is there. Ends with the total of the three runs and the name
# of every failed test or check.
set -e
npm run setup
sh scripts/engines/ensure-engines.sh

# The runs' tallies (test/setup/summary-reporter.ts); the production build that
# test/start/npm-start.test.ts starts, emitted without checking its types (--noCheck: the same
# output), which the type check beside the runs does; and the bundles the processes tests start
# run, as `npm start` runs them (scripts/bundle-cache.js): each made once here, not once per run.
export PAYREQ_TEST_TALLY="$PWD/.data/test-tally-$$.jsonl"
# Node 22 and later keep the code they compile for a module here and reuse it in the next process
# that loads it (Node 20 ignores the setting): the Node 24 run starts hundreds of processes (the
# CLI, the API, the worker) from the same files, and spends about a tenth less CPU with it.
export NODE_COMPILE_CACHE="$PWD/.data/node-compile-cache"
export PAYREQ_TEST_DIST=".data/dist-test-$$"
trap 'rm -rf "$PAYREQ_TEST_DIST" "$PAYREQ_TEST_TALLY"' EXIT
tsc -p tsconfig.build.json --noCheck --outDir "$PAYREQ_TEST_DIST"
node scripts/bundle-cache.js >/dev/null

# The static checks run beside the suite, not before it: the machine is busy throughout either
# way, and they fill the time the runs spend waiting (for an engine to restart, a lease to lapse).
# The tally runs whatever the outcome: it names each failed test and check at the end, where CI's
# excerpt of a long output still shows it.
status=0
concurrently --group --names "checks,this node,node 24,browser" \
  "sh test/checks.sh" \
  "vitest run" \
  "npm run test:node24" \
  "sh test/browser/ensure-chromium.sh && vitest run --config vitest.browser.config.ts" || status=$?

node --import tsx test/setup/tally.ts "$PAYREQ_TEST_TALLY" 3 || status=1
exit $status
