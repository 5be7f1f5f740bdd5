import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from training.model_card import rewrite_text_reader_section, text_reader_section  # noqa: E402


def _reader_json(tmp: Path) -> None:
    (tmp / "text_reader.json").write_text(
        json.dumps(
            {
                "command": "npm run --silent ocr-eval -- --count 3",
                "synthetic": {
                    "data": "test split, seed 1, 3 pairs",
                    "elements": 5,
                    "exact": 0.8,
                    "char_accuracy": 0.9,
                    "word_accuracy": 0.85,
                    "ms_per_region": 20.0,
                },
                "elements": {
                    "elements": 4,
                    "named": 2,
                    "precision": 1.0,
                    "per_name": {"button": {"given": 2, "precision": 1.0}},
                    "coverage": {"button": {"elements": 3, "named": 0.6667}},
                },
            }
        )
    )


def test_text_reader_section_quotes_the_measured_figures(tmp_path):
    _reader_json(tmp_path)
    text = "\n".join(text_reader_section(tmp_path))
    assert "5 elements, exact 0.800" in text
    assert "precision 1.000 (per name: button 1.00 of 2)" in text
    assert "button 0.67 of 3" in text


def test_rewrite_replaces_only_the_text_reader_section(tmp_path):
    _reader_json(tmp_path)
    (tmp_path / "MODEL_CARD.md").write_text(
        "# Card\n\n### Kind prior\n\nkept\n\n### Text reader (not trained here)\n\nold figures\n\n## Size and "
        "speed\n\nkept too\n"
    )
    assert rewrite_text_reader_section(tmp_path) == 0
    card = (tmp_path / "MODEL_CARD.md").read_text()
    assert "old figures" not in card
    assert "5 elements, exact 0.800" in card
    assert card.startswith("# Card\n\n### Kind prior\n\nkept\n\n### Text reader")
    assert card.endswith("## Size and speed\n\nkept too\n")


# --- the card as a whole: short, no diary, and what the generator writes --------------------------------

import shutil  # noqa: E402

import pytest  # noqa: E402

from training import model_card  # noqa: E402

REPO_MODELS = Path(__file__).resolve().parents[2] / "models"


def test_the_shipped_card_is_short_and_carries_no_history_labels():
    card = (REPO_MODELS / "MODEL_CARD.md").read_text()
    assert len(card.encode()) <= model_card.CARD_LIMIT_BYTES
    assert not model_card.HISTORY_LABEL.search(card), model_card.HISTORY_LABEL.findall(card)
    for heading in (
        "## Intended use",
        "## The models",
        "## Training data",
        model_card.TRAINING_HEADING,
        "## Metrics",
        "### Text reader",
        "## Size and speed",
        "## Limitations",
    ):
        assert heading in card, heading
    assert "## Notes" not in card


def test_the_generator_writes_the_shipped_card(tmp_path):
    # without --ckpt the training section is kept and everything else is written again from models/*.json:
    # the result must be the committed card, byte for byte (regenerate it when metrics or exports change)
    for f in REPO_MODELS.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    shutil.copy(REPO_MODELS / "MODEL_CARD.md", tmp_path / "MODEL_CARD.md")
    assert model_card.main(["--models", str(tmp_path)]) == 0
    assert (tmp_path / "MODEL_CARD.md").read_text() == (REPO_MODELS / "MODEL_CARD.md").read_text()


def _phase(steps, minutes, a=1.0, b=0.5, batch=64):
    return {
        "steps": steps,
        "steps_planned": steps * 2,
        "batch": batch,
        "minutes_cap": minutes,
        "train_seconds": minutes * 60,
        "probe_first": a,
        "probe_last": b,
    }


def _models(tmp: Path, members: list[str]) -> Path:
    models = tmp / "models"
    models.mkdir()
    kinds = {"move": {"count": 10, "accuracy": 0.8}, "text": {"count": 5, "accuracy": 0.6}}
    (models / "metrics.json").write_text(
        json.dumps(
            {
                "split": "test",
                "count": 12,
                "model_samples": 15,
                "nochange_pairs": 2,
                "beam_width": 3,
                "command": "python3 -m training.evaluate --data D --ckpt C --out m.json (then copied; as in "
                + "ses"
                + "sion 29)",
                "cider": 50.0,
                "cider_ceiling": 200.0,
                "bleu4": 0.2,
                "rougeL": 0.4,
                "kind_accuracy": 0.8,
                "kind_accuracy_head": 0.7,
                "nochange_recall": 1.0,
                "region_nochange_recall": 1.0,
                "per_kind_accuracy": kinds,
                "kind_confusion": {"text": {"font": 2}},
                "kind_accuracy_by_region": {
                    "one_change": {"count": 12, "accuracy": 0.9},
                    "several_changes": {"count": 3, "accuracy": 0.3},
                },
                "ablation": {
                    "k2": {"cider": 50.0, "kind_accuracy": 0.8, "nochange_recall": 1.0},
                    "static": {
                        "cider": 10.0,
                        "kind_accuracy": 0.5,
                        "nochange_recall": 1.0,
                        "training": {"steps": 9, "batch": 64, "train_seconds": 240},
                    },
                },
                "interpolator": {
                    "psnr": 40.0,
                    "crossfade_psnr": 39.0,
                    "samples": 8,
                    "per_kind": {"move": {"psnr": 30.0, "crossfade_psnr": 29.0}},
                },
            }
        )
    )
    (models / "export_info.json").write_text(
        json.dumps(
            {
                "checkpoint": "CKPT",
                "kind_members": members,
                "vocab_size": 40,
                "opset": 17,
                "contract_version": 6,
                "onnx_bytes": {"procedure_encoder.onnx": 2**20, "kind_members.onnx": 2**19},
                "onnx_total_mb": 1.5,
                "weights": {"stage2_k2": "finished"},
            }
        )
    )
    return models


