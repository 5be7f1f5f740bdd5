"""Corpus access: the crops written by `npm run crops` (format: docs/CROPS_FORMAT.md) and the data
engine's manifest (docs/DATA_FORMAT.md), plus the caption vocabulary.

Layout expected under --data DIR, one folder per split:
  DIR/<split>/manifest.jsonl            pairs (data engine)
  DIR/<split>/crops.jsonl               one line per model sample (crops CLI)
  DIR/<split>/crops.pairs.npy           uint8 [N,2,96,96,3] before, after
  DIR/<split>/crops.frames.npy          uint8 [M,7,96,96,3] true intermediate frames (rows by frames_index)
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from .config import BOS, CONTEXT_SIZE, EOS, IMAGE_SIZE, KINDS, MAX_TOKENS, N_INTERMEDIATE, PAD, SPECIALS, UNK

MAX_WORDS = MAX_TOKENS - 2


class DataError(Exception):
    """Bad or missing corpus input; the message names the file."""


def words(caption: str) -> list[str]:
    return caption.lower().split()


def read_jsonl(path: Path) -> list[dict]:
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    rows = []
    with path.open() as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as err:
                    raise DataError(f"{path}:{n}: not valid JSON ({err})") from None
    return rows


def load_npy(path: Path, expect_tail: tuple[int, ...]) -> np.ndarray:
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    try:
        arr = np.load(path, mmap_mode="r")
    except (ValueError, OSError) as err:
        raise DataError(f"{path}: not a readable .npy array ({err})") from None
    if arr.dtype != np.uint8 or tuple(arr.shape[1:]) != expect_tail:
        raise DataError(
            f"{path}: expected uint8 [N,{','.join(map(str, expect_tail))}], got {arr.dtype} {list(arr.shape)}"
        )
    return arr


class Vocab:
    def __init__(self, tokens: list[str]) -> None:
        for name, idx in SPECIALS.items():
            if idx >= len(tokens) or tokens[idx] != name:
                raise ValueError(f"vocabulary must start with the contract's special tokens; {name} is not at {idx}")
        self.tokens = tokens
        self.index = {t: i for i, t in enumerate(tokens)}

    def __len__(self) -> int:
        return len(self.tokens)

    @classmethod
    def build(cls, captions: list[str], min_count: int = 1) -> Vocab:
        counts = Counter(w for c in captions for w in words(c))
        ordered = sorted(
            (w for w, n in counts.items() if n >= min_count and w not in SPECIALS), key=lambda w: (-counts[w], w)
        )
        specials = sorted(SPECIALS, key=SPECIALS.get)
        return cls(specials + ordered)

    def encode(self, caption: str) -> list[int]:
        """<bos> words (at most MAX_WORDS) <eos>, padded with <pad> to MAX_TOKENS."""
        ids = [BOS] + [self.index.get(w, UNK) for w in words(caption)[:MAX_WORDS]] + [EOS]
        return ids + [PAD] * (MAX_TOKENS - len(ids))

    def decode(self, ids: list[int]) -> str:
        out = []
        for i in ids:
            if i == EOS:
                break
            if i not in (PAD, BOS):
                out.append(self.tokens[i] if 0 <= i < len(self.tokens) else "<unk>")
        return " ".join(out)

    def save(self, path: Path) -> None:
        path.write_text(
            json.dumps({"tokens": self.tokens, "special_tokens": SPECIALS, "max_caption_tokens": MAX_TOKENS}, indent=0)
            + "\n"
        )

    @classmethod
    def load(cls, path: Path) -> Vocab:
        try:
            return cls(json.loads(Path(path).read_text())["tokens"])
        except (OSError, KeyError, json.JSONDecodeError) as err:
            raise DataError(f"{path}: cannot read the vocabulary ({err})") from None


@dataclass
class Sample:
    index: int
    pair_id: str
    region_index: int
    kind: int
    captions: list[str]
    frames_row: int  # row in frames.npy or -1
    whole_screen: bool
    shard: int = 0  # which folder of the set (0 = split_dir, then the extra folders in order)
    row: int = 0  # line of crops.jsonl (and row of crops.context.npy) in its folder


class CropSet:
    """One split's crops: samples (metadata) + memory-mapped uint8 images."""

    def __init__(
        self,
        split_dir: Path,
        limit_pairs: int | None = None,
        skip_sources: tuple[str, ...] = (),
        extra_dirs: tuple[Path, ...] = (),
    ) -> None:
        """skip_sources: crop sources left out (training leaves out "unmatched": differences that no
        change record explains have no trustworthy label). extra_dirs: more folders of the same layout
        whose samples are appended (a second rendered shard of the training split); limit_pairs applies
        to split_dir only."""
        split_dir = Path(split_dir)
        self.dir = split_dir
        self.dirs = [split_dir, *(Path(d) for d in extra_dirs)]
        self.samples: list[Sample] = []
        self._pairs: list[np.ndarray] = []
        self._frames: list[np.ndarray | None] = []
        self._contexts: list[np.ndarray | None] = []
        for shard, folder in enumerate(self.dirs):
            self._load_shard(folder, shard, limit_pairs if shard == 0 else None, skip_sources)
        self.pairs = self._pairs[0]
        self.frames = self._frames[0]

    def _load_shard(self, split_dir: Path, shard: int, limit_pairs: int | None, skip_sources: tuple[str, ...]) -> None:
        rows = read_jsonl(split_dir / "crops.jsonl")
        pairs = load_npy(split_dir / "crops.pairs.npy", (2, IMAGE_SIZE, IMAGE_SIZE, 3))
        frames_path = split_dir / "crops.frames.npy"
        frames = load_npy(frames_path, (N_INTERMEDIATE, IMAGE_SIZE, IMAGE_SIZE, 3)) if frames_path.is_file() else None
        self._pairs.append(pairs)
        self._frames.append(frames)
        context_path = split_dir / "crops.context.npy"
        context = np.load(context_path, mmap_mode="r") if context_path.is_file() else None
        if context is not None and context.shape != (len(rows), CONTEXT_SIZE):
            raise DataError(
                f"{context_path}: shape {context.shape}, expected ({len(rows)}, {CONTEXT_SIZE}): made for "
                f"another crops file or feature list; run npm run context again with --force"
            )
        self._contexts.append(context)
        keep_pairs: set[str] | None = None
        if limit_pairs is not None:
            keep_pairs = set(list(dict.fromkeys(str(r["pair_id"]) for r in rows))[:limit_pairs])
        for n, r in enumerate(rows):
            where = f"{split_dir / 'crops.jsonl'}:{n + 1}"
            try:
                kind = KINDS.index(r["kind"])
            except (KeyError, ValueError):
                raise DataError(f"{where}: kind {r.get('kind')!r} is not one of the contract kinds") from None
            if keep_pairs is not None and str(r["pair_id"]) not in keep_pairs:
                continue
            if r.get("source") in skip_sources:
                continue
            idx = int(r["index"])
            if not 0 <= idx < pairs.shape[0]:
                raise DataError(f"{where}: index {idx} outside crops.pairs.npy ({pairs.shape[0]} rows)")
            row = int(r.get("frames_index", -1)) if r.get("has_frames") else -1
            if row >= 0 and (frames is None or row >= frames.shape[0]):
                raise DataError(f"{where}: frames_index {row} outside crops.frames.npy")
            caps = [c for c in r.get("captions", []) if isinstance(c, str) and c.strip()]
            if not caps:
                raise DataError(f"{where}: sample has no reference captions")
            self.samples.append(
                Sample(
                    idx,
                    str(r["pair_id"]),
                    int(r.get("region_index", 0)),
                    kind,
                    caps,
                    row,
                    bool(r.get("whole_screen", False)),
                    shard,
                    n,
                )
            )

    def __len__(self) -> int:
        return len(self.samples)

    def images(self, i: int) -> np.ndarray:
        """[2,96,96,3] uint8 before/after of sample i."""
        s = self.samples[i]
        return np.asarray(self._pairs[s.shard][s.index])

    def image_tensor(self, indices) -> torch.Tensor:
        """float [n,2,3,96,96] in [0,1]: before/after crops of the given samples."""
        return to_tensor(np.stack([self.images(int(i)) for i in indices]))

    def context_tensor(self, indices) -> torch.Tensor:
        """float [n,55]: the layout-context features (crops.context.npy) of the given samples."""
        out = np.zeros((len(indices), CONTEXT_SIZE), dtype=np.float32)
        for j, i in enumerate(indices):
            s = self.samples[int(i)]
            context = self._contexts[s.shard]
            if context is None:
                crops = self.dirs[s.shard] / "crops.jsonl"
                raise DataError(
                    f"{self.dirs[s.shard] / 'crops.context.npy'} missing: run "
                    f"`npm run --silent context -- --crops {crops}`"
                )
            out[j] = context[s.row]
        return torch.from_numpy(out)

    def true_frames(self, i: int) -> np.ndarray | None:
        s = self.samples[i]
        return None if s.frames_row < 0 else np.asarray(self._frames[s.shard][s.frames_row])

    def manifest(self) -> dict[str, dict]:
        """pair id -> manifest line (for pair-level references)."""
        return {str(r["id"]): r for d in self.dirs for r in read_jsonl(d / "manifest.jsonl")}


def to_tensor(images: np.ndarray) -> torch.Tensor:
    """uint8 [...,H,W,3] -> float32 [...,3,H,W] in [0,1]."""
    t = torch.from_numpy(np.ascontiguousarray(images)).float().div_(255.0)
    return t.movedim(-1, -3)
