"""Criterion scoring with a P0 cap: pure functions from verdicts to item and run figures.

Per item, for a candidate that emitted a non-empty patch (docs/rubrics.md has worked examples):

    R  = requirements + conditionals whose trigger held (verdict not ``not_triggered``)
    G  = guardrails with verdict ``violated``
    q~ = 100 * max(0, passes in R - |G|) / |R|          (0 when R is empty)
    q  = min(q~, 60) if a P0 criterion in R failed or a P0 guardrail was violated, else q~

The item is P0-clean when no P0 criterion failed and no P0 guardrail was violated. On an item that
needs an update, an abstention or an empty patch scores q = 0.

Every run-level figure is on a 0-100 scale (rates as percentages) so that the composite
C = 2DN / (D + N) is the harmonic mean of two figures on the same scale. A figure whose denominator
is empty is ``None`` (undefined), never 0.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from groundjudge.rubrics.criteria import CriterionItem, CriterionRubric
from groundjudge.storage import VersionedModel

P0_CAP = 60.0


class CriterionVerdict(str, Enum):
    PASS = "pass"
    FAIL = "fail"
    VIOLATED = "violated"  # guardrails only
    NOT_TRIGGERED = "not_triggered"  # conditionals only


ALLOWED: dict[str, frozenset[CriterionVerdict]] = {
    "requirement": frozenset({CriterionVerdict.PASS, CriterionVerdict.FAIL}),
    "conditional": frozenset({CriterionVerdict.PASS, CriterionVerdict.FAIL, CriterionVerdict.NOT_TRIGGERED}),
    "guardrail": frozenset({CriterionVerdict.PASS, CriterionVerdict.VIOLATED}),
}

# What the candidate did for one item. "empty_patch" is a decision to change the code that
# delivered no change: it counts as emitting (not abstaining) but is not a valid patch.
Decision = Literal["patch", "empty_patch", "abstain"]


class ItemResponse(BaseModel):
    """A candidate's decision on one item and, for a patch, one verdict per criterion of the item."""

    model_config = ConfigDict(extra="forbid")

    item_id: str
    decision: Decision
    verdicts: dict[str, CriterionVerdict] = {}


class ItemResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    item_id: str
    needs_update: bool
    decision: Decision
    quality: float | None  # q; None when there is no patch to score on an item needing no update
    raw_quality: float | None  # q~ before the P0 cap
    p0_clean: bool | None  # None when no patch was evaluated
    required: int = 0  # |R|
    passed: int = 0  # passes in R
    violated: int = 0  # |G|
    p0_failures: list[str] = []  # ids of failed P0 criteria in R and violated P0 guardrails, sorted

    @model_validator(mode="after")
    def _consistent(self) -> ItemResult:
        if self.needs_update and self.quality is None:
            raise ValueError(f"item {self.item_id!r} needs an update, so it has a quality (0 when missed)")
        if self.valid_patch != (self.p0_clean is not None):
            raise ValueError(f"item {self.item_id!r}: p0_clean is set exactly when a patch was evaluated")
        return self

    @property
    def emitted(self) -> bool:
        return self.decision != "abstain"

    @property
    def valid_patch(self) -> bool:
        return self.decision == "patch"


class RunMetrics(BaseModel):
    """Run-level figures, all on 0-100; None when undefined (empty denominator)."""

    model_config = ConfigDict(extra="forbid")

    items: int
    needs_update_items: int
    no_update_items: int
    valid_patches: int
    abstentions: int
    delivered_quality: float | None  # D
    conditional_quality: float | None
    abstention_recall: float | None  # N
    composite: float | None  # C
    decision_accuracy: float | None
    p0_clean_delivery_rate: float | None


class CriterionResponses(VersionedModel):
    """On-disk format (JSON) of one candidate's responses to a criterion rubric."""

    schema_version: Literal[1] = 1
    candidate: str = ""
    rubric_sha256: str | None = None  # when given, the rubric scored against must have this hash
    responses: list[ItemResponse]


class CriterionRunSummary(VersionedModel):
    """On-disk format (JSON) of one candidate's scored run: per-item results and the run figures."""

    schema_version: Literal[1] = 1
    rubric: str
    rubric_sha256: str
    candidate: str = ""
    responses_sha256: str | None = None  # of the responses file, when scored from one
    metrics: RunMetrics
    items: list[ItemResult]


def capped_quality(required: int, passed: int, violated: int, p0_failure: bool) -> tuple[float, float]:
    """(q~, q) from |R|, passes in R, |G| and whether any P0 failed or was violated."""
    if not 0 <= passed <= required or violated < 0:
        raise ValueError(f"inconsistent counts: |R|={required}, passes={passed}, |G|={violated}")
    raw = 100.0 * max(0, passed - violated) / required if required else 0.0
    return raw, (min(raw, P0_CAP) if p0_failure else raw)


