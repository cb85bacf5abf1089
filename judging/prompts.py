"""Judge prompts: versioned template files, deterministic rendering, and the judge's reply schema.

A template is a Markdown file with a system part and a user part (format in docs/rubrics.md) and a
fixed set of ``{name}`` placeholders. Rendering is a single pass, so text inside the answer that
looks like a placeholder is never substituted. The rendered prompt's sha256 identifies exactly what
a judge was shown; the template's sha256 identifies the file it came from.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, create_model

from groundjudge.errors import UserError
from groundjudge.grounding.models import GroundingReport, Verdict, VerifiedClaim
from groundjudge.hashing import sha256_bytes, sha256_json
from groundjudge.questions import Question
from groundjudge.rubrics import Rubric

TEMPLATES = Path(__file__).resolve().parent / "templates"
DEFAULT_TEMPLATE = "judge-dimensions-v1"
NOT_AVAILABLE = "Not available"

SYSTEM_MARKER = "=== system ==="
USER_MARKER = "=== user ==="

# Optional reports another stage may supply; absent or blank ones render as NOT_AVAILABLE.
EXTRAS = ("baseline_comparison", "coverage_gap")
CORE = (
    "question",
    "question_id",
    "question_category",
    "question_difficulty",
    "must_touch",
    "answer",
    "rubric",
    "rubric_name",
    "rubric_version",
    "total_max",
    "grounding",
    "output_format",
)
PLACEHOLDERS = frozenset(CORE + EXTRAS)
REQUIRED = ("question", "answer", "rubric")

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class Template(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    source: str
    system: str
    user: str
    sha256: str  # of the file's bytes


class RenderedPrompt(BaseModel):
    model_config = ConfigDict(frozen=True)

    system: str
    user: str
    sha256: str  # sha256 of the canonical JSON ["system text", "user text"]
    template_sha256: str


def _resolve(name: str | Path) -> Path:
    spec = str(name)
    path = Path(spec)
    if path.is_file():
        return path
    if "/" in spec or "\\" in spec or spec.endswith(".md"):
        raise UserError("prompt template not found", path)
    bundled = TEMPLATES / f"{spec}.md"
    if bundled.is_file():
        return bundled
    known = ", ".join(sorted(p.stem for p in TEMPLATES.glob("*.md")))
    raise UserError(f"unknown prompt template {spec!r}; bundled: {known}; or give a path to a .md file")


def parse_template(text: str, where: str | Path) -> tuple[str, str]:
    """Split a template into its system and user parts and check its placeholders."""
    lines = text.splitlines()
    marks = {m: [i for i, line in enumerate(lines) if line.strip() == m] for m in (SYSTEM_MARKER, USER_MARKER)}
    for marker, found in marks.items():
        if len(found) != 1:
            raise UserError(f"prompt template needs exactly one line {marker!r}, found {len(found)}", where)
    s, u = marks[SYSTEM_MARKER][0], marks[USER_MARKER][0]
    if u < s:
        raise UserError(f"{SYSTEM_MARKER!r} must come before {USER_MARKER!r}", where)
    system = "\n".join(lines[s + 1 : u]).strip()
    user = "\n".join(lines[u + 1 :]).strip()
    if not system or not user:
        raise UserError("prompt template has an empty system or user part", where)
    used = set(_PLACEHOLDER.findall(system + "\n" + user))
    unknown = sorted(used - PLACEHOLDERS)
    if unknown:
        raise UserError(f"unknown placeholder {{{unknown[0]}}}; known: {', '.join(sorted(PLACEHOLDERS))}", where)
    missing = [p for p in REQUIRED if p not in used]
    if missing:
        raise UserError(f"prompt template lacks the placeholder {{{missing[0]}}}", where)
    return system, user


def load_template(name: str | Path = DEFAULT_TEMPLATE) -> Template:
    """A bundled template by name (``judge-dimensions-v1``) or a path to a template file."""
    path = _resolve(name)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read ({exc.strerror})", path) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("prompt template is not UTF-8 text", path) from None
    system, user = parse_template(text, path)
    return Template(name=path.stem, source=str(path), system=system, user=user, sha256=sha256_bytes(raw))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _claim_order(claim: VerifiedClaim) -> tuple[int, int, str]:
    # Answer order, with ids c2 < c10; the id breaks ties so input order never matters.
    digits = re.sub(r"\D", "", claim.id)
    return claim.answer_line, int(digits) if digits else 0, claim.id


def render_grounding(report: GroundingReport | None) -> str:
    if report is None:
        return f"{NOT_AVAILABLE} (the answer's claims were not checked against the code; judge accuracy from the answer alone)."
    counts = {v: 0 for v in Verdict}
    for claim in report.claims:
        counts[claim.verdict] += 1
    lines = [
        f"Corpus {report.corpus.name} (tree hash {report.corpus.tree_hash}); claims extracted by {report.extractor}.",
        "Counts: " + ", ".join(f"{v.value} {counts[v]}" for v in Verdict),
        "",
    ]
    if report.note:
        lines.insert(2, f"Note: {_one_line(report.note)}")
    if not report.claims:
        lines.append("No checkable claims were extracted from the answer.")
    for claim in sorted(report.claims, key=_claim_order):
        lines.append(f"- {claim.id} [{claim.verdict.value}] (answer line {claim.answer_line}): {_one_line(claim.text)}")
        lines.append(f"  Reason: {_one_line(claim.reason) or 'none given'}")
        if claim.evidence:
            ev = claim.evidence[0]
            span = f"{ev.start_line}" if ev.start_line == ev.end_line else f"{ev.start_line}-{ev.end_line}"
            lines.append(f"  Evidence: {ev.path}:{span}")
        else:
            lines.append("  Evidence: none")
    return "\n".join(lines).rstrip()


def render_rubric(rubric: Rubric) -> str:
    lines = [f"Rubric {rubric.name} (version {rubric.version}), {rubric.total_max} points in all."]
    if rubric.description:
        lines.append(_one_line(rubric.description))
    for dim in rubric.dimensions:  # the author's order: it is how the rubric reads
        lines += ["", f"### {dim.name} ({dim.min}-{dim.max})", _one_line(dim.description)]
        lines += [f"- {band.min}-{band.max}: {_one_line(band.descriptor)}" for band in dim.sorted_bands()]
    return "\n".join(lines)


def render_output_format(rubric: Rubric) -> str:
    lines = ["Give these fields:"]
    lines += [f'- "{dim.name}": an integer from {dim.min} to {dim.max}' for dim in rubric.dimensions]
    lines.append(
        '- "rationale": a short justification (at most about 150 words) naming the claims and the bands that decided each score'
    )
    return "\n".join(lines)


def _must_touch(question: Question) -> str:
    items = sorted(set(question.must_touch))
    return "\n".join(f"- {item}" for item in items) if items else "Not specified."


def render_judge_prompt(
    template: Template,
    question: Question,
    answer_text: str,
    rubric: Rubric,
    grounding: GroundingReport | None,
    extras: dict[str, str | None] | None = None,
) -> RenderedPrompt:
    """Fill the template. Unknown extras are a programming error (ValueError), not user input."""
    extras = extras or {}
    unknown = sorted(set(extras) - set(EXTRAS))
    if unknown:
        raise ValueError(f"unknown optional prompt input {unknown[0]!r}; known: {', '.join(EXTRAS)}")
    values = {
        "question": question.text.strip(),
        "question_id": question.id,
        "question_category": question.category,
        "question_difficulty": question.difficulty,
        "must_touch": _must_touch(question),
        "answer": answer_text.strip(),
        "rubric": render_rubric(rubric),
        "rubric_name": rubric.name,
        "rubric_version": str(rubric.version),
        "total_max": str(rubric.total_max),
        "grounding": render_grounding(grounding),
        "output_format": render_output_format(rubric),
    }
    for key in EXTRAS:
        value = extras.get(key)
        values[key] = value.strip() if value and value.strip() else NOT_AVAILABLE

    def fill(part: str) -> str:
        return _PLACEHOLDER.sub(lambda m: values[m.group(1)], part)

    system, user = fill(template.system), fill(template.user)
    return RenderedPrompt(system=system, user=user, sha256=sha256_json([system, user]), template_sha256=template.sha256)


@lru_cache(maxsize=64)
def _schema_for(name: str, dims: tuple[tuple[str, int, int, str], ...]) -> type[BaseModel]:
    fields: dict = {
        dim: (Annotated[int, Field(strict=True, ge=lo, le=hi, description=f"{desc} Integer from {lo} to {hi}.")], ...)
        for dim, lo, hi, desc in dims
    }
    fields["rationale"] = (str, Field(min_length=1, description="Short justification of the scores."))
    return create_model(
        "RubricJudgement",
        __config__=ConfigDict(extra="forbid", title=f"Judgement on rubric {name}"),
        **fields,
    )


def judgement_schema(rubric: Rubric) -> type[BaseModel]:
    """The judge's structured reply: one strict integer per dimension within its range, and a rationale.

    Strict integers: a string "25", a boolean or a float such as 25.5 or 25.0 fails validation, so a
    malformed reply becomes a recorded error rather than a silently coerced score. Unknown fields are
    rejected (additionalProperties: false in the JSON schema).
    """
    dims = tuple((d.name, d.min, d.max, _one_line(d.description)) for d in rubric.dimensions)
    return _schema_for(rubric.name, dims)
