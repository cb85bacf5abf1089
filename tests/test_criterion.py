"""Criterion rubrics with a P0 cap: the file format, hand-worked items and a hand-worked run."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from _rubrics_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from groundjudge import rubrics
from groundjudge.errors import UserError
from groundjudge.rubrics.criteria import Criterion, CriterionItem, load_criterion_rubric
from groundjudge.rubrics.criterion import (
    CriterionResponses,
    CriterionRunSummary,
    CriterionVerdict,
    ItemResponse,
    ItemResult,
    capped_quality,
    harmonic_composite,
    run_metrics,
    score_item,
    score_run,
)
from groundjudge.storage import read_model, write_model

EXAMPLE_FILE = Path(rubrics.__file__).parent / "criteria-example.toml"

P, F, V, NT = "pass", "fail", "violated", "not_triggered"


def crit(cid: str, ctype: str, priority: str = "P2") -> Criterion:
    trigger = "the patch touches a copybook" if ctype == "conditional" else None
    return Criterion(id=cid, type=ctype, priority=priority, pass_=f"{cid} holds", fail=f"{cid} broken", trigger=trigger)


def item(*criteria: Criterion, needs_update: bool = True, iid: str = "i1") -> CriterionItem:
    return CriterionItem(id=iid, needs_update=needs_update, criteria=list(criteria))


def patch(verdicts: dict[str, str], iid: str = "i1") -> ItemResponse:
    return ItemResponse(item_id=iid, decision="patch", verdicts=verdicts)


# ---- capped_quality: the formula on counts -------------------------------------------------


@pytest.mark.parametrize(
    "required, passed, violated, p0, raw, capped",
    [
        (4, 3, 0, False, 75.0, 75.0),  # 100 * 3 / 4
        (4, 3, 1, False, 50.0, 50.0),  # 100 * (3 - 1) / 4
        (2, 1, 3, False, 0.0, 0.0),  # 100 * max(0, 1 - 3) / 2 = 0
        (5, 5, 0, True, 100.0, 60.0),  # min(100, 60)
        (5, 2, 0, True, 40.0, 40.0),  # min(40, 60): the cap does not raise a low score
        (0, 0, 0, False, 0.0, 0.0),  # R empty
        (0, 0, 2, True, 0.0, 0.0),  # R empty, P0 guardrail violated
    ],
)
def test_capped_quality(required, passed, violated, p0, raw, capped):
    assert capped_quality(required, passed, violated, p0) == (pytest.approx(raw), pytest.approx(capped))


def test_capped_quality_rejects_impossible_counts():
    with pytest.raises(ValueError):
        capped_quality(2, 3, 0, False)
    with pytest.raises(ValueError):
        capped_quality(2, 1, -1, False)


# ---- score_item: hand-worked items ---------------------------------------------------------


def test_all_requirements_pass():
    it = item(crit("r1", "requirement", "P0"), crit("r2", "requirement"), crit("r3", "requirement", "P3"))
    result = score_item(it, patch({"r1": P, "r2": P, "r3": P}))
    # R = {r1, r2, r3}, passes 3, G = {}: 100 * 3 / 3 = 100
    assert (result.required, result.passed, result.violated) == (3, 3, 0)
    assert result.quality == pytest.approx(100.0)
    assert result.p0_clean is True and result.p0_failures == []


def test_untriggered_conditional_is_left_out_of_r_and_triggered_one_counts():
    it = item(crit("r1", "requirement"), crit("r2", "requirement", "P1"), crit("c1", "conditional"), crit("c2", "conditional"))
    result = score_item(it, patch({"r1": P, "r2": F, "c1": NT, "c2": P}))
    # R = {r1, r2, c2} (c1 not triggered), passes = r1 + c2 = 2, G = {}: 100 * 2 / 3 = 66.67
    assert (result.required, result.passed, result.violated) == (3, 2, 0)
    assert result.quality == pytest.approx(200 / 3)
    assert result.p0_clean is True


def test_guardrail_violations_subtract_passes_and_floor_at_zero():
    it = item(crit("r1", "requirement"), crit("r2", "requirement"), crit("g1", "guardrail", "P2"), crit("g2", "guardrail", "P3"))
    result = score_item(it, patch({"r1": P, "r2": F, "g1": V, "g2": V}))
    # R = {r1, r2}, passes 1, |G| = 2: 100 * max(0, 1 - 2) / 2 = 0
    assert (result.required, result.passed, result.violated) == (2, 1, 2)
    assert result.raw_quality == 0.0 and result.quality == 0.0
    assert result.p0_clean is True  # no P0 among the failures


def test_one_guardrail_violation_costs_one_pass():
    it = item(*(crit(f"r{k}", "requirement") for k in range(1, 5)), crit("g1", "guardrail", "P3"), crit("g2", "guardrail"))
    result = score_item(it, patch({"r1": P, "r2": P, "r3": P, "r4": P, "g1": V, "g2": P}))
    # R = 4 requirements, all pass; |G| = 1 (g2 passed): 100 * (4 - 1) / 4 = 75
    assert result.quality == pytest.approx(75.0)


def test_failed_p0_requirement_caps_at_60():
    it = item(crit("r1", "requirement", "P0"), *(crit(f"r{k}", "requirement", "P1") for k in range(2, 6)))
    result = score_item(it, patch({"r1": F, "r2": P, "r3": P, "r4": P, "r5": P}))
    # R = 5, passes 4: q~ = 100 * 4 / 5 = 80; r1 is P0 and failed: q = min(80, 60) = 60
    assert result.raw_quality == pytest.approx(80.0)
    assert result.quality == pytest.approx(60.0)
    assert result.p0_clean is False and result.p0_failures == ["r1"]


def test_cap_leaves_a_score_already_below_60():
    it = item(crit("r1", "requirement", "P0"), crit("r2", "requirement"), crit("r3", "requirement"), crit("r4", "requirement"))
    result = score_item(it, patch({"r1": F, "r2": P, "r3": P, "r4": F}))
    # R = 4, passes 2: q~ = 50; capped: min(50, 60) = 50
    assert result.quality == pytest.approx(50.0) and result.p0_clean is False


def test_violated_p0_guardrail_caps_even_when_every_requirement_passes():
    it = item(*(crit(f"r{k}", "requirement") for k in range(1, 6)), crit("g0", "guardrail", "P0"))
    result = score_item(it, patch({"r1": P, "r2": P, "r3": P, "r4": P, "r5": P, "g0": V}))
    # R = 5, passes 5, |G| = 1: q~ = 100 * (5 - 1) / 5 = 80; P0 guardrail violated: q = 60
    assert result.raw_quality == pytest.approx(80.0)
    assert result.quality == pytest.approx(60.0)
    assert result.p0_failures == ["g0"] and result.p0_clean is False


def test_p0_conditional_caps_only_when_triggered():
    it = item(crit("r1", "requirement"), crit("r2", "requirement"), crit("c0", "conditional", "P0"))
    triggered = score_item(it, patch({"r1": P, "r2": P, "c0": F}))
    # R = {r1, r2, c0}, passes 2: q~ = 66.67; c0 is P0 and failed: q = 60
    assert triggered.raw_quality == pytest.approx(200 / 3)
    assert triggered.quality == pytest.approx(60.0)
    assert triggered.p0_failures == ["c0"]
    quiet = score_item(it, patch({"r1": P, "r2": P, "c0": NT}))
    # R = {r1, r2}, passes 2: 100; c0 not triggered, so nothing is capped
    assert quiet.quality == pytest.approx(100.0) and quiet.p0_clean is True


def test_empty_r_scores_zero():
    it = item(crit("g1", "guardrail", "P0"), crit("c1", "conditional"))
    result = score_item(it, patch({"g1": P, "c1": NT}))
    # R = {} (c1 not triggered): q = 0 by definition; nothing failed, so P0-clean
    assert result.required == 0 and result.quality == 0.0 and result.p0_clean is True


def test_abstention_or_empty_patch_on_a_needs_update_item_scores_zero():
    it = item(crit("r1", "requirement"), needs_update=True)
    for decision in ("abstain", "empty_patch"):
        result = score_item(it, ItemResponse(item_id="i1", decision=decision))
        assert result.quality == 0.0 and result.p0_clean is None
        assert not result.valid_patch


def test_abstention_on_an_item_needing_no_update_has_no_quality():
    it = item(crit("g1", "guardrail"), needs_update=False)
    result = score_item(it, ItemResponse(item_id="i1", decision="abstain"))
    assert result.quality is None and result.p0_clean is None and not result.emitted


@pytest.mark.parametrize(
    "verdicts, decision, problem",
    [
        ({"r1": P}, "patch", "no verdict for criterion 'g1'"),
        ({"r1": P, "g1": P, "zz": P}, "patch", "verdict for unknown criterion 'zz'"),
        ({"r1": V, "g1": P}, "patch", "'r1' is a requirement; its verdict must be one of fail, pass, got 'violated'"),
        ({"r1": NT, "g1": P}, "patch", "got 'not_triggered'"),
        ({"r1": P, "g1": F}, "patch", "'g1' is a guardrail; its verdict must be one of pass, violated, got 'fail'"),
        ({"r1": P}, "abstain", "verdicts given for a response without a patch (abstain)"),
    ],
)
def test_responses_that_do_not_fit_the_item_are_refused(verdicts, decision, problem):
    it = item(crit("r1", "requirement"), crit("g1", "guardrail"))
    with pytest.raises(ValueError) as info:
        score_item(it, ItemResponse(item_id="i1", decision=decision, verdicts=verdicts))
    assert problem in str(info.value)


def test_response_for_another_item_is_refused():
    with pytest.raises(ValueError, match="response for item 'other'"):
        score_item(item(crit("r1", "requirement")), ItemResponse(item_id="other", decision="abstain"))


def test_item_result_keeps_its_invariants():
    with pytest.raises(ValueError, match="needs an update"):
        ItemResult(item_id="x", needs_update=True, decision="abstain", quality=None, raw_quality=None, p0_clean=None)
    with pytest.raises(ValueError, match="p0_clean"):
        ItemResult(item_id="x", needs_update=True, decision="patch", quality=50.0, raw_quality=50.0, p0_clean=None)


# ---- a hand-worked run ---------------------------------------------------------------------

RUN_TOML = """
schema_version = 1
kind = "criteria"
name = "run-test"
version = 1

