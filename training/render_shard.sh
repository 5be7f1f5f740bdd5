#!/usr/bin/env bash
# One corpus split or training shard, end to end: rendered by the data engine (a partly rendered
# folder goes on with --resume), cut into model crops by the runtime's own region/crop code, and given
# the kind prior's layout-context features. What is already there is kept, so a cut run is rerun-safe.
#
#   bash training/render_shard.sh DIR SPLIT SEED COUNT [TEMPLATES] [ORIGINS]
#
# TEMPLATES is the data CLI's --templates (empty: its default), ORIGINS its --origins (empty: the
# engine's templates only; `all` adds the split's real design-system origins, docs/DATA_FORMAT.md).
# Used by training/make_corpus.sh (val/train/test) and training/broad_mix.sh (one shard per template set).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: render_shard.sh DIR SPLIT SEED COUNT [TEMPLATES] [ORIGINS]}; split=${2:?split}; seed=${3:?seed}; count=${4:?count}
templates=(); [ -n "${5:-}" ] && templates=(--templates "$5")
origins=(); [ -n "${6:-}" ] && origins=(--origins "$6")
name="$dir ($split, seed $seed${5:+, template set $5}${6:+, origins $6})"
if [ -f "$dir/crops.jsonl" ]; then
  echo "render_shard: $name has its crops, kept"
else
  resume=(); [ -f "$dir/manifest.jsonl" ] && resume=(--resume)
  t0=$(date +%s)
  npm run --silent data -- --seed "$seed" --count "$count" --split "$split" --out "$dir" --quiet "${templates[@]}" "${origins[@]}" "${resume[@]}"
  t1=$(date +%s)
  npm run --silent crops -- --manifest "$dir/manifest.jsonl" --out "$dir/crops.tmp" >"$dir/crops_summary.json"
  for f in jsonl pairs.npy frames.npy; do mv "$dir/crops.tmp.$f" "$dir/crops.$f"; done
  echo "render_shard: $name $count pairs rendered in $((t1 - t0)) s, cropped in $(( $(date +%s) - t1 )) s: $(head -c 300 "$dir/crops_summary.json")"
fi
if [ ! -f "$dir/crops.context.npy" ]; then
  # an assignment, so that set -e stops on a failed context step
  context=$(npm run --silent context -- --crops "$dir/crops.jsonl")
  echo "render_shard: $name context features: $context"
fi
