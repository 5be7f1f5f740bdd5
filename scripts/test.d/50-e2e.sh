#!/usr/bin/env bash
# End-to-end tests in a real VS Code (code-server + Chromium): see test/e2e/run.sh and docs/E2E.md.
set -euo pipefail
npm run --silent test:e2e
