"""Paths recorded in models/ name scratch folders without their machine location (training/paths.py)."""

from __future__ import annotations

import json
from pathlib import Path

from training.config import MODELS_DIR, REPO_ROOT
from training.paths import MACHINE_PATH, portable_command, portable_path, recorded_path


def test_portable_path_inside_the_repository_beside_it_and_elsewhere():
    assert portable_path(REPO_ROOT / "models" / "metrics.json") == "models/metrics.json"
    assert portable_path(REPO_ROOT) == "."
    assert portable_path(REPO_ROOT.parent / "ckpt21") == "ckpt21"
    assert portable_path(REPO_ROOT.parent / "corpus21" / "train_s12") == "corpus21/train_s12"
    assert portable_path("/nowhere-like-this/run.1/ckpt") == "ckpt"


def test_portable_command_rewrites_only_absolute_path_arguments():
    scratch = REPO_ROOT.parent
    argv = ["--data", f"{scratch}/corpus9", f"--out={scratch}/s31/m.json", "--split", "test", "/usr/bin/python3"]
    assert portable_command(argv) == "--data corpus9 --out=s31/m.json --split test /usr/bin/python3"
    assert portable_command(f"--ckpt {scratch}/rec21 (then copied)") == "--ckpt rec21 (then copied)"


def test_recorded_path_finds_a_portable_name_again():
    assert recorded_path("models") == REPO_ROOT / "models"
    assert recorded_path("ckpt21") == REPO_ROOT.parent / "ckpt21"
    assert recorded_path("/abs/x") == Path("/abs/x")


def test_machine_path_pattern():
    assert MACHINE_PATH.findall("trained in /scratch/ckpt21 and `--out=/data/x/y`") == ["/scratch/ckpt21", "/data/x/y"]
    assert MACHINE_PATH.findall("`/usr/bin/python3`, models/CONTRACT.md, ../shared/realpairs, 1/2, a / b") == []


def test_the_shipped_records_carry_no_machine_path():
    for name in ("export_info.json", "metrics.json", "MODEL_CARD.md"):
        text = (MODELS_DIR / name).read_text()
        assert MACHINE_PATH.findall(text) == [], name
    # and the recorded checkpoints are portable names, not absolute paths
    info = json.loads((MODELS_DIR / "export_info.json").read_text())
    assert not any(p.startswith("/") for p in [info["checkpoint"], *info["kind_members"]])
