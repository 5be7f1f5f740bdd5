#!/usr/bin/env bash
# The batch step of the GitHub Action (action.yml), also runnable by hand in any CI: compares the
# screenshots between two git refs (PROCAP_BASE, PROCAP_HEAD) of the repository in the working folder,
# or two folders (PROCAP_BEFORE_DIR, PROCAP_AFTER_DIR), and writes into PROCAP_OUT (default
# procap-report): report.json, report.html, summary.md (also appended to $GITHUB_STEP_SUMMARY) and
# junit.xml. Optional: PROCAP_PATHS (glob), PROCAP_SHARD (i/n), PROCAP_FAIL_ON_CHANGE (true|false),
# PROCAP_REPORT_URL (the HTML report's link in the summary), PROCAP_ARGS (more options, split on spaces).
# With PROCAP_MERGE (a glob of the shards' report.json files) it runs `procap merge` on them instead
# and writes the same reports for the whole run.
# The exit code is procap's (docs/CLI.md); it is also written as `exit-code` to $GITHUB_OUTPUT, so a
# later step can upload the report before the job fails.
set -uo pipefail
out="${PROCAP_OUT:-procap-report}"
# glibc's malloc on transparent huge pages: far fewer page faults, which cost most on the virtual
# machines CI runs on (docs/CLI.md, "Speed on Linux"); a value the workflow set for it is kept, and
# where there is no glibc 2.35 or later the variable does nothing
case ":${GLIBC_TUNABLES:-}:" in
  *:glibc.malloc.hugetlb=*) ;;
  *) export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1" ;;
esac
args=(batch)
if [ -n "${PROCAP_MERGE:-}" ]; then
  # the merge job of a sharded run: PROCAP_MERGE is a glob of the shards' report.json files
  # shellcheck disable=SC2206 # expanded on purpose
  reports=(${PROCAP_MERGE})
  if [ ! -e "${reports[0]}" ]; then
    echo "procap-action: no report matches $PROCAP_MERGE" >&2
    exit 2
  fi
  args=(merge "${reports[@]}")
elif [ -n "${PROCAP_BEFORE_DIR:-}" ] || [ -n "${PROCAP_AFTER_DIR:-}" ]; then
  if [ -z "${PROCAP_BEFORE_DIR:-}" ] || [ -z "${PROCAP_AFTER_DIR:-}" ]; then
    echo "procap-action: give both PROCAP_BEFORE_DIR and PROCAP_AFTER_DIR (before-dir and after-dir)" >&2
    exit 2
  fi
  args+=("$PROCAP_BEFORE_DIR" "$PROCAP_AFTER_DIR")
else
  if [ -z "${PROCAP_BASE:-}" ]; then
    echo "procap-action: set PROCAP_BASE (the base commit; input base) or PROCAP_BEFORE_DIR and PROCAP_AFTER_DIR" >&2
    exit 2
  fi
  base="$PROCAP_BASE"
  head="${PROCAP_HEAD:-HEAD}"
  # a shallow checkout may lack the base commit: fetch just that one
  for ref in "$base" "$head"; do
    if ! git cat-file -e "$ref^{commit}" 2>/dev/null; then
      git fetch --no-tags --depth=1 origin "$ref" || { echo "procap-action: cannot find or fetch $ref" >&2; exit 2; }
    fi
  done
  args+=(--git "$base" "$head")
fi
[ -n "${PROCAP_PATHS:-}" ] && [ -z "${PROCAP_MERGE:-}" ] && args+=(--paths "$PROCAP_PATHS")
if [ -n "${PROCAP_SHARD:-}" ] && [ -z "${PROCAP_MERGE:-}" ]; then
  # a shard writes its JSON for `procap merge`; the summary and JUnit are the merged run's
  args+=(--shard "$PROCAP_SHARD" --json-file "$out/report.json" --html "$out/report.html")
else
  args+=(--out "$out" --markdown "$out/summary.md" --junit "$out/junit.xml")
  [ -n "${PROCAP_REPORT_URL:-}" ] && args+=(--report-url "$PROCAP_REPORT_URL")
fi
[ "${PROCAP_FAIL_ON_CHANGE:-false}" = "true" ] && args+=(--fail-on-change)
# shellcheck disable=SC2206 # PROCAP_ARGS is a list of options, split on spaces on purpose
[ -n "${PROCAP_ARGS:-}" ] && args+=(${PROCAP_ARGS})
echo "procap-action: procap ${args[*]}"
procap "${args[@]}"
code=$?
[ -n "${GITHUB_OUTPUT:-}" ] && echo "exit-code=$code" >>"$GITHUB_OUTPUT"
exit $code
