"""Agreement computations over tables, against hand-worked examples."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from _agreement_helpers import run_scores
from _analysis_helpers import run_scores as any_rubric_run

from groundjudge.judging.models import RubricRef
from groundjudge.validation import agreement
from groundjudge.validation.aggregate import slot_table

NAN = float("nan")


def _rows(cells):
    return agreement.judgement_rows(slot_table(run_scores(cells)))


def test_judgement_rows_leave_failures_out_never_zero():
    rows = _rows(
        {
            "c": {
                "q1": {"a": {"accuracy": 4, "usefulness": 2}, "b": "timeout"},
                "q2": {"a": "refusal", "b": "rate limited"},  # judged: false
                "q3": {"a": {"accuracy": 3, "usefulness": None}},
            }
        }
    )
    got = sorted(rows.itertuples(index=False, name=None))
    assert got == sorted(
        [
            ("c", "q1", "a", "accuracy", 4.0),
            ("c", "q1", "a", "usefulness", 2.0),
            ("c", "q1", "a", "total", 6.0),
            ("c", "q3", "a", "accuracy", 3.0),
            ("c", "q3", "a", "total", 3.0),
        ]
    )


def test_judge_agreement_two_judges_hand_worked():
    # accuracy (a, b): q1 (1,1) q2 (2,3) q3 (3,3) q4 (4, failed): interval alpha 24/29 (unit q4
    # drops out), Spearman over 3 pairs: a ranks 1,2,3, b ranks 1,2.5,2.5 -> rho = 0.8660,
    # differences a - b: 0, -1, 0 -> signed -1/3, absolute 1/3, n 3.
    cells = {
        "c": {
            "q1": {"a": {"accuracy": 1, "usefulness": 5}, "b": {"accuracy": 1, "usefulness": 5}},
            "q2": {"a": {"accuracy": 2, "usefulness": 5}, "b": {"accuracy": 3, "usefulness": 5}},
            "q3": {"a": {"accuracy": 3, "usefulness": 5}, "b": {"accuracy": 3, "usefulness": 5}},
            "q4": {"a": {"accuracy": 4, "usefulness": 5}, "b": "schema violation"},
        }
    }
    result = agreement.judge_agreement(_rows(cells))
    assert result["dimension"].tolist() == ["accuracy", "usefulness", "total"]
    acc = result.iloc[0]
    assert (acc["judge_a"], acc["judge_b"], acc["n"]) == ("a", "b", 3)
    assert acc["alpha"] == pytest.approx(24 / 29)
    assert acc["spearman"] == pytest.approx(math.sqrt(3) / 2)
    assert acc["mean_signed_diff"] == pytest.approx(-1 / 3)
    assert acc["mean_abs_diff"] == pytest.approx(1 / 3)
    # usefulness is 5 everywhere: alpha and Spearman are undefined, the differences are 0
    use = result.iloc[1]
    assert math.isnan(use["alpha"]) and math.isnan(use["spearman"])
    assert (use["mean_signed_diff"], use["mean_abs_diff"], use["n"]) == (0.0, 0.0, 3)
    # total = accuracy + 5, so alpha and rho are those of accuracy
    tot = result.iloc[2]
    assert tot["alpha"] == pytest.approx(24 / 29) and tot["spearman"] == pytest.approx(math.sqrt(3) / 2)


def test_judge_agreement_three_judges_and_by_cell():
    # Two cells; judge c only scores cell y. Pooled units: x/q1, x/q2, y/q1, y/q2.
    cells = {
        "x": {"q1": {"a": {"accuracy": 1}, "b": {"accuracy": 2}}, "q2": {"a": {"accuracy": 3}, "b": {"accuracy": 4}}},
        "y": {
            "q1": {"a": {"accuracy": 5}, "b": {"accuracy": 5}, "c": {"accuracy": 6}},
            "q2": {"a": {"accuracy": 2}, "b": {"accuracy": 2}, "c": {"accuracy": 1}},
        },
    }
    result = agreement.judge_agreement(_rows(cells), by_cell=True)
    acc = result[result["dimension"] == "accuracy"]
    pooled = acc[acc["scope"] == "all cells"].set_index(["judge_a", "judge_b"])
    # a - b over 4 units: -1, -1, 0, 0
    assert pooled.loc[("a", "b"), "mean_signed_diff"] == pytest.approx(-0.5)
    assert pooled.loc[("a", "b"), "n"] == 4
    # a vs c on y only: 5-6, 2-1 -> signed 0, absolute 1, n 2; rho over two pairs = 1
    assert pooled.loc[("a", "c"), "n"] == 2
    assert pooled.loc[("a", "c"), "mean_abs_diff"] == pytest.approx(1.0)
    assert pooled.loc[("a", "c"), "spearman"] == pytest.approx(1.0)
    assert pooled.loc[("all judges", ""), "n"] == 4
    assert set(acc["scope"]) == {"all cells", "x", "y"}
    # cell x has no judge c: the pairs with c have n = 0 and every statistic undefined
    x_ac = acc[(acc["scope"] == "x") & (acc["judge_a"] == "a") & (acc["judge_b"] == "c")].iloc[0]
    assert x_ac["n"] == 0 and math.isnan(x_ac["alpha"]) and math.isnan(x_ac["mean_signed_diff"])
    # alpha over all three judges equals the library on the units x judges matrix
    import krippendorff

    m = np.array([[1, 3, 5, 2], [2, 4, 5, 2], [NAN, NAN, 6, 1]])
    assert pooled.loc[("all judges", ""), "alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=m, level_of_measurement="interval")
    )


def test_join_pairs_counts_unmatched():
    gen = pd.DataFrame({"item": ["i", "i", "j"], "candidate": ["1", "2", "1"], "score": [1.0, 2.0, 3.0]})
    ref = pd.DataFrame({"item": ["i", "k"], "candidate": ["2", "1"], "score": [5.0, 6.0]})
    pairs, only_gen, only_ref = agreement.join_pairs(gen, ref, ["item", "candidate"], "score")
    assert pairs.to_dict("records") == [{"item": "i", "candidate": "2", "generated": 2.0, "reference": 5.0}]
    assert (only_gen, only_ref) == (2, 1)


def test_rubric_agreement_hand_worked():
    # Item X: generated 3,2,1 / reference 5,4,4; item Y: 1,2 / 2,1 (see the ordering test in
    # test_stats): concordant 2, discordant 1, tied 1, share 2/3.
    # Pooled Spearman over (3,5) (2,4) (1,4) (1,2) (2,1): generated ranks 5, 3.5, 1.5, 1.5, 3.5;
    # reference ranks 5, 3.5, 3.5, 2, 1. Pearson of the ranks: deviations g (2, .5, -1.5, -1.5, .5),
    # r (2, .5, .5, -1, -2); sum gr = 4 + .25 - .75 + 1.5 - 1 = 4; sum g^2 = 9, sum r^2 = 9.5;
    # rho = 4 / sqrt(85.5) = 0.43259.
    pairs = pd.DataFrame(
        {
            "item": ["X", "X", "X", "Y", "Y"],
            "candidate": ["1", "2", "3", "1", "2"],
            "generated": [3.0, 2.0, 1.0, 1.0, 2.0],
            "reference": [5.0, 4.0, 4.0, 2.0, 1.0],
        }
    )
    res = agreement.rubric_agreement(pairs)
    assert res["spearman"] == pytest.approx(4 / math.sqrt(85.5))
    assert (res["pairs"], res["pairs_concordant"], res["pairs_discordant"], res["pairs_tied"]) == (4, 2, 1, 1)
    assert res["ordering_agreement"] == pytest.approx(2 / 3)
    assert (res["n"], res["items"]) == (5, 2)
    # differences g - r: -2, -2, -3, -1, 1 -> signed -7/5, absolute 9/5
    assert res["mean_signed_diff"] == pytest.approx(-1.4) and res["mean_abs_diff"] == pytest.approx(1.8)


def test_verdict_agreement_hand_worked():
    gen = [str(c) for c in "1101101110"]
    ref = [str(c) for c in "1101001111"]
    pairs = pd.DataFrame({"generated": gen, "reference": ref})
    summary, confusion = agreement.verdict_agreement(pairs)
    assert (summary["n"], summary["agree"], summary["agreement"]) == (10, 8, 0.8)
    assert summary["kappa"] == pytest.approx(0.5238, abs=1e-4)
    # Wilson for 8/10
    assert (summary["agreement_ci_low"], summary["agreement_ci_high"]) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert confusion.to_dict("records") == [
        {"generated": "0", "reference": "0", "count": 2},
        {"generated": "0", "reference": "1", "count": 1},
        {"generated": "1", "reference": "0", "count": 1},
        {"generated": "1", "reference": "1", "count": 6},
    ]


def test_gate_agreement_hand_worked():
    # gate:       T T T F F F T F
    # maintainer: T T F F F T T F  -> TT 3, TF 1, FT 1, FF 3; accuracy 6/8; kappa: p_e = .5*.5*2 = .5,
    # (0.75 - 0.5) / 0.5 = 0.5
    g = [True, True, True, False, False, False, True, False]
    m = [True, True, False, False, False, True, True, False]
    res = agreement.gate_agreement(pd.DataFrame({"generated": g, "reference": m}))
    assert (
        res["gate_yes_maintainer_yes"],
        res["gate_yes_maintainer_no"],
        res["gate_no_maintainer_yes"],
        res["gate_no_maintainer_no"],
    ) == (3, 1, 1, 3)
    assert res["accuracy"] == 0.75 and res["kappa"] == pytest.approx(0.5) and res["n"] == 8
    assert res["accuracy_ci_low"] < 0.75 < res["accuracy_ci_high"]


def test_criterion_coverage_hand_worked():
    # Reference criteria of item A: R1 P0, R2 P1, R3 P3; item B: R1 P2 (same id, other item).
    # Generated: A/G1, A/G2, A/G3, B/G1.
    # Matches: A G1~R1 full; A G2~R1 partial (R1 keeps its best, full); A G2~R2 partial;
    #          A G3~R3 conflict; B G1 none.
    # Credits: A/R1 1, A/R2 0.5, A/R3 0 (conflict), B/R1 0 (unmatched).
    # recall = 1.5/4 = 0.375; weighted = (4*1 + 3*0.5 + 1*0 + 2*0) / (4+3+1+2) = 5.5/10 = 0.55
    # precision: G1 and G2 of A overlap; A/G3 only conflicts; B/G1 has no match -> 2/4 = 0.5
    reference = pd.DataFrame({"item": ["A", "A", "A", "B"], "id": ["R1", "R2", "R3", "R1"], "priority": ["P0", "P1", "P3", "P2"]})
    generated = pd.DataFrame({"item": ["A", "A", "A", "B"], "id": ["G1", "G2", "G3", "G1"]})
    matches = pd.DataFrame(
        {
            "item": ["A", "A", "A", "A"],
            "generated": ["G1", "G2", "G2", "G3"],
            "reference": ["R1", "R1", "R2", "R3"],
            "match": ["full", "partial", "partial", "conflict"],
        }
    )
    summary, per_ref = agreement.criterion_coverage(matches, reference, generated)
    assert summary["recall"] == pytest.approx(0.375)
    assert summary["priority_weighted_recall"] == pytest.approx(0.55)
    assert summary["overlap_precision"] == pytest.approx(0.5)
    assert (
        summary["reference_full"],
        summary["reference_partial"],
        summary["reference_conflict"],
        summary["reference_unmatched"],
    ) == (1, 1, 1, 1)
    assert (summary["generated_criteria"], summary["generated_overlapping"], summary["generated_in_conflict"]) == (4, 2, 1)
    assert per_ref[["item", "reference", "best_match", "credit"]].values.tolist() == [
        ["A", "R1", "full", 1.0],
        ["A", "R2", "partial", 0.5],
        ["A", "R3", "conflict", 0.0],
        ["B", "R1", "none", 0.0],
    ]


def test_judge_agreement_follows_the_rubric_order_like_the_report():
    rubric = RubricRef(name="zeta-first", sha256="e" * 64, dimensions={"zeta": 5.0, "alpha": 5.0})
    run = any_rubric_run(
        {
            "c": {
                "q1": {"a": {"zeta": 1, "alpha": 2}, "b": {"zeta": 2, "alpha": 2}},
                "q2": {"a": {"zeta": 3, "alpha": 1}, "b": {"zeta": 2, "alpha": 2}},
            }
        },
        rubric=rubric,
    )
    result = agreement.judge_agreement(agreement.judgement_rows(slot_table(run)))
    assert result["dimension"].tolist() == ["zeta", "alpha", "total"]
    # zeta a - b: -1, +1 -> 0; alpha: 0, -1 -> -0.5
    assert result["mean_signed_diff"].tolist() == [0.0, -0.5, -0.5]
