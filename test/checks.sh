#!/bin/sh
# The static checks of `npm test`, one after another beside the test runs (scripts/test.sh): the
# types (tsconfig.json, every file) and the linter's rules (eslint.config.js) on one program
# (scripts/lint.js), the format (Prettier, as `npm run lint`) and the generated GraphQL documents
# (codegen.ts). Runs them all whatever each answers, then names the ones that failed; exit 1 if any did.
failed=""
check() {
  name="$1"
  shift
  echo "== $name: $*"
  "$@" || failed="$failed $name"
}
check types-and-lint node scripts/lint.js
check format prettier --check --log-level warn .
check codegen graphql-codegen --check
if [ -n "$failed" ]; then
  echo "checks failed:$failed"
  [ -z "$PAYREQ_TEST_TALLY" ] || echo "{\"checks\":\"${failed# }\"}" >> "$PAYREQ_TEST_TALLY"
  exit 1
fi
echo "checks passed: types and lint, format, codegen"
