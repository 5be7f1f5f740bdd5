#!/usr/bin/env bash
# Sets up a fresh machine, then describes the bundled example pair (examples/before.png -> examples/after.png):
# prints the captions and regions, writes the procedure frames and a self-contained HTML report under dist/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p dist/demo
npm run --silent cli -- describe examples/before.png examples/after.png \
  --html dist/demo/report.html --frames dist/demo/frames
echo "demo: HTML report written to dist/demo/report.html, frames to dist/demo/frames/"
