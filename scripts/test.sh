#!/bin/sh
# `npm test`, and so CI (.ci/run): installs what is missing, checks types, the linter's rules
# (eslint.config.js) and the generated GraphQL documents, builds the production `dist/` once, then
# runs the suite on this Node and on Node 24 LTS at once, and the browser tests once Chromium is
# there. Ends with the total of all three runs.
set -e
npm run setup
sh scripts/engines/ensure-engines.sh

# The runs' tallies (test/setup/summary-reporter.ts), and the production build that
# test/start/npm-start.test.ts starts: made once here, not once per Node run, and emitted without
# checking its types (--noCheck: the same output), which `tsc -p .` beside it checks for all its files.
export PAYREQ_TEST_TALLY="$PWD/.data/test-tally-$$.jsonl"
export PAYREQ_TEST_DIST=".data/dist-test-$$"
trap 'rm -rf "$PAYREQ_TEST_DIST" "$PAYREQ_TEST_TALLY"' EXIT

concurrently --group --names "types,lint,build,codegen" \
  "tsc -p ." \
  "npm run --silent lint:eslint" \
  "tsc -p tsconfig.build.json --noCheck --outDir $PAYREQ_TEST_DIST" \
  "graphql-codegen --check"

# The tally runs whatever the runs' outcome: it names each failed test at the end, where CI's
# excerpt of a long output still shows it.
status=0
concurrently --group --names "this node,node 24,browser" \
  "vitest run" \
  "npm run test:node24" \
  "sh test/browser/ensure-chromium.sh && vitest run --config vitest.browser.config.ts" || status=$?

node --import tsx test/setup/tally.ts "$PAYREQ_TEST_TALLY" 3 || status=1
exit $status
