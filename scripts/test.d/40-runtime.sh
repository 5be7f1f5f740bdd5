#!/usr/bin/env bash
# Runtime smoke checks beyond the TypeScript tests (test/integration/ already runs the CLI over
# ../shared/realpairs): the bundled example through the CLI, a short benchmark run and a small eval
# run, each checked for the fields it must print. No timing assertions: speed is reported, not tested.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -f examples/before.png ] && [ -f examples/after.png ]; then
  echo "runtime: describe the bundled example"
  npm run --silent cli -- describe examples/before.png examples/after.png --json --html "$tmp/example.html" --frames "$tmp/frames" > "$tmp/example.json"
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (!r.changed || !r.summary || !r.regions.length || !r.regions.every((x) => x.caption && x.kind)) throw new Error("example: no captioned regions: " + JSON.stringify(r.summary));
    console.log("runtime: example: " + r.summary);' "$tmp/example.json"
  test -s "$tmp/example.html"
  ls "$tmp/frames" | grep -q 'frame0.png'
fi

echo "runtime: bench smoke run (--quick)"
npm run --silent bench -- --quick --reps 1 --json > "$tmp/bench.json"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const need = ["first_caption_ms_1080p", "full_report_ms_1080p", "pixelmatch_ms_1080p", "ratio_first_caption_vs_pixelmatch",
    "pairs_per_minute", "pairs_per_minute_no_frames_jobs_2", "report_no_frames_ms_1080p", "full_report_ms_1280x12000_one_change",
    "full_report_ms_4k_one_change", "cold_start_first_caption_ms", "cold_start_no_model_cache_ms", "cold_start_empty_model_cache_ms", "cold_start_malloc_huge_pages_ms",
    "model_load_ms", "model_load_cached_ms", "peak_rss_mb"];
  for (const k of need) if (typeof r[k] !== "number" || !(r[k] > 0)) throw new Error("bench: field " + k + " missing or not positive: " + r[k]);
  console.log("runtime: bench fields present; 1080p first caption " + r.first_caption_ms_1080p + " ms, full report " + r.full_report_ms_1080p + " ms");' "$tmp/bench.json"

echo "runtime: eval smoke run (20 fresh test pairs)"
npm run --silent eval -- --split test --count 20 --json > "$tmp/eval.json"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  for (const k of ["cider", "cider_ceiling", "bleu4", "rougeL", "kind_accuracy", "count", "seconds"]) {
    if (typeof r[k] !== "number") throw new Error("eval: field " + k + " missing: " + JSON.stringify(r));
  }
  if (!("nochange_recall" in r)) throw new Error("eval: nochange_recall missing");
  if (r.count !== 20) throw new Error("eval: expected 20 pairs, got " + r.count);
  // every model sample is in one region group: the groups count as many samples as the kinds do
  const sum = (o) => Object.values(o || {}).reduce((n, v) => n + v.count, 0);
  if (sum(r.kind_accuracy_by_region) !== sum(r.per_kind_accuracy) || sum(r.per_kind_accuracy) === 0) {
    throw new Error("eval: kind_accuracy_by_region does not cover the samples: " + JSON.stringify(r.kind_accuracy_by_region));
  }
  console.log("runtime: eval " + JSON.stringify(r));' "$tmp/eval.json"
echo "runtime: ok"
