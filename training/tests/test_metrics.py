"""Hand-worked examples for the caption metrics (the numbers are derived in the comments)."""

import math

import pytest

from training.metrics import (
    bleu4,
    cider_ceiling,
    cider_d,
    kind_accuracy,
    kind_accuracy_by_group,
    kind_breakdown,
    nochange_recall,
    region_group,
    rouge_l,
    rouge_l_single,
)


def test_bleu4_identical_is_one():
    assert bleu4(["a b c d"], [["a b c d"]]) == pytest.approx(1.0, abs=1e-9)


def test_bleu4_partial_match():
    # precisions 4/5, 3/4, 2/3, 1/2 -> (0.8*0.75*(2/3)*0.5)^(1/4) = 0.2^(1/4); equal lengths: no penalty
    assert bleu4(["a b c d e"], [["a b c d x"]]) == pytest.approx(0.2**0.25, rel=1e-9)


def test_bleu4_brevity_penalty_uses_closest_reference():
    # candidate 4 words, reference 6 words: BP = exp(1 - 6/4)
    assert bleu4(["a b c d"], [["a b c d e f"]]) == pytest.approx(math.exp(-0.5), rel=1e-9)
    # with a 3-word reference closer in length the candidate is not short: no penalty
    # (precisions stay 1 because max counts over references are used)
    assert bleu4(["a b c d"], [["a b c d e f", "x y z"]]) == pytest.approx(1.0, rel=1e-9)


def test_bleu4_clips_repeated_words():
    # "the the the the" vs "the cat": unigram precision clipped to 1/4; no bigram matches -> ~0
    assert bleu4(["the the the the"], [["the cat"]]) < 1e-3


def test_rouge_l_examples():
    # LCS("the cat sat on the mat", "the cat is on the mat") = 5: P = R = 5/6 -> F = 5/6
    assert rouge_l_single("the cat sat on the mat", ["the cat is on the mat"]) == pytest.approx(5 / 6)
    # LCS = 3, P = 1, R = 3/5: F = (1+1.44)*0.6/(0.6+1.44) = 1.464/2.04
    assert rouge_l_single("a b c", ["a b c d e"]) == pytest.approx(1.464 / 2.04)
    # precision and recall are maximised over references separately
    assert rouge_l(["a b c"], [["a b c d e", "x"]]) == pytest.approx(1.464 / 2.04)
    assert rouge_l_single("", ["a"]) == 0.0


def test_cider_d_two_word_exact_matches_give_500():
    # each 1- and 2-gram has weight ln2 (2 pairs, df 1); n=1 and n=2 cosines are 1, n=3,4 are 0:
    # 10 * (1 + 1 + 0 + 0) / 4 = 5 per pair -> x100 = 500
    assert cider_d(["a b", "c d"], [["a b"], ["c d"]]) == pytest.approx(500.0)


def test_cider_d_clipping():
    # pair 1: candidate "a a" vs "a b": n=1 cand {a: 2ln2}, ref {a: ln2, b: ln2}:
    # min(2ln2, ln2)*ln2 / (2ln2 * sqrt2 ln2) = 1/(2 sqrt2); n=2 no overlap -> 10 * 1/(2 sqrt2) / 4
    # pair 2: exact two-word match -> 5
    p1 = 10 * (1 / (2 * math.sqrt(2))) / 4
    assert cider_d(["a a", "c d"], [["a b"], ["c d"]]) == pytest.approx(100 * (p1 + 5) / 2)


def test_cider_d_idf_and_length_penalty():
    # "c" occurs in both pairs' references: weight ln2 - ln2 = 0.
    # pair 1: cand "a b" vs "a b c": n=1 cosine 1; n=2 {ab} vs {ab, bc}: 1/sqrt2; bigram lengths 1 vs 2:
    # penalty exp(-1/72) -> 10 * (1 + 1/sqrt2) * exp(-1/72) / 4; pair 2 "c d" vs "c d": 5
    p1 = 10 * (1 + 1 / math.sqrt(2)) * math.exp(-1 / 72) / 4
    assert cider_d(["a b", "c d"], [["a b c"], ["c d"]]) == pytest.approx(100 * (p1 + 5) / 2)


def test_cider_d_averages_over_references():
    # pair 1 with two references, one exact and one disjoint: (5 + 0) / 2 per the reference average
    got = cider_d(["a b", "c d"], [["a b", "x y"], ["c d"]])
    # df: a,b,ab,x,y,xy,c,d,cd all 1 -> exact match scores 5 -> pair 1 = 2.5, pair 2 = 5
    assert got == pytest.approx(100 * (2.5 + 5) / 2)


def test_cider_ceiling_of_identical_references():
    assert cider_ceiling([["a b", "a b"], ["c d", "c d"]]) == pytest.approx(500.0)


def test_kind_metrics():
    assert kind_accuracy([0, 1, 2, 2], [0, 1, 1, 2]) == 0.75
    assert nochange_recall([True, False, True], [True, True, False]) == 0.5
    assert math.isnan(nochange_recall([True], [False]))


def test_kind_breakdown_counts_each_label_and_lists_mistakes_most_frequent_first():
    names = ["move", "resize", "reflow", "spacing", "text", "font"]
    truth = [0, 1, 1, 1, 4]
    predicted = [0, 2, 3, 2, 5]
    out = kind_breakdown(predicted, truth, names)
    assert out["per_kind_accuracy"] == {
        "move": {"count": 1, "accuracy": 1.0},
        "resize": {"count": 3, "accuracy": 0.0},
        "text": {"count": 1, "accuracy": 0.0},
    }
    assert out["kind_confusion"] == {"resize": {"reflow": 2, "spacing": 1}, "text": {"font": 1}}
    assert list(out["kind_confusion"]["resize"]) == ["reflow", "spacing"]


def test_region_groups_match_the_runtime_eval():
    # the same cases as test/integration/cli.test.ts "eval groups regions by the change records they hold"
    add = {"kind": "add", "bbox_before": None, "bbox_after": [0, 0, 10, 10]}
    assert region_group([0, 0, 30, 10], [add]) == "one_change"  # exactly 3x: still the change
    assert region_group([0, 0, 31, 10], [add]) == "change_and_pushed"
    move = {"kind": "move", "bbox_before": [0, 0, 10, 10], "bbox_after": [0, 90, 10, 100]}
    assert region_group([0, 0, 10, 100], [move]) == "one_change"
    assert region_group([0, 0, 10, 100], [move, add]) == "several_changes"
    assert region_group([0, 0, 10, 100], []) == "no_change_record"
    assert region_group([0, 0, 50, 50], [{"kind": "none", "bbox_before": None, "bbox_after": None}]) == "one_change"
    assert region_group([0, 0, 10, 10], [add], whole_screen=True) == "whole_screen"
    out = kind_accuracy_by_group([1, 2, 3], [1, 0, 3], ["one_change", "several_changes", "one_change"])
    assert out == {"one_change": {"count": 2, "accuracy": 1.0}, "several_changes": {"count": 1, "accuracy": 0.0}}
    assert list(out) == ["one_change", "several_changes"]
