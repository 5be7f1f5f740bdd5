"""Corpus helpers: merge crops files made in parts (the crops CLI run on pieces of a manifest while
the data engine is still rendering the rest) into one crops set.

  /usr/bin/python3 -m training.corpus merge --out DIR/crops DIR/partA DIR/partB ...
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from .config import IMAGE_SIZE, N_INTERMEDIATE
from .data import DataError, load_npy, read_jsonl


def merge(prefixes: list[Path], out: Path) -> dict:
    rows_all, pair_parts, frame_parts = [], [], []
    n_pairs = n_frames = 0
    for p in prefixes:
        rows = read_jsonl(Path(f"{p}.jsonl"))
        pairs = load_npy(Path(f"{p}.pairs.npy"), (2, IMAGE_SIZE, IMAGE_SIZE, 3))
        fpath = Path(f"{p}.frames.npy")
        frames = load_npy(fpath, (N_INTERMEDIATE, IMAGE_SIZE, IMAGE_SIZE, 3)) if fpath.is_file() else None
        for r in rows:
            r = dict(r)
            r["index"] = int(r["index"]) + n_pairs
            if r.get("has_frames") and int(r.get("frames_index", -1)) >= 0:
                r["frames_index"] = int(r["frames_index"]) + n_frames
            rows_all.append(r)
        pair_parts.append(pairs)
        n_pairs += pairs.shape[0]
        if frames is not None:
            frame_parts.append(frames)
            n_frames += frames.shape[0]
    out.parent.mkdir(parents=True, exist_ok=True)
    for name, parts, total, tail in (
        ("pairs", pair_parts, n_pairs, (2, IMAGE_SIZE, IMAGE_SIZE, 3)),
        ("frames", frame_parts, n_frames, (N_INTERMEDIATE, IMAGE_SIZE, IMAGE_SIZE, 3)),
    ):
        dst = np.lib.format.open_memmap(f"{out}.{name}.npy.tmp", mode="w+", dtype=np.uint8, shape=(total, *tail))
        at = 0
        for part in parts:
            for lo in range(0, part.shape[0], 2000):
                chunk = np.asarray(part[lo : lo + 2000])
                dst[at : at + chunk.shape[0]] = chunk
                at += chunk.shape[0]
        dst.flush()
        del dst
        Path(f"{out}.{name}.npy.tmp").rename(f"{out}.{name}.npy")
    Path(f"{out}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows_all))
    return {"samples": len(rows_all), "pairs_rows": n_pairs, "frames_rows": n_frames}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("merge")
    m.add_argument("--out", required=True)
    m.add_argument("parts", nargs="+")
    a = ap.parse_args(argv)
    try:
        print(json.dumps(merge([Path(p) for p in a.parts], Path(a.out))))
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
