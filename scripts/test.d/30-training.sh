#!/usr/bin/env bash
# Training pipeline checks: the Python unit tests, then a smoke run of the whole pipeline on a
# tiny corpus rendered by the real data engine and cut by the real crops CLI (a few steps of every
# phase), checking that every loss falls, that the export passes onnx.checker and runs in
# onnxruntime-node with the same numbers as PyTorch, that evaluation writes its JSON, and that the
# shipped models/ still match their golden tensors.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
work=$(mktemp -d /tmp/procap-train-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "30-training: FAILED: $*"; exit 1; }

echo "30-training: pytest"
$PY -m pytest -q -p no:cacheprovider training/tests
rc=$?
# pytest exit codes: 0 ok, 1 failures, 2 interrupted, 3 internal error, 4 usage error, 5 no tests collected
[ $rc -eq 0 ] || fail "pytest exit code $rc"

echo "30-training: tiny corpus (data engine + crops CLI)"
for spec in train:40:11 val:12:12 test:12:13; do
  IFS=: read -r split count seed <<<"$spec"
  npm run --silent data -- --seed "$seed" --count "$count" --split "$split" --out "$work/corpus/$split" --quiet \
    || fail "npm run data ($split)"
  npm run --silent crops -- --manifest "$work/corpus/$split/manifest.jsonl" --out "$work/corpus/$split/crops" >/dev/null \
    || fail "npm run crops ($split)"
  npm run --silent context -- --crops "$work/corpus/$split/crops.jsonl" >/dev/null \
    || fail "npm run context ($split)"
done

echo "30-training: smoke training + export"
$PY -m training.train --all --smoke --data "$work/corpus" --out "$work/ckpt" --models "$work/models" \
  >"$work/train.log" 2>&1 || { tail -30 "$work/train.log"; fail "training.train --smoke"; }
grep -E "done, loss|exported" "$work/train.log"
$PY - "$work/ckpt/summary.json" <<'PYEOF' || fail "a loss did not fall"
import json, sys
s = json.load(open(sys.argv[1]))
# the loss on a fixed probe batch, before the first and after the last step of each phase, must fall for
# the phases that learn from scratch (tokenizer autoencoder, stage 1, stage 2). Two phases start from a
# strong state and get only a handful of smoke steps: the interpolator (and its crop gate) starts as an exact cross-fade
# (zero-initialised head) and the codebook fine-tune starts from the trained decoder; for them the check
# is that training did not diverge (finite, at most 25% above the start).
import math
phases = ("tokenizer", "stage1_k2", "stage2_k2", "interpolator")
bad = [p for p in phases[:3] if not s[p]["probe_last"] < s[p]["probe_first"]]
vq = s["tokenizer"]["vq"]
gate = s["interpolator"]["gate"]   # the crop gate's own fit on the frozen interpolator
for name, r in (("interpolator", s["interpolator"]), ("tokenizer_vq", vq), ("interpolator_gate", gate)):
    if not (math.isfinite(r["probe_last"]) and r["probe_last"] <= 1.25 * r["probe_first"]):
        bad.append(name)
for p in phases:
    print(f"  {p}: probe loss {s[p]['probe_first']:.4f} -> {s[p]['probe_last']:.4f}")
print(f"  tokenizer_vq: probe loss {vq['probe_first']:.4f} -> {vq['probe_last']:.4f}")
print(f"  interpolator_gate: probe loss {gate['probe_first']:.4f} -> {gate['probe_last']:.4f}")
if bad:
    print("  did not fall:", bad)
sys.exit(1 if bad else 0)
PYEOF

echo "30-training: exported ONNX through onnxruntime-node vs PyTorch golden outputs"
node training/check_onnx.mjs "$work/models" | tail -2 || fail "smoke export parity"
$PY -c "import json,sys; i=json.load(open('$work/models/export_info.json')); sys.exit(0 if i['onnx_total_mb'] <= 60 else 1)" \
  || fail "ONNX files over 60 MB"

echo "30-training: a checkpoint recovered from the exported ONNX files exports the same numbers"
$PY -m training.recover --models "$work/models" --out "$work/recovered" >"$work/recover.log" 2>&1 \
  || { tail -5 "$work/recover.log"; fail "training.recover"; }
grep "^recover:" "$work/recover.log" | cut -c1-160

echo "30-training: a later stage-2 round from the recovered folder in one command (--reuse, --stage2-init)"
$PY -m training.train --all --smoke --data "$work/corpus" --out "$work/round2" --no-export --steps stage2=10 \
  --reuse "$work/recovered" --stage2-init "$work/recovered/stage2_k2.pt" >"$work/round2.log" 2>&1 \
  || { tail -20 "$work/round2.log"; fail "training.train --reuse"; }
for phase in tokenizer stage1_k2 interpolator; do
  grep -q "$phase: already trained" "$work/round2.log" || { tail -20 "$work/round2.log"; fail "--reuse did not skip $phase"; }
done
grep -q "stage 2 starts from $work/recovered/stage2_k2.pt" "$work/round2.log" && [ -f "$work/round2/stage2_k2.pt" ] \
  || { tail -20 "$work/round2.log"; fail "the --reuse round did not train stage 2 from the recovered one"; }

