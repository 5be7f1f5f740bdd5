#!/usr/bin/env bash
# Lint and format: ESLint (eslint.config.mjs) and Prettier (.prettierrc.json) over the TypeScript
# sources, tests and scripts; Ruff (ruff.toml, run by scripts/ruff.mjs with Ruff's WebAssembly build
# from npm: CI has no PyPI) over the Python in training/. `npm run format` rewrites what they would change.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run --silent lint
echo "05-lint: ok"
