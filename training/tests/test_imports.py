"""training/ has no import cycle: every module's relative imports form a DAG (checkpoint loading lives
in training/checkpoint.py, so export, evaluation, the committee, the kind prior and the fine-tunes do
not import one another late, inside functions, to break a circle)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def relative_imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ROOT.glob("*.py"):
        deps = set()
        for line in path.read_text().splitlines():
            m = re.match(r"\s*from \.(\w+) import", line) or re.match(r"\s*from \. import (\w+)", line)
            if m:
                deps.add(m.group(1))
        graph[path.stem] = deps
    return graph


def test_no_import_cycle_and_no_late_imports():
    graph = relative_imports()
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for dep in graph.get(node, ()):
            assert state.get(dep) != 1, "import cycle: " + " -> ".join(stack[stack.index(dep) :] + [node, dep])
            if dep not in state:
                visit(dep, stack + [node])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [])
    late = [
        f"{p.name}:{i + 1}"
        for p in ROOT.glob("*.py")
        for i, line in enumerate(p.read_text().splitlines())
        if re.match(r"\s+from \.", line)
    ]
    assert late == [], f"imports inside functions: {late}"
