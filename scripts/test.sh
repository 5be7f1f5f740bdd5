#!/usr/bin/env bash
# Sets up a fresh machine and runs every test suite of the project: this is what CI runs (.ci/run).
# Each suite is a file in scripts/test.d/, run in name order; any failure fails the whole run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
status=0
for step in scripts/test.d/*.sh; do
  echo "=== test step: $step"
  if ! bash "$step"; then
    echo "=== FAILED: $step"
    status=1
  fi
done
exit $status
