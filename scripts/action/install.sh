#!/usr/bin/env bash
# Installs the `procap` command for the GitHub Action (action.yml). PROCAP_PACKAGE, when set, is what
# to install (a tarball from `npm pack`, or an npm package spec); otherwise the action's own source
# (this repository at the ref the workflow names) is built and packed, then installed from the tarball.
set -euo pipefail
if command -v procap >/dev/null 2>&1 && [ "${PROCAP_REINSTALL:-false}" != "true" ] && [ -z "${PROCAP_PACKAGE:-}" ]; then
  echo "procap-action: using $(command -v procap) ($(procap --version))"
  exit 0
fi
export npm_config_onnxruntime_node_install=skip   # the CUDA download of onnxruntime-node: the CPU build is enough
package="${PROCAP_PACKAGE:-}"
if [ -z "$package" ]; then
  root="$(cd "$(dirname "$0")/../.." && pwd)"
  dest="${RUNNER_TEMP:-$(mktemp -d)}"
  (cd "$root" && npm ci --no-audit --no-fund && npm pack --pack-destination "$dest" >/dev/null)
  package="$(ls -t "$dest"/procap-review-*.tgz | head -n 1)"
fi
npm install -g "$package" --no-audit --no-fund
echo "procap-action: installed procap $(procap --version)"
