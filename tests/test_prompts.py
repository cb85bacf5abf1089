"""Judge prompt templates: loading, deterministic rendering, hashes, and the reply schema."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from groundjudge.errors import UserError
from groundjudge.grounding.models import AnswerRef, CorpusRef, Evidence, GroundingReport, Verdict, VerifiedClaim
from groundjudge.judging import prompts
from groundjudge.judging.prompts import judgement_schema, load_template, render_judge_prompt
from groundjudge.questions import Question
from groundjudge.rubrics import load_rubric

TEMPLATE_FILE = Path(prompts.__file__).parent / "templates" / "judge-dimensions-v1.md"
RUBRIC_FILE = Path(load_rubric("reference-free").source)

POLICY = [
    "SUPPORTED claims are positive evidence for accuracy.",
    "UNABLE_TO_VERIFY claims must not reduce accuracy",
    "Only UNSUPPORTED claims should reduce accuracy significantly",
]

QUESTION = Question(
    id="q7",
    text="How does PAYROLL compute overtime pay?",
    category="logic",
    difficulty="medium",
    must_touch=["src/PAYROLL.cbl", "OVERTIME-CALC", "cpy/RATES.cpy"],
)
ANSWER = "PAYROLL calls TAXCALC in 2000-CALC (src/PAYROLL.cbl:40-52).\nA literal {question} stays as written."


def claim(cid: str, line: int, verdict: Verdict, evidence: list[tuple[str, int, int]] = ()) -> VerifiedClaim:
    return VerifiedClaim(
        id=cid,
        text=f"claim {cid}\n  spans two lines",
        answer_line=line,
        verdict=verdict,
        reason=f"reason for {cid}",
        evidence=[Evidence(path=p, start_line=s, end_line=e, snippet="...") for p, s, e in evidence],
    )


CLAIMS = [
    claim("c1", 1, Verdict.SUPPORTED, [("src/PAYROLL.cbl", 40, 52), ("src/OTHER.cbl", 1, 2)]),
    claim("c2", 1, Verdict.UNSUPPORTED, [("src/TAXCALC.cbl", 7, 7)]),
    claim("c10", 3, Verdict.UNABLE_TO_VERIFY),
    claim("c3", 2, Verdict.PARTIALLY_SUPPORTED, [("cpy/RATES.cpy", 3, 9)]),
]


def report(claims: list[VerifiedClaim] = CLAIMS) -> GroundingReport:
    return GroundingReport(
        tool_version="0.1.0",
        corpus=CorpusRef(name="payroll", tree_hash="t" * 64),
        answer=AnswerRef(path="cell/answers/q7.md", sha256="a" * 64),
        extractor="rules-v1",
        claims=list(claims),
    )


def render(**overrides):
    args = dict(
        template=load_template(),
        question=QUESTION,
        answer_text=ANSWER,
        rubric=load_rubric("reference-free"),
        grounding=report(),
        extras=None,
    )
    args.update(overrides)
    return render_judge_prompt(**args)


def test_template_hash_is_the_file_hash_and_parts_are_split():
    template = load_template("judge-dimensions-v1")
    assert template.sha256 == hashlib.sha256(TEMPLATE_FILE.read_bytes()).hexdigest()
    assert load_template() == template
    assert load_template(TEMPLATE_FILE).sha256 == template.sha256
    assert "=== system ===" not in template.system + template.user
    assert "<!--" not in template.system  # the header comment is never sent
    assert "{answer}" in template.user


def test_prompt_states_the_grounding_policy_in_the_system_part():
    rendered = render()
    for sentence in POLICY:
        assert sentence in rendered.system


def test_prompt_shows_question_answer_and_sorted_must_touch():
    user = render().user
    assert "How does PAYROLL compute overtime pay?" in user
    assert "question id: q7; category: logic; difficulty: medium" in user
    assert "- OVERTIME-CALC\n- cpy/RATES.cpy\n- src/PAYROLL.cbl" in user
    # the answer is inserted verbatim; placeholder-like text inside it is not substituted
    assert f"<answer>\n{ANSWER}\n</answer>" in user


def test_prompt_shows_every_dimension_with_its_range_bands_and_reply_fields():
    user = render().user
    rubric = load_rubric("reference-free")
    assert "Rubric reference-free (version 1), 100 points in all." in user
    for dim in rubric.dimensions:
        assert f"### {dim.name} (0-{dim.max})" in user
        assert f'- "{dim.name}": an integer from 0 to {dim.max}' in user
        for band in dim.bands:
            assert f"- {band.min}-{band.max}: {band.descriptor}" in user
    assert '- "rationale":' in user
    # the author's dimension order is kept
    positions = [user.index(f"### {d}") for d in ("accuracy", "completeness", "traceability", "usefulness")]
    assert positions == sorted(positions)


def test_prompt_renders_each_claim_with_verdict_reason_and_first_evidence():
    user = render().user
    assert "Counts: SUPPORTED 1, PARTIALLY_SUPPORTED 1, UNSUPPORTED 1, UNABLE_TO_VERIFY 1" in user
    assert "Corpus payroll (tree hash " + "t" * 64 + "); claims extracted by rules-v1." in user
    expected = "\n".join(
        [
            "- c1 [SUPPORTED] (answer line 1): claim c1 spans two lines",
            "  Reason: reason for c1",
            "  Evidence: src/PAYROLL.cbl:40-52",
            "- c2 [UNSUPPORTED] (answer line 1): claim c2 spans two lines",
            "  Reason: reason for c2",
            "  Evidence: src/TAXCALC.cbl:7",
            "- c3 [PARTIALLY_SUPPORTED] (answer line 2): claim c3 spans two lines",
            "  Reason: reason for c3",
            "  Evidence: cpy/RATES.cpy:3-9",
            "- c10 [UNABLE_TO_VERIFY] (answer line 3): claim c10 spans two lines",
            "  Reason: reason for c10",
            "  Evidence: none",
        ]
    )
    assert expected in user
    assert "src/OTHER.cbl" not in user  # only the first evidence is shown


def test_missing_optional_inputs_and_grounding_render_as_not_available():
    user = render(grounding=None).user
    assert "## Baseline comparison\nNot available\n" in user
    assert "## Coverage gap report\nNot available\n" in user
    assert "## Grounding report\nNot available (" in user
    blank = render(extras={"baseline_comparison": "  \n", "coverage_gap": None}).user
    assert "## Baseline comparison\nNot available\n" in blank
    assert "## Coverage gap report\nNot available\n" in blank


def test_given_optional_inputs_are_shown():
    user = render(extras={"coverage_gap": "Missed: OVERTIME-CALC"}).user
    assert "## Coverage gap report\nMissed: OVERTIME-CALC\n" in user
    assert "## Baseline comparison\nNot available\n" in user


def test_unknown_optional_input_is_refused():
    with pytest.raises(ValueError, match="unknown optional prompt input 'coverage'"):
        render(extras={"coverage": "x"})


def test_empty_grounding_report_says_so():
    user = render(grounding=report([])).user
    assert "Counts: SUPPORTED 0, PARTIALLY_SUPPORTED 0, UNSUPPORTED 0, UNABLE_TO_VERIFY 0" in user
    assert "No checkable claims were extracted from the answer." in user


def test_grounding_note_is_shown_when_present():
    noted = report([]).model_copy(update={"note": "the answer has no\nclaim units"})
    user = render(grounding=noted).user
    assert "UNABLE_TO_VERIFY 0\nNote: the answer has no claim units\n\nNo checkable claims" in user
    assert "Note:" not in render().user


def test_prompt_hash_is_sha256_of_canonical_system_and_user():
    rendered = render()
    expected = hashlib.sha256(
        json.dumps([rendered.system, rendered.user], separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    ).hexdigest()
    assert rendered.sha256 == expected
    assert rendered.template_sha256 == load_template().sha256


def test_rendering_is_deterministic_and_independent_of_claim_order():
    first = render()
    assert render() == first
    assert render(grounding=report(list(reversed(CLAIMS)))).sha256 == first.sha256
    reordered_must_touch = QUESTION.model_copy(update={"must_touch": list(reversed(QUESTION.must_touch))})
    assert render(question=reordered_must_touch).sha256 == first.sha256


def test_prompt_hash_changes_with_rubric_text_but_template_hash_does_not(tmp_path):
    edited = tmp_path / "rubric.toml"
    edited.write_text(
        RUBRIC_FILE.read_text(encoding="utf-8").replace("Unusable: off-topic", "Useless: off-topic"), encoding="utf-8"
    )
    rubric = load_rubric(edited)
    assert rubric.sha256 != load_rubric("reference-free").sha256
    base, changed = render(), render(rubric=rubric)
    assert changed.sha256 != base.sha256
    assert "Useless: off-topic" in changed.user
    assert changed.template_sha256 == base.template_sha256


def test_prompt_and_template_hashes_change_with_the_template(tmp_path):
    edited = tmp_path / "judge-custom.md"
    edited.write_text(
        TEMPLATE_FILE.read_text(encoding="utf-8").replace("Do not reward length", "Never reward length"), encoding="utf-8"
    )
    template = load_template(edited)
    assert template.name == "judge-custom"
    base, changed = render(), render(template=template)
    assert changed.template_sha256 != base.template_sha256
    assert changed.sha256 != base.sha256
    assert changed.user == base.user and "Never reward length" in changed.system


GOOD_TEMPLATE = "intro\n=== system ===\nJudge {rubric_name}.\n=== user ===\n{question}\n{answer}\n{rubric}\n"


@pytest.mark.parametrize(
    "text, problem",
    [
        (GOOD_TEMPLATE.replace("=== user ===\n", ""), "needs exactly one line '=== user ===', found 0"),
        (GOOD_TEMPLATE + "=== system ===\n", "needs exactly one line '=== system ===', found 2"),
        ("=== user ===\n{question}{answer}{rubric}\n=== system ===\nx\n", "must come before"),
        (GOOD_TEMPLATE.replace("Judge {rubric_name}.", ""), "empty system or user part"),
        (GOOD_TEMPLATE.replace("{rubric_name}", "{rubric_nmae}"), "unknown placeholder {rubric_nmae}"),
        (GOOD_TEMPLATE.replace("{answer}", ""), "lacks the placeholder {answer}"),
    ],
)
def test_bad_template_is_one_line_user_error(tmp_path, text, problem):
    path = tmp_path / "t.md"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as info:
        load_template(path)
    assert str(info.value).startswith(f"{path}: ")
    assert problem in str(info.value)


def test_minimal_custom_template_renders(tmp_path):
    path = tmp_path / "t.md"
    path.write_text(GOOD_TEMPLATE, encoding="utf-8")
    rendered = render(template=load_template(path))
    assert rendered.system == "Judge reference-free."
    assert rendered.user.startswith("How does PAYROLL compute overtime pay?\nPAYROLL calls TAXCALC")


def test_unknown_or_missing_templates(tmp_path):
    with pytest.raises(UserError, match="unknown prompt template 'judge-v9'; bundled: judge-dimensions-v1"):
        load_template("judge-v9")
    with pytest.raises(UserError, match="prompt template not found"):
        load_template(tmp_path / "absent.md")


# ---- the reply schema ----------------------------------------------------------------------

GOOD_REPLY = {"accuracy": 30, "completeness": 0, "traceability": 12, "usefulness": 20, "rationale": "Cites lines."}


def test_schema_accepts_scores_within_range_including_the_bounds():
    schema = judgement_schema(load_rubric("reference-free"))
    reply = schema.model_validate(GOOD_REPLY)
    assert (reply.accuracy, reply.completeness, reply.traceability, reply.usefulness) == (30, 0, 12, 20)
    assert schema.model_validate_json(json.dumps(GOOD_REPLY)).rationale == "Cites lines."


@pytest.mark.parametrize(
    "change",
    [
        {"accuracy": 31},
        {"usefulness": 21},
        {"completeness": -1},
        {"accuracy": "25"},
        {"accuracy": 25.5},
        {"accuracy": 25.0},
        {"accuracy": True},
        {"accuracy": None},
        {"rationale": ""},
        {"overall": 90},
    ],
)
def test_schema_rejects_out_of_range_wrong_types_and_extra_fields(change):
    schema = judgement_schema(load_rubric("reference-free"))
    with pytest.raises(ValidationError):
        schema.model_validate({**GOOD_REPLY, **change})
    with pytest.raises(ValidationError):
        schema.model_validate_json(json.dumps({**GOOD_REPLY, **change}))


def test_schema_rejects_a_missing_dimension():
    schema = judgement_schema(load_rubric("reference-free"))
    reply = dict(GOOD_REPLY)
    del reply["traceability"]
    with pytest.raises(ValidationError):
        schema.model_validate(reply)


def test_json_schema_sent_to_providers_carries_the_ranges():
    js = judgement_schema(load_rubric("reference-free")).model_json_schema()
    assert js["additionalProperties"] is False
    assert sorted(js["required"]) == ["accuracy", "completeness", "rationale", "traceability", "usefulness"]
    ranges = {k: (v["minimum"], v["maximum"], v["type"]) for k, v in js["properties"].items() if k != "rationale"}
    assert ranges == {
        "accuracy": (0, 30, "integer"),
        "completeness": (0, 25, "integer"),
        "traceability": (0, 25, "integer"),
        "usefulness": (0, 20, "integer"),
    }


def test_schema_follows_a_custom_rubric_minimum(tmp_path):
    path = tmp_path / "likert.toml"
    path.write_text(
        'schema_version = 1\nkind = "dimensions"\nname = "likert"\nversion = 1\n'
        '[[dimensions]]\nname = "clarity"\nmin = 1\nmax = 5\ndescription = "d"\n'
        'bands = [{min = 1, max = 5, descriptor = "any"}]\n',
        encoding="utf-8",
    )
    schema = judgement_schema(load_rubric(path))
    assert schema.model_validate({"clarity": 1, "rationale": "r"}).clarity == 1
    with pytest.raises(ValidationError):
        schema.model_validate({"clarity": 0, "rationale": "r"})
    assert "clarity" in schema.model_fields and "accuracy" not in schema.model_fields