[[items]]
id = "A"
needs_update = true
criteria = [
  {id = "a1", type = "requirement", priority = "P0", pass = "p", fail = "f"},
  {id = "a2", type = "requirement", priority = "P1", pass = "p", fail = "f"},
]

[[items]]
id = "B"
needs_update = true
criteria = [
  {id = "b1", type = "requirement", priority = "P0", pass = "p", fail = "f"},
  {id = "b2", type = "requirement", priority = "P1", pass = "p", fail = "f"},
  {id = "b3", type = "requirement", priority = "P1", pass = "p", fail = "f"},
  {id = "b4", type = "requirement", priority = "P1", pass = "p", fail = "f"},
  {id = "b5", type = "requirement", priority = "P1", pass = "p", fail = "f"},
]

[[items]]
id = "C"
needs_update = true
criteria = [{id = "c1", type = "requirement", priority = "P0", pass = "p", fail = "f"}]

[[items]]
id = "D"
needs_update = true
criteria = [{id = "d1", type = "requirement", priority = "P0", pass = "p", fail = "f"}]

[[items]]
id = "E"
needs_update = false
criteria = [{id = "e1", type = "guardrail", priority = "P0", pass = "p", fail = "f"}]

[[items]]
id = "F"
needs_update = false
criteria = [{id = "f1", type = "guardrail", priority = "P0", pass = "p", fail = "f"}]

