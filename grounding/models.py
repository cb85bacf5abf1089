"""The grounding stage's data: claims, verdicts, evidence, and the per-answer report.

answer -> claims (``Claim``) -> verdicts (``VerifiedClaim``) -> ``GroundingReport`` on disk.
The judging stage reads ``GroundingReport``; it never re-grounds.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field

from groundjudge.grounding.facts import Fact
from groundjudge.storage import VersionedModel


class Verdict(str, Enum):
    SUPPORTED = "SUPPORTED"
    PARTIALLY_SUPPORTED = "PARTIALLY_SUPPORTED"
    UNSUPPORTED = "UNSUPPORTED"
    UNABLE_TO_VERIFY = "UNABLE_TO_VERIFY"


ClaimRefKind = Literal["path", "identifier", "value"]
Relation = Literal["defines", "calls", "copies", "reads", "writes", "transfers"]


class ClaimRef(BaseModel):
    """One checkable reference inside a claim unit, as written and normalised."""

    kind: ClaimRefKind
    text: str  # as written in the answer
    value: str  # normalised: a relative path, an identifier, a literal value
    start_line: int | None = None  # for path refs with a cited line or range
    end_line: int | None = None
    value_kind: str | None = None  # for values: "pic", "usage", "initial" (a VALUE clause), "number", "string"
    # A strict reference that resolves nowhere counts against the claim; a loose one (an all-caps word
    # or a bare number in prose, which may just be English or a count) counts only when it resolves.
    strict: bool = True
    # Where the reference stands in the claim's text (character offsets), recorded by the extractor so no
    # later stage has to find it again by searching the text.
    start: int = 0
    end: int = 0


class Claim(BaseModel):
    id: str  # stable within one answer: "c1", "c2", ...
    text: str  # the claim unit's own words
    answer_line: int  # 1-based line of the unit in the answer
    code: str | None = None  # a code block that goes with the claim
    context: str | None = None  # program or file carried over from a preceding unit or heading
    # The program or file of the enclosing heading, when a later unit moved `context` elsewhere (a
    # copybook cited inside a program's section): "here" may still mean the heading's program.
    topic: str | None = None
    refs: list[ClaimRef] = []
    relations: list[Relation] = []
    facts: list[Fact] = []  # what the claim asserts, typed (grounding/facts.py)
    # The claim whose subject `context` was carried from; a later stage falls back to `topic` when that
    # claim's facts did not hold (its subject may be the answer's mistake, not this claim's).
    context_from: str | None = None


class Evidence(BaseModel):
    path: str
    start_line: int
    end_line: int
    snippet: str  # at most ~15 lines
    note: str | None = None


class VerifierKind(str, Enum):
    """What decided a claim's verdict, for a reader that must tell whether a report was made with or
    without an LLM verifier (``verifier`` is the name for people)."""

    DETERMINISTIC = "deterministic"
    LLM = "llm"
    LLM_FAILED = "llm_failed"  # the LLM verifier was asked and gave no verdict: it is asked again next run


class CheckOutcome(str, Enum):
    """What one check of a claim found. The values are those of ``grounding.checks.Outcome``, which the
    checkers return, so a recorded outcome is the checker's own word."""

    HELD = "ok"
    CONTRADICTED = "contradicted"
    MISSING = "missing"  # the name, file or value exists nowhere: fabrication
    MISMATCH = "mismatch"  # entity and relation right, a qualifier off
    UNCHECKED = "unchecked"  # nothing in the code settled it (yet)


class FactCheck(BaseModel):
    """One check of a claim as the verifier recorded it, so a later stage (the LLM verifier, a reader of
    the report) never re-derives it. A check is about one of the claim's facts, one of its references, or
    the claim as a whole (both None)."""

    fact: int | None = None  # index into the claim's facts
    ref: int | None = None  # index into the claim's refs
    outcome: CheckOutcome
    message: str
    evidence: list[Evidence] = []
    # A stated relation or value (not only a name) that was checked: one that held lets a claim with a
    # contradicted fact be PARTIALLY_SUPPORTED (verify.decide).
    relation: bool = False
    # False for a fact no checker reached: the verdict rule, as applied, leaves it out (docs/grounding.md,
    # "Precision-first, as applied"); the LLM verifier may still settle it.
    ruled: bool = True
    verifier_kind: VerifierKind = VerifierKind.DETERMINISTIC  # LLM: the LLM verifier's answer; LLM_FAILED: asked, no answer


class VerifiedClaim(Claim):
    verdict: Verdict
    reason: str
    evidence: list[Evidence] = []
    verifier: str = "deterministic"
    verifier_kind: VerifierKind = VerifierKind.DETERMINISTIC
    # Every check of the claim and every fact no check reached, in the order they were made. None: a report
    # made before checks were recorded (its grounder fingerprint differs, so it is regrounded).
    checks: list[FactCheck] | None = None

    def llm_failed(self) -> bool:
        """The LLM verifier was asked about this claim and gave no answer: it is asked again next run."""
        kinds = [self.verifier_kind, *(c.verifier_kind for c in self.checks or [])]
        return VerifierKind.LLM_FAILED in kinds


class CorpusRef(BaseModel):
    name: str
    tree_hash: str


class AnswerRef(BaseModel):
    path: str
    sha256: str


class GroundingReport(VersionedModel):
    schema_version: Literal[1] = 1
    tool_version: str
    corpus: CorpusRef
    answer: AnswerRef
    extractor: str
    # The question's subject (questions.Question.subject) the claims fell back to when no heading or earlier
    # claim named theirs: an input of the report, so a changed question set regrounds it.
    subject: str | None = None
    # sha256 of the grounding code, rule files and LLM helper settings that made this report
    # (grounding/fingerprint.py); a report from another grounder is redone. None: made before it was recorded.
    grounder: str | None = None
    claims: list[VerifiedClaim]
    counts: dict[Verdict, int] = Field(default_factory=dict)
    note: str | None = None  # e.g. why a non-empty answer yielded no claim units