echo "30-training: a committee member trained by training.train_member (CPU here; the GPU path is the same code) exports with --members"
$PY -m training.train_member --ckpt "$work/recovered" --train "$work/corpus/train" --val "$work/corpus/val" --out "$work/member_gpu" \
  --device cpu --steps 12 --batch 16 --log-every 4 --val-every 12 >"$work/member.log" 2>&1 \
  || { tail -20 "$work/member.log"; fail "training.train_member"; }
grep -E "member done" "$work/member.log" | cut -c1-200
$PY -m training.export --ckpt "$work/recovered" --models "$work/models_member" --members "$work/member_gpu" >"$work/export_member.log" 2>&1 \
  || { tail -5 "$work/export_member.log"; fail "training.export --members (a train_member folder)"; }
node training/check_onnx.mjs "$work/models_member" >"$work/check_member.log" || { cat "$work/check_member.log"; fail "member export parity"; }
grep -E "^ok +kind_members.json" "$work/check_member.log" || fail "no kind_members golden checked (train_member folder)"

echo "30-training: evaluation on the tiny test split"
$PY -m training.evaluate --data "$work/corpus" --ckpt "$work/ckpt" --out "$work/metrics.json" --interp-samples 8 \
  >"$work/eval.log" 2>&1 || { tail -20 "$work/eval.log"; fail "training.evaluate"; }
$PY -c "
import json; m = json.load(open('$work/metrics.json'))
need = ['split','count','cider','cider_ceiling','bleu4','rougeL','kind_accuracy','nochange_recall','ablation','interpolator',
        'per_kind_accuracy','kind_confusion','kind_accuracy_by_region']
missing = [k for k in need if k not in m]; assert not missing, missing
assert set(m['ablation']) == {'static','k1','k2','explicit'}
print('  metrics.json fields ok; count', m['count'])" || fail "metrics.json format"

echo "30-training: a kind committee (the smoke checkpoint as its own member) exports, runs and evaluates"
$PY -m training.export --ckpt "$work/ckpt" --models "$work/models_committee" --members "$work/ckpt" >"$work/export_committee.log" 2>&1 \
  || { tail -5 "$work/export_committee.log"; fail "training.export --members"; }
node training/check_onnx.mjs "$work/models_committee" >"$work/check_committee.log" || { cat "$work/check_committee.log"; fail "committee export parity"; }
grep -E "^ok +kind_members.json" "$work/check_committee.log" || fail "no kind_members golden checked"
$PY -m training.evaluate --data "$work/corpus" --ckpt "$work/ckpt" --members "$work/ckpt" --out "$work/metrics_committee.json" \
  --interp-samples 8 >"$work/eval_committee.log" 2>&1 || { tail -20 "$work/eval_committee.log"; fail "training.evaluate --members"; }
# a committee of a model with itself votes as the model alone: same kinds, same captions
$PY -c "
import json; a = json.load(open('$work/metrics.json')); b = json.load(open('$work/metrics_committee.json'))
# members are recorded without their machine location (training/paths.py): the folder's name
assert b['kind_members'] == ['ckpt'] and a['kind_members'] == [], (a['kind_members'], b['kind_members'])
import math
for k in ('kind_accuracy', 'kind_accuracy_head', 'cider', 'nochange_recall'):
    # nochange_recall is NaN when the tiny split has no no-change pair: then both must be
    assert (math.isnan(a[k]) and math.isnan(b[k])) or abs(a[k] - b[k]) < 1e-9, (k, a[k], b[k])
print('  committee of one model = the model: kind accuracy', b['kind_accuracy'])" || fail "committee evaluation"
cp "$work/metrics_committee.json" "$work/models_committee/metrics.json"
$PY -m training.model_card --ckpt "$work/ckpt" --members "$work/ckpt" --corpus "$work/corpus" --models "$work/models_committee" >/dev/null \
  || fail "training.model_card with a committee"
grep -q "^### Kind committee" "$work/models_committee/MODEL_CARD.md" || fail "the model card has no committee section"
grep -q "^### Pair consistency" "$work/models_committee/MODEL_CARD.md" || fail "the model card has no pair consistency section"

echo "30-training: the kind prior refitted with its fusion weight picked on a committee's logits (training.context --members)"
mkdir -p "$work/ckpt_prior" && cp -r "$work/ckpt"/. "$work/ckpt_prior"/
$PY -m training.context --data "$work/corpus" --ckpt "$work/ckpt_prior" --steps 50 --members "$work/ckpt" \
  >"$work/prior.log" 2>"$work/prior.err" || { tail -5 "$work/prior.err"; fail "training.context --members"; }
$PY -c "
import json; s = json.loads(open('$work/prior.log').read().strip().splitlines()[-1])
assert s['model'] == 'mlp' and s['steps'] == 50 and s['train_rows'] > 0, s
assert s['fused_with'].startswith('committee of'), s['fused_with']
print('  kind prior: val accuracy alone', round(s['prior_alone_val_accuracy'], 3), 'weight', s['weight'])" || fail "kind prior summary"

echo "30-training: shipped models/ vs their golden tensors"
node training/check_onnx.mjs models | tail -1 || fail "shipped models parity"
echo "30-training: ok"
