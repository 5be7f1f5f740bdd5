"""A round over a reused vocabulary drops the references it cannot spell (slot tokens of newer corpora)."""

from types import SimpleNamespace

from training.data import Sample, Vocab
from training.train import keep_in_vocabulary


def sample(captions):
    return Sample(
        index=0, pair_id="p", region_index=0, kind=0, captions=list(captions), frames_row=-1, whole_screen=False
    )


def test_references_outside_the_vocabulary_are_dropped_and_a_sample_never_left_empty():
    vocab = Vocab.build(["the button moved down", "the text changed"])
    mixed = sample(["the button moved down", "the <label> button moved down", "the text changed"])
    unknown_only = sample(["<old> became <new>"])
    known = sample(["the text changed"])
    ds = SimpleNamespace(samples=[mixed, unknown_only, known])
    assert keep_in_vocabulary(ds, vocab) == (1, 1)
    assert mixed.captions == ["the button moved down", "the text changed"]
    assert unknown_only.captions == ["<old> became <new>"]
    assert known.captions == ["the text changed"]
