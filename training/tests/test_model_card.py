import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from training.model_card import rewrite_text_reader_section, text_reader_section  # noqa: E402


def _reader_json(tmp: Path) -> None:
    (tmp / "text_reader.json").write_text(json.dumps({
        "command": "npm run --silent ocr-eval -- --count 3",
        "synthetic": {"data": "test split, seed 1, 3 pairs", "elements": 5, "exact": 0.8, "char_accuracy": 0.9,
                      "word_accuracy": 0.85, "ms_per_region": 20.0},
        "elements": {"elements": 4, "named": 2, "precision": 1.0, "per_name": {"button": {"given": 2, "precision": 1.0}},
                     "coverage": {"button": {"elements": 3, "named": 0.6667}}},
    }))


def test_text_reader_section_quotes_the_measured_figures(tmp_path):
    _reader_json(tmp_path)
    text = "\n".join(text_reader_section(tmp_path))
    assert "5 elements, exact 0.800" in text
    assert "precision 1.000 (per name: button 1.00 of 2)" in text
    assert "button 0.67 of 3" in text


def test_rewrite_replaces_only_the_text_reader_section(tmp_path):
    _reader_json(tmp_path)
    (tmp_path / "MODEL_CARD.md").write_text("# Card\n\n### Kind prior\n\nkept\n\n### Text reader (not trained here)\n\nold figures\n\n## Size and speed\n\nkept too\n")
    assert rewrite_text_reader_section(tmp_path) == 0
    card = (tmp_path / "MODEL_CARD.md").read_text()
    assert "old figures" not in card
    assert "5 elements, exact 0.800" in card
    assert card.startswith("# Card\n\n### Kind prior\n\nkept\n\n### Text reader")
    assert card.endswith("## Size and speed\n\nkept too\n")
