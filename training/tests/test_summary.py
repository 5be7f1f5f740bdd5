"""The pair summary rule of models/CONTRACT.md as training/evaluate.py applies it (the runtime's
composeSummary/summaryCaptions in src/core/pipeline.ts; test/unit/pipeline.test.ts checks the same cases)."""

from training import config as C
from training.evaluate import compose_summary, summary_captions

REFLOW = C.KINDS.index("reflow")
MOVE = C.KINDS.index("move")
ADD = C.KINDS.index("add")


def test_distinct_captions_joined_and_at_most_three_named():
    assert compose_summary([]) == C.NO_CHANGE_CAPTION
    assert compose_summary(["a", "a", "b"]) == "a and b"
    assert compose_summary(["a", "b", "c"]) == "a and b and c"
    assert compose_summary(["a", "b", "c", "d"]) == "a and b and c and one more change"
    assert compose_summary(["a", "b", "c", "d", "e", "d"]) == "a and b and c and 2 more changes"


def test_causes_before_reflow_and_one_reflow_when_alone():
    regions = [(REFLOW, "the content here shifted down"), (ADD, "a tab was added"), (MOVE, "the logo moved left")]
    assert summary_captions(regions) == ["a tab was added", "the logo moved left"]
    only_reflow = [(REFLOW, "the layout here moved far right"), (REFLOW, "the content here shifted far right")]
    assert summary_captions(only_reflow) == ["the layout here moved far right"]
    assert summary_captions([]) == []