def _check_verdicts(item: CriterionItem, response: ItemResponse) -> None:
    if response.decision != "patch":
        if response.verdicts:
            raise ValueError(f"item {item.id!r}: verdicts given for a response without a patch ({response.decision})")
        return
    expected = {c.id for c in item.criteria}
    given = set(response.verdicts)
    if given - expected:
        raise ValueError(f"item {item.id!r}: verdict for unknown criterion {sorted(given - expected)[0]!r}")
    if expected - given:
        raise ValueError(f"item {item.id!r}: no verdict for criterion {sorted(expected - given)[0]!r}")
    for criterion in item.criteria:
        verdict = response.verdicts[criterion.id]
        if verdict not in ALLOWED[criterion.type]:
            allowed = ", ".join(sorted(v.value for v in ALLOWED[criterion.type]))
            raise ValueError(
                f"item {item.id!r}: criterion {criterion.id!r} is a {criterion.type}; "
                f"its verdict must be one of {allowed}, got {verdict.value!r}"
            )


def score_item(item: CriterionItem, response: ItemResponse) -> ItemResult:
    """q for one item. Raises ValueError when the response does not fit the item."""
    if response.item_id != item.id:
        raise ValueError(f"response for item {response.item_id!r} given to item {item.id!r}")
    _check_verdicts(item, response)
    if response.decision != "patch":
        zero = 0.0 if item.needs_update else None
        return ItemResult(
            item_id=item.id,
            needs_update=item.needs_update,
            decision=response.decision,
            quality=zero,
            raw_quality=zero,
            p0_clean=None,
        )
    required = passed = violated = 0
    p0_failures: list[str] = []
    for criterion in item.criteria:
        verdict = response.verdicts[criterion.id]
        if criterion.type == "guardrail":
            if verdict is CriterionVerdict.VIOLATED:
                violated += 1
                if criterion.priority == "P0":
                    p0_failures.append(criterion.id)
        elif verdict is not CriterionVerdict.NOT_TRIGGERED:
            required += 1
            if verdict is CriterionVerdict.PASS:
                passed += 1
            elif criterion.priority == "P0":
                p0_failures.append(criterion.id)
    raw, quality = capped_quality(required, passed, violated, bool(p0_failures))
    return ItemResult(
        item_id=item.id,
        needs_update=item.needs_update,
        decision="patch",
        quality=quality,
        raw_quality=raw,
        p0_clean=not p0_failures,
        required=required,
        passed=passed,
        violated=violated,
        p0_failures=sorted(p0_failures),
    )


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _percent(hits: int, total: int) -> float | None:
    return 100.0 * hits / total if total else None


def harmonic_composite(d: float | None, n: float | None) -> float | None:
    """C = 2DN/(D+N); 0 when D+N = 0; None when either input is undefined."""
    if d is None or n is None:
        return None
    return 2.0 * d * n / (d + n) if d + n else 0.0


def run_metrics(results: list[ItemResult]) -> RunMetrics:
    """Run-level figures from item results (definitions in the module docstring and docs/rubrics.md).

    - delivered quality D: mean q over items that need an update; an abstention or empty patch there
      has q = 0, so a missed item pulls D down.
    - conditional quality: mean q over every item with a valid (non-empty) emitted patch, whether or
      not the item needed an update; a patch on an item needing none usually has R empty, so q = 0.
    - abstention recall N: 100 * (items not needing an update on which the candidate abstained)
      / (items not needing an update). An empty patch is not an abstention.
    - composite C = 2DN/(D+N).
    - decision accuracy: 100 * (items where "emitted" (patch or empty patch) equals needs_update)
      / (all items).
    - P0-clean delivery rate: 100 * (items needing an update with a valid patch that is P0-clean)
      / (items needing an update).
    """
    needs = [r for r in results if r.needs_update]
    no_update = [r for r in results if not r.needs_update]
    patches = [r for r in results if r.valid_patch]
    d = _mean([r.quality for r in needs if r.quality is not None])
    n = _percent(sum(1 for r in no_update if r.decision == "abstain"), len(no_update))
    return RunMetrics(
        items=len(results),
        needs_update_items=len(needs),
        no_update_items=len(no_update),
        valid_patches=len(patches),
        abstentions=sum(1 for r in results if r.decision == "abstain"),
        delivered_quality=d,
        conditional_quality=_mean([r.quality for r in patches if r.quality is not None]),
        abstention_recall=n,
        composite=harmonic_composite(d, n),
        decision_accuracy=_percent(sum(1 for r in results if r.emitted == r.needs_update), len(results)),
        p0_clean_delivery_rate=_percent(sum(1 for r in needs if r.valid_patch and r.p0_clean), len(needs)),
    )


def score_run(rubric: CriterionRubric, responses: list[ItemResponse], candidate: str = "") -> CriterionRunSummary:
    """Score one candidate's responses: exactly one per item of the rubric, in any order."""
    by_id: dict[str, ItemResponse] = {}
    for response in responses:
        if response.item_id in by_id:
            raise ValueError(f"two responses for item {response.item_id!r}")
        by_id[response.item_id] = response
    item_ids = {item.id for item in rubric.items}
    unknown = sorted(set(by_id) - item_ids)
    if unknown:
        raise ValueError(f"response for unknown item {unknown[0]!r}")
    missing = sorted(item_ids - set(by_id))
    if missing:
        raise ValueError(f"no response for item {missing[0]!r}")
    results = [score_item(item, by_id[item.id]) for item in sorted(rubric.items, key=lambda i: i.id)]
    return CriterionRunSummary(
        rubric=rubric.name, rubric_sha256=rubric.sha256, candidate=candidate, metrics=run_metrics(results), items=results
    )
