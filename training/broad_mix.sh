#!/usr/bin/env bash
# The broad-mix training shards of the later stage-2 rounds (docs/research/HISTORY.md):
# one shard per template set 1..8, each rendered by the data engine (resumable), cut into model crops
# and given its layout-context features, then the --data folder and --extra-train list for training.train.
#
#   bash training/broad_mix.sh OUT_ROOT VAL_DIR [PAIRS_PER_SHARD] [FIRST_SEED]
#
# Shard of set S: OUT_ROOT/train_s<FIRST_SEED + S - 1> (defaults: 6000 pairs, seeds 40..47). VAL_DIR is
# a rendered validation split (CORPUS/val of training/make_corpus.sh). A finished shard (crops.context.npy present) is kept; a partly rendered one goes
# on with --resume; a shard whose crops step was cut is cut again (training/render_shard.sh). Sets 1 and 2 (the layouts the
# validation and test splits also draw on) are listed twice, as in the shipped model's run. Last line printed: the
# training.train arguments (--data ... --extra-train ...).
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: broad_mix.sh OUT_ROOT VAL_DIR [PAIRS_PER_SHARD] [FIRST_SEED]"
root=${1:?$usage}; val=${2:?$usage}
count=${3:-6000}; first=${4:-40}
[ -f "$val/crops.jsonl" ] || { echo "broad_mix: $val has no crops.jsonl (render the validation split first: training/make_corpus.sh)" >&2; exit 2; }
mkdir -p "$root"
extra=()
for set in 1 2 3 4 5 6 7 8; do
  seed=$((first + set - 1)); dir="$root/train_s$seed"
  bash training/render_shard.sh "$dir" train "$seed" "$count" "$set"
  extra+=(--extra-train "$dir")
  if [ "$set" -eq 2 ]; then extra+=(--extra-train "$dir"); fi   # set 2 twice; set 1 is also --data's train
done
mkdir -p "$root/mix"
ln -sfn "$root/train_s$first" "$root/mix/train"
ln -sfn "$val" "$root/mix/val"
echo "--data $root/mix ${extra[*]}"