def _ckpt(tmp: Path, name: str, argv0: str = "/x/training/train.py", rounds: int = 2) -> Path:
    ckpt = tmp / name
    ckpt.mkdir()
    (ckpt / "config.json").write_text(
        json.dumps({"argv": [argv0, "--all", "--out", str(ckpt)], "seed": 7, "threads": 2})
    )
    s2 = _phase(300, 10.0)
    s2["val"] = {"kind_acc": 0.5, "nochange_recall": 1.0, "exact_caption": 0.1}
    (ckpt / "summary.json").write_text(json.dumps({"tokenizer": _phase(100, 1.0, batch=24), "stage2_k2": s2}))
    (ckpt / "stage2_rounds_before.json").write_text(
        json.dumps({f"round{i + 1}": _phase(100 + i, 5.0) for i in range(rounds - 1)})
    )
    return ckpt


def test_a_training_record_writes_a_short_card_without_history_labels(tmp_path):
    member = _ckpt(tmp_path, "member", rounds=1)
    models = _models(tmp_path, [str(member)])
    ckpt = _ckpt(tmp_path, "ckpt", rounds=3)
    assert model_card.main(["--ckpt", str(ckpt), "--models", str(models)]) == 0
    card = (models / "MODEL_CARD.md").read_text()
    assert len(card.encode()) <= model_card.CARD_LIMIT_BYTES
    assert not model_card.HISTORY_LABEL.search(card)
    assert "ses" + "sion 29" not in card and "`python3 -m training.evaluate --data D --ckpt C --out m.json`" in card
    assert "### Kind committee" in card and "### Pair consistency" in card  # CI's smoke greps both
    assert "| stage2_k2, 3 warm-started runs | 501 (-) | 64 | 20.0 | 20.0 | 1.0000 -> 0.5000 |" in card
    assert "steps per run 100, 101, 300" in card
    assert "python3 -m training.train --all" in card and "/x/training/train.py" not in card
    assert "0.800 (12 of 15)" in card
    # folders outside the repository are named without their machine location (training/paths.py)
    assert "| member | `python3 -m training.train --all --out member` | 7 | 300 x 64, 10.0 |" in card
    assert str(tmp_path) not in card
    # written again without the checkpoint, the training section is kept as it was
    before = card
    assert model_card.main(["--models", str(models)]) == 0
    assert (models / "MODEL_CARD.md").read_text() == before


def test_a_run_that_continued_a_commit_names_it_and_its_data_commands(tmp_path):
    models = _models(tmp_path, [])
    ckpt = _ckpt(tmp_path, "ckpt", rounds=1)
    args = ["--ckpt", str(ckpt), "--models", str(models), "--base", "abc1234"]
    data = ["bash training/render_shard.sh corpus/train train 1 10 '' all"]
    assert model_card.main([*args, "--data-command", data[0]]) == 0
    card = (models / "MODEL_CARD.md").read_text()
    assert "started from the stage 2 shipped at commit abc1234" in card
    assert "`git show abc1234:models/MODEL_CARD.md`" in card
    assert "python3 -m training.recover --models ../base/models --out ckpt_rec\n" + data[0] + "\n" in card
    assert "python3 -m training.train --all --out ckpt\n```" in card
    assert "Stage 2: 300 steps" in card and "kind accuracy 0.500" in card
    assert str(tmp_path) not in card and len(card.encode()) <= model_card.CARD_LIMIT_BYTES


def test_a_recovered_checkpoint_keeps_the_training_section(tmp_path):
    models = _models(tmp_path, [])
    ckpt = _ckpt(tmp_path, "rec", argv0="/x/training/recover.py")
    (models / "MODEL_CARD.md").write_text(
        f"# Card\n\n{model_card.TRAINING_HEADING}\n\nkept as it was\n\n## Metrics\n\nold\n"
    )
    assert not model_card.has_training_record(ckpt)
    assert model_card.main(["--ckpt", str(ckpt), "--models", str(models)]) == 0
    card = (models / "MODEL_CARD.md").read_text()
    assert f"{model_card.TRAINING_HEADING}\n\nkept as it was\n" in card and "\nold\n" not in card


