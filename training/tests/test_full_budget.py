"""The from-scratch recipe (--full) fits the 3-hour budget: every phase is capped, and the caps
plus the measured uncapped parts stay under it."""

from training import config as C
from training.train import main


def test_full_recipe_caps_every_phase_within_three_hours():
    cfg = C.full_config(7)
    assert cfg.seed == 7 and cfg.augment_shift == 8
    for phase in C.PHASES:
        assert getattr(cfg, phase).minutes > 0, f"{phase} has no wall-clock cap"
        assert getattr(cfg, phase).steps == C.FULL_STEPS.get(phase, getattr(C.TrainConfig(), phase).steps)
    assert cfg.tokenizer_vq_minutes > 0
    total = sum(C.FULL_MINUTES.values()) + sum(C.UNCAPPED_MINUTES.values())
    assert total <= C.FULL_BUDGET_MINUTES, f"{total} min planned"


def test_smoke_and_full_together_are_refused(tmp_path, capsys):
    assert main(["--data", str(tmp_path), "--out", str(tmp_path / "ckpt"), "--smoke", "--full"]) == 2
    assert "--smoke and --full" in capsys.readouterr().err
