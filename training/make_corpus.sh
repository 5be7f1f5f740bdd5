#!/usr/bin/env bash
# Renders the training corpus with the data engine and cuts the model crops with the runtime's own
# region/crop code:  bash training/make_corpus.sh OUT_DIR [TRAIN_PAIRS] [VAL_PAIRS] [TEST_PAIRS] [SEED] [TEMPLATES]
# TEMPLATES is the data CLI's --templates (default: its default, 4); corpus2 of the shipped model was
# made before sets 2-3 existed, so `... 1 1` remakes it.
# Layout: OUT_DIR/<split>/{manifest.jsonl, pairs/..., crops.jsonl, crops.pairs.npy, crops.frames.npy,
# crops.context.npy (the kind prior's layout-context features, `npm run context`)}.
# A split whose crops.jsonl already exists is kept (rerun-safe); its context features are added when missing
# (training/render_shard.sh does each split).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: make_corpus.sh OUT_DIR [TRAIN] [VAL] [TEST] [SEED] [TEMPLATES]}
train=${2:-10000}; val=${3:-600}; test=${4:-1200}; seed=${5:-1}
for spec in "val:$val" "train:$train" "test:$test"; do
  split=${spec%%:*}; count=${spec##*:}
  dir="$out/$split"
  # a split without crops is rendered afresh here (its seed or count may have been another run's)
  [ -f "$dir/crops.jsonl" ] || rm -rf "$dir"
  bash training/render_shard.sh "$dir" "$split" "$seed" "$count" "${6:-}"
done
