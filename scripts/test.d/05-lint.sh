#!/usr/bin/env bash
# Lint and format: ESLint (eslint.config.mjs) and Prettier (.prettierrc.json) over the TypeScript
# sources, tests and scripts. `npm run format` rewrites the files Prettier would change.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run --silent lint
echo "05-lint: ok"
