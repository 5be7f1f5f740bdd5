#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine of this kind (Debian, root, npm registry
# and Debian packages only), then builds. Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(chromium fonts-dejavu-core fonts-liberation2 fonts-noto-core fonts-roboto fonts-open-sans
  fonts-inter python3-torch python3-onnx python3-numpy python3-pil python3-pytest libopenblas0-openmp
  libkrb5-dev git)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# onnxruntime-node's postinstall would download CUDA libraries from outside the registry: skip it
# (also set in .npmrc; newer npm versions warn about unknown .npmrc keys).
export ONNXRUNTIME_NODE_INSTALL=skip
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

echo "setup: build"
npm run --silent build
