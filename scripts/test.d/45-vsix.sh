#!/usr/bin/env bash
# One VSIX per platform onnxruntime-node ships binaries for: each must hold only its own platform's
# binaries, the models, the text reader's files and every module its bundles require (the checks are
# in scripts/package-vsix.sh, which fails when one does not hold). The linux-x64 one is installed and
# driven by the e2e suite (50-e2e.sh).
set -euo pipefail
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
bash scripts/package-vsix.sh --all "$OUT"
count=$(ls "$OUT"/procap-review-*.vsix | wc -l)
[ "$count" = 5 ] || { echo "vsix: expected 5 platform VSIXs, found $count" >&2; exit 1; }
