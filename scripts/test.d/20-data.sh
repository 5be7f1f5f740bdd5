#!/usr/bin/env bash
# Data engine through its public command: a 200-pair test-split run must cover at least 12 change
# kinds plus "none", every record must follow docs/DATA_FORMAT.md, and every named PNG must exist.
# (Determinism, captions and boxes are checked by the tests test/unit/data*.test.ts and
# test/integration/data*.test.ts.)
set -euo pipefail
cd "$(dirname "$0")/../.."
out="$(mktemp -d /tmp/procap-data-ci.XXXXXX)"
trap 'rm -rf "$out"' EXIT
npm run --silent data -- --seed 2026 --count 200 --split test --out "$out" --quiet
npm run --silent data:stats -- "$out" > "$out/stats.txt" || { cat "$out/stats.txt"; echo "20-data: invalid records"; exit 1; }
npm run --silent data:stats -- "$out" --json > "$out/stats.json"
node -e '
  const fs = require("fs");
  const dir = process.argv[1];
  const s = JSON.parse(fs.readFileSync(dir + "/stats.json", "utf8"));
  const kinds = Object.keys(s.kinds);
  const changeKinds = kinds.filter((k) => k !== "none");
  console.log(`20-data: ${s.pairs} pairs, kinds ${kinds.sort().join(" ")}, vocabulary ${s.vocabulary}, frames ${s.withFrames}`);
  if (s.pairs !== 200) throw new Error(`expected 200 pairs, got ${s.pairs}`);
  if (changeKinds.length < 12 || !kinds.includes("none")) throw new Error(`only ${changeKinds.length} change kinds (+none: ${kinds.includes("none")})`);
  for (const line of fs.readFileSync(dir + "/manifest.jsonl", "utf8").trim().split("\n")) {
    const r = JSON.parse(line);
    for (const p of [r.before, r.after, ...r.frames]) if (!fs.existsSync(dir + "/" + p)) throw new Error(`${r.id}: missing ${p}`);
  }
' "$out"
echo "20-data: templates ok"

# Origins (design systems from npm packages): 120 train pairs over the four train origins must be
# valid, show every origin, and cover >= 12 change kinds plus "none".
npm run --silent data -- --seed 2026 --count 120 --split train --origins bootstrap,tabler,bulma,swagger --out "$out/origins" --quiet
npm run --silent data:stats -- "$out/origins" > "$out/origins-stats.txt" || { cat "$out/origins-stats.txt"; echo "20-data: invalid origin records"; exit 1; }
node -e '
  const fs = require("fs");
  const recs = fs.readFileSync(process.argv[1] + "/manifest.jsonl", "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const origins = new Set(recs.map((r) => r.origin));
  const kinds = new Set(recs.flatMap((r) => r.changes.map((c) => c.kind)));
  console.log(`20-data: origins ${[...origins].sort().join(" ")}, kinds ${[...kinds].sort().join(" ")}`);
  for (const o of ["bootstrap", "tabler", "bulma", "swagger"]) if (!origins.has(o)) throw new Error(`no pair of origin ${o}`);
  if (kinds.size < 13 || !kinds.has("none")) throw new Error(`only ${kinds.size} kinds with none`);
' "$out/origins"
echo "20-data: origins ok"
