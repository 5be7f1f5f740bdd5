#!/usr/bin/env bash
# TypeScript unit tests (node's test runner over the compiled tests).
set -euo pipefail
npm run --silent test:unit
