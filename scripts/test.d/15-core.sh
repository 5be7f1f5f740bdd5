#!/usr/bin/env bash
# Core pixel pipeline reliability: a small fuzz run (mutated real and generated PNG pairs through
# decode -> diff -> regions -> crops). Fails on any crash or hang. The N=10000 figure is in
# docs/RELIABILITY.md. Uses ../shared/realpairs as extra seeds when that folder exists.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f dist/src/lab/fuzz.js ] || npm run --silent build
npm run --silent fuzz -- --count 500 --seed "${FUZZ_SEED:-1}" --json
