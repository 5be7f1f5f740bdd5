"""A tiny synthetic corpus in the crops format, drawn with NumPy: coloured boxes on flat backgrounds that
move, change colour, resize, appear, disappear, or stay the same. Used by the unit tests and by the
smoke run when the browser data engine is not available; never for the shipped models.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from .config import IMAGE_SIZE

COLOURS = {
    "red": (220, 40, 40),
    "blue": (40, 80, 220),
    "green": (40, 170, 70),
    "grey": (128, 128, 128),
    "orange": (240, 140, 20),
    "purple": (140, 60, 190),
}
ROLES = ["button", "badge", "card", "icon"]
KINDS_DRAWN = ["none", "move", "color", "resize", "add", "remove"]


def _draw(bg, box, colour):
    img = np.empty((IMAGE_SIZE, IMAGE_SIZE, 3), np.uint8)
    img[:] = bg
    if box is not None:
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        img[y0:y1, x0:x1] = colour
    return img


def _lerp(a, b, t):
    return tuple(float(x) + (float(y) - float(x)) * t for x, y in zip(a, b, strict=True))


def make_split(out_dir: Path, count: int, seed: int) -> None:
    """Writes out_dir/{manifest.jsonl, crops.jsonl, crops.pairs.npy, crops.frames.npy}; one sample per pair."""
    rng = np.random.default_rng(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    pairs, frames, crops, manifest = [], [], [], []
    for i in range(count):
        kind = KINDS_DRAWN[i % len(KINDS_DRAWN)]
        role = ROLES[int(rng.integers(len(ROLES)))]
        names = list(COLOURS)
        cname = names[int(rng.integers(len(names)))]
        bg = (245, 245, 245) if rng.random() < 0.5 else (30, 30, 35)
        w, h = int(rng.integers(20, 40)), int(rng.integers(14, 30))
        x, y = int(rng.integers(4, IMAGE_SIZE - w - 30)), int(rng.integers(4, IMAGE_SIZE - h - 30))
        box_a = box_b = (x, y, x + w, y + h)
        col_a = col_b = COLOURS[cname]
        if kind == "move":
            dx, dy = int(rng.integers(8, 26)), int(rng.integers(8, 26))
            box_b = (x + dx, y + dy, x + w + dx, y + h + dy)
            caps = [
                f"the {cname} {role} moved down and right",
                f"{cname} {role} shifted to the lower right",
                f"the {role} in {cname} moved down right",
            ]
        elif kind == "color":
            other = names[(names.index(cname) + 1 + int(rng.integers(len(names) - 1))) % len(names)]
            col_b = COLOURS[other]
            caps = [
                f"the {role} changed from {cname} to {other}",
                f"the {cname} {role} turned {other}",
                f"{role} colour changed from {cname} to {other}",
            ]
        elif kind == "resize":
            box_b = (x, y, x + w + 20, y + h + 12)
            caps = [f"the {cname} {role} got bigger", f"the {cname} {role} grew", f"{cname} {role} was enlarged"]
        elif kind == "add":
            box_a = None
            caps = [f"a {cname} {role} was added", f"a new {cname} {role} appeared", f"{cname} {role} added"]
        elif kind == "remove":
            box_b = None
            caps = [f"the {cname} {role} was removed", f"the {cname} {role} disappeared", f"{cname} {role} removed"]
        else:
            caps = ["no visible change", "nothing changed", "the two screenshots look the same"]
        before, after = _draw(bg, box_a, col_a), _draw(bg, box_b, col_b)
        if kind == "none" and rng.random() < 0.5:  # sub-pixel noise
            after = np.clip(after.astype(int) + rng.integers(-2, 3, after.shape), 0, 255).astype(np.uint8)
        frames_index = -1
        if kind in ("move", "color", "resize"):
            seq = [_draw(bg, _lerp(box_a, box_b, t / 8), _lerp(col_a, col_b, t / 8)) for t in range(1, 8)]
            frames_index = len(frames)
            frames.append(np.stack(seq))
        pair_id = f"syn-{seed}-{i:05d}"
        pairs.append(np.stack([before, after]))
        crops.append(
            {
                "index": i,
                "pair_id": pair_id,
                "region_index": 0,
                "box": [0, 0, IMAGE_SIZE, IMAGE_SIZE],
                "crop_box": [0, 0, IMAGE_SIZE, IMAGE_SIZE],
                "kind": kind,
                "captions": caps,
                "matched_changes": [] if kind == "none" else [0],
                "has_frames": frames_index >= 0,
                "frames_index": frames_index,
                "whole_screen": False,
            }
        )
        manifest.append(
            {
                "id": pair_id,
                "split": out_dir.name,
                "captions": caps,
                "region_captions": [caps],
                "changes": [{"kind": kind}],
            }
        )
    np.save(out_dir / "crops.pairs.npy", np.stack(pairs))
    np.save(
        out_dir / "crops.frames.npy",
        np.stack(frames) if frames else np.zeros((0, 7, IMAGE_SIZE, IMAGE_SIZE, 3), np.uint8),
    )
    (out_dir / "crops.jsonl").write_text("".join(json.dumps(c) + "\n" for c in crops))
    (out_dir / "manifest.jsonl").write_text("".join(json.dumps(m) + "\n" for m in manifest))


def make_corpus(root: Path, train: int = 240, val: int = 60, test: int = 60, seed: int = 7) -> Path:
    for offset, (split, n) in enumerate((("train", train), ("val", val), ("test", test))):
        make_split(Path(root) / split, n, seed * 10 + offset)
    return Path(root)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--train", type=int, default=240)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    make_corpus(Path(a.out), a.train, max(30, a.train // 4), max(30, a.train // 4), a.seed)
