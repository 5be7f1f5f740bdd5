"""Paths as the repository records them. Checkpoints and corpora live in scratch folders outside the
work tree, at a place that differs by machine; what lands in models/ (export_info.json, metrics.json,
MODEL_CARD.md) names them without that place, so the shipped files carry no machine path:

- a path inside the repository: relative to it (`models/metrics.json`);
- a path inside the folder that holds the checkout (scratch folders kept beside it): relative to that
  folder (`ckpt21`, `corpus21/train_s12`);
- anything else: its last component (`ckpt`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .config import REPO_ROOT

# an absolute path in free text: a slash that starts a path (not one inside `a/b` or `../x`), followed by
# at least one folder; system paths (/usr/...) name no machine-specific place and are left alone
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?!usr/)[\w.+-]+/[\w./+-]*")


def portable_path(path: str | os.PathLike) -> str:
    """`path` without its machine-specific location (the rule in the module docstring)."""
    p = Path(os.path.abspath(os.fspath(path)))
    # the checkout's parent counts only when it is a folder of its own, not the filesystem's root
    bases = [REPO_ROOT] + ([REPO_ROOT.parent] if REPO_ROOT.parent != REPO_ROOT.parent.parent else [])
    for base in bases:
        try:
            rel = p.relative_to(base)
        except ValueError:
            continue
        return rel.as_posix() or "."
    return p.name


def _portable_arg(arg: str) -> str:
    """One command-line word: an absolute path (alone or as `--opt=/path`) made portable."""
    key, eq, value = arg.partition("=") if arg.startswith("--") else ("", "", arg)
    if value.startswith("/") and not value.startswith("/usr/"):
        return f"{key}{eq}{portable_path(value)}"
    return arg


def portable_command(argv: list[str] | str) -> str:
    """A recorded command (argv list or text) with every absolute path argument made portable."""
    words = argv.split(" ") if isinstance(argv, str) else [str(a) for a in argv]
    return " ".join(_portable_arg(w) for w in words)


def recorded_path(name: str) -> Path:
    """Where a recorded (portable) path is on this machine: as given when absolute, else inside the
    repository when there, else beside the checkout."""
    p = Path(name)
    if p.is_absolute() or (REPO_ROOT / p).exists():
        return p if p.is_absolute() else REPO_ROOT / p
    return REPO_ROOT.parent / p