[[items]]
id = "G"
needs_update = false
"""

RUN_RESPONSES = [
    ItemResponse(item_id="G", decision="empty_patch"),
    ItemResponse(item_id="A", decision="patch", verdicts={"a1": P, "a2": P}),
    ItemResponse(item_id="B", decision="patch", verdicts={"b1": F, "b2": P, "b3": P, "b4": P, "b5": P}),
    ItemResponse(item_id="C", decision="abstain"),
    ItemResponse(item_id="D", decision="empty_patch"),
    ItemResponse(item_id="E", decision="abstain"),
    ItemResponse(item_id="F", decision="patch", verdicts={"f1": P}),
]


@pytest.fixture
def run_rubric(tmp_path):
    path = tmp_path / "run.toml"
    path.write_text(RUN_TOML, encoding="utf-8")
    return load_criterion_rubric(path)


def test_run_summary_matches_the_hand_worked_figures(run_rubric):
    summary = score_run(run_rubric, RUN_RESPONSES)
    q = {r.item_id: r.quality for r in summary.items}
    # A: R=2, passes 2 -> 100.   B: R=5, passes 4 -> q~ 80, b1 is P0 and failed -> 60.
    # C: abstained, needs update -> 0.   D: empty patch, needs update -> 0.
    # E: abstained, no update needed -> None.   F: patch, R empty -> 0.   G: empty patch, no update -> None.
    assert q == {"A": 100.0, "B": 60.0, "C": 0.0, "D": 0.0, "E": None, "F": 0.0, "G": None}
    assert [r.item_id for r in summary.items] == ["A", "B", "C", "D", "E", "F", "G"]
    m = summary.metrics
    assert (m.items, m.needs_update_items, m.no_update_items, m.valid_patches, m.abstentions) == (7, 4, 3, 3, 2)
    # D = mean over A, B, C, D = (100 + 60 + 0 + 0) / 4 = 40
    assert m.delivered_quality == pytest.approx(40.0)
    # conditional quality = mean over the valid patches A, B, F = (100 + 60 + 0) / 3 = 53.33
    assert m.conditional_quality == pytest.approx(160 / 3)
    # N: of E, F, G (no update needed) only E abstained: 100 * 1 / 3 = 33.33
    assert m.abstention_recall == pytest.approx(100 / 3)
    # C = 2 * 40 * 33.33 / (40 + 33.33) = (8000 / 3) / (220 / 3) = 8000 / 220 = 36.36
    assert m.composite == pytest.approx(8000 / 220)
    # emitted == needs_update? A yes, B yes, C no (abstained), D yes (empty patch is emitting),
    # E yes, F no, G no -> 4 of 7 = 57.14
    assert m.decision_accuracy == pytest.approx(400 / 7)
    # needs-update items with a valid, P0-clean patch: only A of A, B, C, D -> 25
    assert m.p0_clean_delivery_rate == pytest.approx(25.0)
    assert summary.rubric == "run-test" and summary.rubric_sha256 == run_rubric.sha256


def test_run_summary_is_independent_of_response_order(run_rubric):
    assert score_run(run_rubric, RUN_RESPONSES) == score_run(run_rubric, list(reversed(RUN_RESPONSES)))


def test_run_summary_round_trips_through_disk(run_rubric, tmp_path):
    summary = score_run(run_rubric, RUN_RESPONSES)
    write_model(tmp_path / "summary.json", summary)
    assert read_model(tmp_path / "summary.json", CriterionRunSummary) == summary


def test_undefined_figures_are_none_not_zero():
    only_needs = [score_item(item(crit("r1", "requirement")), patch({"r1": P}))]
    m = run_metrics(only_needs)
    # D = 100; no item needing no update, so N and C are undefined
    assert m.delivered_quality == pytest.approx(100.0)
    assert m.abstention_recall is None and m.composite is None
    empty = run_metrics([])
    assert empty.delivered_quality is None and empty.decision_accuracy is None and empty.p0_clean_delivery_rate is None


def test_harmonic_composite():
    assert harmonic_composite(0.0, 0.0) == 0.0  # D + N = 0
    assert harmonic_composite(0.0, 100.0) == 0.0  # 2 * 0 * 100 / 100
    assert harmonic_composite(50.0, 100.0) == pytest.approx(200 / 3)  # 2 * 50 * 100 / 150 = 66.67
    assert harmonic_composite(None, 10.0) is None


@pytest.mark.parametrize(
    "responses, problem",
    [
        (RUN_RESPONSES[1:], "no response for item 'G'"),
        ([*RUN_RESPONSES, RUN_RESPONSES[0]], "two responses for item 'G'"),
        ([*RUN_RESPONSES, ItemResponse(item_id="Z", decision="abstain")], "unknown item 'Z'"),
    ],
)
def test_run_needs_exactly_one_response_per_item(run_rubric, responses, problem):
    with pytest.raises(ValueError, match=problem):
        score_run(run_rubric, responses)


# ---- the criterion rubric file format ------------------------------------------------------


def test_example_rubric_loads_and_scores():
    rubric = load_criterion_rubric("criteria-example")
    assert rubric.sha256 == hashlib.sha256(EXAMPLE_FILE.read_bytes()).hexdigest()
    assert load_criterion_rubric(EXAMPLE_FILE) == rubric
    assert [(i.id, i.needs_update, len(i.criteria)) for i in rubric.items] == [
        ("raise-overtime-rate", True, 5),
        ("log-rejected-records", True, 3),
        ("already-rounds", False, 1),
    ]
    overtime = rubric.item("raise-overtime-rate")
    assert overtime.criterion("copybook-users").trigger
    verdicts = {"rate-constant": P, "picture-fits": F, "copybook-users": NT, "no-base-rate-change": P, "no-unrelated-edits": V}
    result = score_item(overtime, ItemResponse(item_id=overtime.id, decision="patch", verdicts=verdicts))
    # R = {rate-constant, picture-fits}, passes 1, |G| = 1: 100 * max(0, 1 - 1) / 2 = 0
    assert result.quality == 0.0 and result.p0_clean is True


def test_verdict_values_are_the_documented_strings():
    assert sorted(v.value for v in CriterionVerdict) == ["fail", "not_triggered", "pass", "violated"]


CRITERIA_BASE = """
schema_version = 1
kind = "criteria"
name = "bad"
version = 1

