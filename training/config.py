"""Configuration of the whole pipeline, in one place.

Sizes that the TypeScript runtime relies on come from models/contract.json (read, never duplicated);
everything else (widths, step counts, learning rates) is a training choice and lives here.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
MODELS_DIR = REPO_ROOT / "models"
CONTRACT_PATH = MODELS_DIR / "contract.json"


def load_contract(path: Path = CONTRACT_PATH) -> dict:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise SystemExit(f"cannot read the ONNX contract {path}: {err}") from err


CONTRACT = load_contract()
IMAGE_SIZE: int = CONTRACT["image"]["size"]  # 96
PATCH: int = CONTRACT["patch"]  # 16
GRID: int = CONTRACT["grid"]  # 6
N_I: int = CONTRACT["n_I"]  # 36 patches per frame
FEAT_DIM: int = CONTRACT["feat_dim"]  # 64, backbone feature width
CODEBOOK: int = CONTRACT["codebook_size"]  # 256
K: int = CONTRACT["k"]  # 2 procedure queries sets / keyframes
D_MODEL: int = CONTRACT["d_model"]  # 128
DECODER_LAYERS: int = CONTRACT["decoder_layers"]  # 2
MAX_TOKENS: int = CONTRACT["max_caption_tokens"]  # 24 = <bos> + at most 22 words + <eos>
N_INTERMEDIATE: int = CONTRACT["n_intermediate"]  # 7
KINDS: list[str] = CONTRACT["kinds"]
SPECIALS: dict[str, int] = CONTRACT["special_tokens"]
PAD, BOS, EOS, UNK = SPECIALS["<pad>"], SPECIALS["<bos>"], SPECIALS["<eos>"], SPECIALS["<unk>"]
NONE_KIND = KINDS.index("none")
NO_CHANGE_CAPTION = "no visible change"
# change kinds whose procedure moves nothing (a blend of two looks): the interpolator's crop gate must
# give the cross-fade there
STILL_KINDS = ("color", "opacity", "theme")
DEFAULT_BEAM_WIDTH: int = CONTRACT["default_beam_width"]
CONTEXT_SIZE: int = len(CONTRACT["context_features"])  # 55 layout numbers per sample (src/core/context.ts)
OPSET = 17

assert IMAGE_SIZE == PATCH * GRID and N_I == GRID * GRID, "contract sizes are inconsistent"


@dataclass
class PhaseBudget:
    steps: int
    batch: int
    lr: float
    warmup: int = 100
    # optional wall-clock cap: the phase ends after this many minutes of training even if steps remain,
    # and its learning-rate schedule runs on max(step fraction, time fraction) so it still anneals
    # (the machine is shared: steps per minute are not predictable). 0 = no cap.
    minutes: float = 0.0


@dataclass
class TrainConfig:
    seed: int = 1234
    # image tokenizer (VQ autoencoder; its encoder is the frozen backbone)
    tokenizer: PhaseBudget = field(default_factory=lambda: PhaseBudget(steps=200, batch=24, lr=2e-3, warmup=20))
    # frame interpolator (flow + mask + residual)
    interpolator: PhaseBudget = field(default_factory=lambda: PhaseBudget(steps=300, batch=16, lr=2e-3, warmup=25))
    # then its crop gate alone, on the frozen network (fitted to what warping gains over the cross-fade)
    interpolator_gate: PhaseBudget = field(default_factory=lambda: PhaseBudget(steps=300, batch=32, lr=2e-3, warmup=20))
    # stage 1: explicit procedure modelling
    stage1: PhaseBudget = field(default_factory=lambda: PhaseBudget(steps=80, batch=64, lr=1e-3, warmup=15))
    # stage 2: implicit procedure captioning (lr 1e-3 with warm-up, batch 64: what worked in toolchain.md)
    stage2: PhaseBudget = field(default_factory=lambda: PhaseBudget(steps=450, batch=64, lr=1e-3, warmup=50))
    encoder_layers: int = 3
    heads: int = 4
    ffn: int = 384
    dropout: float = 0.1
    label_smoothing: float = 0.1
    # loss weights (stage 1 follows the reference: 7 msm + 0.5 align + 0.5 csy)
    w_msm: float = 7.0
    w_align: float = 0.5
    w_csy: float = 0.5
    # stage 2: captioning + auxiliary change-kind head + msm at the query positions (keeps imagined frames usable)
    w_kind: float = 1.0
    w_query_msm: float = 0.3
    val_every: int = 250
    val_samples: int = 400
    checkpoint_every: int = 50
    max_stage1_samples: int = 3000  # explicit procedures (with interpolated frames) are built for at most this many
    threads: int = 2
    tokenizer_vq_minutes: float = 0.0
    stage2_init: str = ""
    # stage 2: shift half of each batch's crop pairs by up to this many pixels (the same shift for
    # before and after, so every label still holds) and re-encode their features; 0 = off
    augment_shift: int = 0
    # layout kind prior (training/context.py): full-batch steps
    kind_prior_steps: int = 1500

    def to_json(self) -> dict:
        return asdict(self)


def smoke_config(seed: int = 1234) -> TrainConfig:
    """A few steps of everything: proves that the pipeline runs, losses fall and the exports load."""
    return TrainConfig(
        seed=seed,
        tokenizer=PhaseBudget(steps=40, batch=16, lr=3e-3, warmup=5),
        interpolator=PhaseBudget(steps=24, batch=8, lr=3e-3, warmup=4),
        interpolator_gate=PhaseBudget(steps=12, batch=8, lr=3e-3, warmup=2),
        stage1=PhaseBudget(steps=24, batch=16, lr=1e-3, warmup=4),
        stage2=PhaseBudget(steps=40, batch=16, lr=2e-3, warmup=5),
        val_every=20,
        val_samples=48,
        checkpoint_every=20,
        max_stage1_samples=200,
        kind_prior_steps=60,
    )


# The from-scratch recipe, "one command trains everything in at most 3 hours" (`--full`):
# the phase budgets of the shipped rounds (models/MODEL_CARD.md) under wall-clock caps which, with the
# parts that have no cap (measured on the 2-core machine with nine train shards, ~150k samples),
# add up to under 180 minutes.
FULL_STEPS = {"tokenizer": 2000, "interpolator": 3000, "interpolator_gate": 1500, "stage1": 1500, "stage2": 20000}
FULL_MINUTES = {
    "tokenizer": 6.0,
    "tokenizer_vq": 2.0,
    "interpolator": 25.0,
    "interpolator_gate": 5.0,
    "stage1": 6.0,
    "stage2": 105.0,
}
UNCAPPED_MINUTES = {
    "vocabulary and feature caches": 5.0,
    "kind prior (1500 full-batch steps)": 17.0,
    "validation passes": 3.0,
}
FULL_BUDGET_MINUTES = 180.0


def full_config(seed: int = 1234) -> TrainConfig:
    """The whole pipeline from scratch in under FULL_BUDGET_MINUTES (stage 2 with shift augmentation)."""
    cfg = with_steps(TrainConfig(seed=seed, augment_shift=8), **FULL_STEPS)
    return with_minutes(cfg, **FULL_MINUTES)


# the TrainConfig fields that are a phase's budget (what --steps, --minutes, --batch and --lr name)
PHASES: tuple[str, ...] = tuple(
    name for name, value in asdict(TrainConfig()).items() if isinstance(value, dict) and "steps" in value
)


def with_budget(cfg: TrainConfig, budget_field: str, **phase_values) -> TrainConfig:
    """Copy of cfg with one PhaseBudget field (steps, batch, lr, minutes) replaced in some phases."""
    out = replace(cfg)
    for phase, value in phase_values.items():
        setattr(out, phase, replace(getattr(out, phase), **{budget_field: value}))
    return out


def with_steps(cfg: TrainConfig, **phase_steps: int) -> TrainConfig:
    """Copy of cfg with some phases' step counts replaced (used for the reduced ablation runs)."""
    return with_budget(cfg, "steps", **phase_steps)


def with_minutes(cfg: TrainConfig, **phase_minutes: float) -> TrainConfig:
    """Copy of cfg with wall-clock caps on some phases (tokenizer_vq caps the codebook fine-tune)."""
    vq = phase_minutes.pop("tokenizer_vq", None)
    out = with_budget(cfg, "minutes", **phase_minutes)
    if vq is not None:
        out.tokenizer_vq_minutes = vq
    return out
