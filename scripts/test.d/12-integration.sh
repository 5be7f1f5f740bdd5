#!/usr/bin/env bash
# TypeScript integration tests (node's test runner over dist/test/integration/): the slow tests that
# render with Chromium, spawn the CLI or worker threads, run the models over the real pairs in
# ../shared/realpairs (skipped when absent) or measure memory over hundreds of describes.
set -uo pipefail
cd "$(dirname "$0")/../.."
SECONDS=0
npm run --silent test:integration
rc=$?
echo "12-integration: $([ $rc -eq 0 ] && echo ok || echo FAILED) in ${SECONDS} s"
exit $rc
