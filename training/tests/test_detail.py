import json
import math

import pytest
import torch

from training import config as C
from training.data import DataError
from training.detail import contract_weight, detail_rows, fuse_detail_logits


def test_contract_rule_is_present_and_its_weight_read():
    d = C.CONTRACT["crop"]["detail"]
    assert d["min_crop_side"] > C.IMAGE_SIZE and d["window"] > 0 and d["diff_threshold"] >= 0
    assert contract_weight() == float(d["weight"])


def test_fusion_matches_the_runtime_rule_worked_by_hand():
    # the same numbers as test/unit/detail.test.ts
    region = torch.tensor([[2.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    detail = torch.tensor([[0.0, 0.0, 9.0]])
    rows = torch.tensor([0])
    alone = fuse_detail_logits(region, detail, rows, 0.0)
    lse = math.log(math.exp(2) + math.exp(1) + 1)
    assert torch.allclose(alone[0], torch.tensor([2 - lse, 1 - lse, -lse]), atol=1e-6)
    fused = fuse_detail_logits(region, detail, rows, 1.0)
    assert int(fused[0].argmax()) == 2                  # a certain detail view moves the answer
    assert torch.allclose(fused[1], torch.log_softmax(region[1], -1))   # a row without a view: unchanged
    d = torch.log_softmax(detail[0], -1)
    assert torch.allclose(fused[0], (alone[0] + d) / 2, atol=1e-6)


def test_detail_rows_map_to_model_row_positions(tmp_path):
    rows = [{"index": 0, "detail_of": 7, "kind": "text"}, {"index": 1, "detail_of": 3, "kind": "font"},
            {"index": 2, "detail_of": 99, "kind": "add"}]
    (tmp_path / "crops.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    keep, where = detail_rows(tmp_path, [1, 3, 5, 7])
    assert [r["index"] for r in keep] == [0, 1]          # row 99 is not a model row here (left out)
    assert where.tolist() == [3, 1]


def test_a_folder_not_made_by_detail_crops_is_refused(tmp_path):
    (tmp_path / "crops.jsonl").write_text(json.dumps({"index": 0, "kind": "text"}) + "\n")
    with pytest.raises(DataError, match="detail-crops"):
        detail_rows(tmp_path, [0])
