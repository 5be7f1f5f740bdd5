#!/usr/bin/env bash
# TypeScript unit tests (node's test runner over the compiled tests in dist/test/unit/): the fast
# suite, meant to stay under about a minute. Slow tests live in test/integration/ (12-integration.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
SECONDS=0
npm run --silent test:unit
rc=$?
echo "10-unit: $([ $rc -eq 0 ] && echo ok || echo FAILED) in ${SECONDS} s"
exit $rc