def test_no_record_and_no_card_is_an_error(tmp_path):
    models = _models(tmp_path, [])
    with pytest.raises(SystemExit):
        model_card.main(["--models", str(models)])


def test_a_history_label_in_a_source_stops_the_card(tmp_path):
    models = _models(tmp_path, [])
    ckpt = _ckpt(tmp_path, "ckpt")
    info = json.loads((models / "export_info.json").read_text())
    info["weights"] = {"stage2_k2": "rou" + "nd 5 of the chain"}
    (models / "export_info.json").write_text(json.dumps(info))
    with pytest.raises(SystemExit, match="history labels"):
        model_card.main(["--ckpt", str(ckpt), "--models", str(models)])
    assert not (models / "MODEL_CARD.md").exists()


def test_a_machine_path_in_a_source_stops_the_card(tmp_path):
    models = _models(tmp_path, [])
    ckpt = _ckpt(tmp_path, "ckpt")
    info = json.loads((models / "export_info.json").read_text())
    info["weights"] = {"stage2_k2": "finished in /scratch/run7/stage2_k2.pt"}
    (models / "export_info.json").write_text(json.dumps(info))
    with pytest.raises(SystemExit, match="machine paths"):
        model_card.main(["--ckpt", str(ckpt), "--models", str(models)])
    assert not (models / "MODEL_CARD.md").exists()


def _frames_json(tmp: Path) -> None:
    def iv(m, lo, hi):
        return {"mean": m, "lo": lo, "hi": hi}

    def method(p, s, diff=None, beats=None):
        out = {"regions": 4, "psnr": iv(p, p - 1, p + 1), "ssim": iv(s, s - 0.01, s + 0.01)}
        if diff is not None:
            out |= {
                "psnr_minus_crossfade": iv(diff, diff - 0.5, diff + 0.5),
                "ssim_minus_crossfade": iv(0.01, 0.0, 0.02),
            }
            out["beats_crossfade"] = beats
        return out

    kinds = {
        k: {
            "pairs": 4,
            "runtime_96": method(25.0, 0.9, d, d > 0.5) | {"psnr_minus_crossfade_96": iv(0.4, 0.1, 0.7)},
            "crossfade": method(25.0 - d, 0.89),
            "warp": method(20.0, 0.8, -5.0, False),
        }
        for k, d in (("move", 1.5), ("add", -0.2), ("all", 0.6))
    }
    (tmp / "procedure_frames.json").write_text(
        json.dumps(
            {
                "command": "npm run --silent frames-eval -- --seed 4242 --count 9",
                "split": "test",
                "pairs_scored": 9,
                "regions": 12,
                "per_kind": kinds,
            }
        )
    )


def test_procedure_frames_section_quotes_the_figures_and_says_where_the_frames_win(tmp_path):
    assert model_card.procedure_frames_section(tmp_path) == []
    _frames_json(tmp_path)
    text = "\n".join(model_card.procedure_frames_section(tmp_path))
    assert "`npm run --silent frames-eval -- --seed 4242 --count 9`: 9 single-change test pairs, 12 regions" in text
    assert "| move | 4 | 25.0 / 0.900 | 23.5 / 0.890 | 20.0 / 0.800 | +1.50 [+1.00, +2.00] / +0.010 |" in text
    assert "beyond the interval on move, all." not in text
    assert "beyond the interval on move." in text
    assert "minus a cross-fade of their own 96 px ends: +0.40 dB [+0.10, +0.70]" in text


def test_full_frames_are_shown_beside_the_cross_fade_and_warp_over_their_own_box(tmp_path):
    _frames_json(tmp_path)
    record = json.loads((tmp_path / "procedure_frames.json").read_text())
    for v in record["per_kind"].values():
        v["runtime_full"] = v["runtime_96"] | {"psnr": {"mean": 30.0, "lo": 29.0, "hi": 31.0}}
        v["crossfade_full"] = v["crossfade"]
        v["warp_full"] = v["warp"]
    (tmp_path / "procedure_frames.json").write_text(json.dumps(record))
    text = "\n".join(model_card.procedure_frames_section(tmp_path))
    assert "| kind | n | runtime_full | crossfade_full | warp_full | minus cross-fade |" in text
    assert "| move | 4 | 30.0 / 0.900 | 23.5 / 0.890 | 20.0 / 0.800 | +1.50 [+1.00, +2.00] / +0.010 |" in text
    assert "over the full frames' box" in text and "`runtime_full` beats the cross-fade" in text