[[items]]
id = "i1"
needs_update = true
criteria = [
  {id = "r1", type = "requirement", priority = "P0", pass = "p", fail = "f"},
  {id = "c1", type = "conditional", priority = "P1", trigger = "t", pass = "p", fail = "f"},
]
"""


@pytest.mark.parametrize(
    "old, new, problem",
    [
        ('trigger = "t", ', "", "conditional criterion 'c1' needs a trigger"),
        ('priority = "P0", ', 'priority = "P0", trigger = "x", ', "requirement criterion 'r1' cannot have a trigger"),
        ('id = "c1"', 'id = "r1"', "duplicate criterion id 'r1'"),
        ('priority = "P0"', 'priority = "P4"', "items['i1'].criteria['r1'].priority"),
        ('type = "requirement"', 'type = "wish"', "items['i1'].criteria['r1'].type"),
        ("needs_update = true", 'needs_update = "maybe"', "items['i1'].needs_update"),
        ('kind = "criteria"', 'kind = "dimensions"', "this is a dimensions rubric"),
        (', fail = "f"}', "}", "criteria['r1'].fail: Field required"),
    ],
)
def test_bad_criterion_rubric_is_one_line_user_error(tmp_path, old, new, problem):
    path = tmp_path / "bad.toml"
    path.write_text(CRITERIA_BASE.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(UserError) as info:
        load_criterion_rubric(path)
    assert str(info.value).startswith(f"{path}: ")
    assert problem in str(info.value)
    assert "\n" not in str(info.value)


def test_duplicate_item_ids_are_refused(tmp_path):
    path = tmp_path / "dup.toml"
    second_item = '\n[[items]]\nid = "i1"\nneeds_update = false\n'
    path.write_text(CRITERIA_BASE + second_item, encoding="utf-8")
    with pytest.raises(UserError, match="duplicate item id 'i1'"):
        load_criterion_rubric(path)


# ---- groundjudge rubric score --------------------------------------------------------------


def write_responses(path: Path, responses: list[ItemResponse], **extra) -> Path:
    doc = CriterionResponses(responses=responses, **extra)
    path.write_text(doc.model_dump_json(indent=2), encoding="utf-8")
    return path


def test_cli_score_prints_and_writes_the_run_summary(run_rubric, tmp_path):
    responses = write_responses(tmp_path / "resp.json", RUN_RESPONSES, candidate="agent-x", rubric_sha256=run_rubric.sha256)
    out = tmp_path / "out" / "summary.json"
    result = run("score", run_rubric.source, str(responses), "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip() for line in result.output.splitlines() if line.count("│") == 3}
    # the hand-worked run above, rounded to one decimal
    assert rows == {
        "delivered quality D": "40.0",
        "conditional quality": "53.3",
        "abstention recall N": "33.3",
        "composite C": "36.4",
        "decision accuracy": "57.1",
        "P0-clean delivery rate": "25.0",
    }
    summary = read_model(out, CriterionRunSummary)
    assert summary.candidate == "agent-x"
    assert summary.responses_sha256 == hashlib.sha256(responses.read_bytes()).hexdigest()
    assert summary.metrics == score_run(run_rubric, RUN_RESPONSES).metrics


def test_cli_score_refuses_responses_for_another_rubric_or_not_fitting(run_rubric, tmp_path):
    wrong_hash = write_responses(tmp_path / "a.json", RUN_RESPONSES, rubric_sha256="0" * 64)
    result = run("score", run_rubric.source, str(wrong_hash))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {wrong_hash}: responses were made for rubric sha256 000000000000")
    missing = write_responses(tmp_path / "b.json", RUN_RESPONSES[1:])
    result = run("score", run_rubric.source, str(missing), "--out", str(tmp_path / "never.json"))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {missing}: no response for item 'G'"
    assert not (tmp_path / "never.json").exists()
    bad_verdict = tmp_path / "c.json"
    bad_verdict.write_text(
        '{"schema_version": 1, "responses": [{"item_id": "A", "decision": "patch", "verdicts": {"a1": "maybe"}}]}'
    )
    result = run("score", run_rubric.source, str(bad_verdict))
    assert result.exit_code == 2 and "invalid CriterionResponses: responses.0.verdicts.a1" in result.stderr


# ---- properties over random items ----------------------------------------------------------

ALLOWED_BY_TYPE = {"requirement": [P, F], "conditional": [P, F, NT], "guardrail": [P, V]}


@st.composite
def item_and_response(draw):
    n = draw(st.integers(min_value=0, max_value=8))
    criteria, verdicts = [], {}
    for k in range(n):
        ctype = draw(st.sampled_from(sorted(ALLOWED_BY_TYPE)))
        criteria.append(crit(f"x{k}", ctype, draw(st.sampled_from(["P0", "P1", "P2", "P3"]))))
        verdicts[f"x{k}"] = draw(st.sampled_from(ALLOWED_BY_TYPE[ctype]))
    return item(*criteria, needs_update=draw(st.booleans())), patch(verdicts)


@settings(max_examples=300, deadline=None)
@given(item_and_response())
def test_item_score_properties(pair):
    it, response = pair
    result = score_item(it, response)
    assert 0.0 <= result.quality <= result.raw_quality <= 100.0
    # the cap binds exactly on items that are not P0-clean, and only from above
    if result.p0_clean:
        assert result.quality == result.raw_quality and result.p0_failures == []
    else:
        assert result.quality == min(result.raw_quality, 60.0) and result.p0_failures
    # recount R, passes and G independently from the verdicts
    types = {c.id: c.type for c in it.criteria}
    in_r = [cid for cid, v in response.verdicts.items() if types[cid] != "guardrail" and v != NT]
    assert result.required == len(in_r)
    assert result.passed == sum(1 for cid in in_r if response.verdicts[cid] == P)
    assert result.violated == sum(1 for v in response.verdicts.values() if v == V)


@settings(max_examples=200, deadline=None)
@given(item_and_response())
def test_turning_a_failure_into_a_pass_never_lowers_the_score(pair):
    it, response = pair
    before = score_item(it, response)
    for cid, verdict in response.verdicts.items():
        if verdict in (F, V):
            better = patch({**response.verdicts, cid: P})
            assert score_item(it, better).quality >= before.quality
