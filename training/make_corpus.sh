#!/usr/bin/env bash
# Renders the training corpus with the data engine and cuts the model crops with the runtime's own
# region/crop code:  bash training/make_corpus.sh OUT_DIR [TRAIN_PAIRS] [VAL_PAIRS] [TEST_PAIRS] [SEED] [TEMPLATES]
# TEMPLATES is the data CLI's --templates (default: its default, 4); corpus2 of the shipped model was
# made before sets 2-3 existed, so `... 1 1` remakes it.
# Layout: OUT_DIR/<split>/{manifest.jsonl, pairs/..., crops.jsonl, crops.pairs.npy, crops.frames.npy,
# crops.context.npy (the kind prior's layout-context features, `npm run context`)}.
# A split whose crops.jsonl already exists is kept (rerun-safe); its context features are added when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: make_corpus.sh OUT_DIR [TRAIN] [VAL] [TEST] [SEED] [TEMPLATES]}
train=${2:-10000}; val=${3:-600}; test=${4:-1200}; seed=${5:-1}
templates=()
if [ -n "${6:-}" ]; then templates=(--templates "$6"); fi
for spec in "val:$val" "train:$train" "test:$test"; do
  split=${spec%%:*}; count=${spec##*:}
  dir="$out/$split"
  if [ -f "$dir/crops.jsonl" ]; then
    echo "make_corpus: $split exists, kept"
  else
    rm -rf "$dir"
    t0=$(date +%s)
    npm run --silent data -- --seed "$seed" --count "$count" --split "$split" --out "$dir" --quiet "${templates[@]}"
    t1=$(date +%s)
    npm run --silent crops -- --manifest "$dir/manifest.jsonl" --out "$dir/crops.tmp" >"$dir/crops_summary.json"
    for f in jsonl pairs.npy frames.npy; do mv "$dir/crops.tmp.$f" "$dir/crops.$f"; done
    echo "make_corpus: $split $count pairs rendered in $((t1 - t0)) s, cropped in $(( $(date +%s) - t1 )) s: $(head -c 300 "$dir/crops_summary.json")"
  fi
  if [ ! -f "$dir/crops.context.npy" ]; then
    # an assignment, so that set -e stops on a failed context step
    context=$(npm run --silent context -- --crops "$dir/crops.jsonl")
    echo "make_corpus: $split context features: $context"
  fi
done
