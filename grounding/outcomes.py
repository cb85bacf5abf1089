"""A claim's checks recorded per fact: which fact each check answered, and which facts no check reached.

The checkers of checks.py answer one fact each (the verifier stamps the fact's index); a relation check of
verify.py answers the relation fact whose object is the reference it checked; the checks of a cited path
and of the name it places answer the defined-at fact. A fact none of them answered is recorded `unchecked` with ``ruled``
False: the verdict rule as applied leaves it out (docs/grounding.md), and the LLM verifier, when used, is
asked about it like any other unchecked fact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundjudge.grounding.facts import Fact, Predicate, Span
from groundjudge.grounding.models import CheckOutcome, Claim, FactCheck

if TYPE_CHECKING:  # verify.py records its checks through this module
    from groundjudge.grounding.verify import CheckResult

# The predicates verify.py's relation checks settle, for the reference named as the fact's object.
RELATION_PREDICATES = frozenset(
    {
        Predicate.CALLS,
        Predicate.READS,
        Predicate.WRITES,
        Predicate.REWRITES,
        Predicate.DELETES,
        Predicate.TRANSFERS_CONTROL,
        Predicate.LINKS,
        Predicate.CALLS_PROGRAM,
        Predicate.COPIES,
        Predicate.IMPORTS,
        Predicate.DEFINED_AT,
    }
)


def describe(fact: Fact, text: str) -> str:
    """A fact in one line, for a reason or a prompt: `raises(load_journal, LedgerError) "raises"`."""
    terms = [t.value for t in (fact.by, fact.subject, fact.object) if t is not None]
    terms += [v for v in (fact.value, fact.file) if v and v.strip("`") not in terms]
    words = " ".join(text[fact.span[0] : fact.span[1]].split())
    return f'{fact.predicate.value}({", ".join(terms)}) "{words}"' if terms else f'{fact.predicate.value} "{words}"'


def _answering_facts(claim: Claim) -> tuple[dict[Span, int], dict[Span, int]]:
    """For the span of a reference, the first fact a relation check of it answers (the relation's object), and
    the first a check of it answers as a definition's place (the cited path, or the name placed): read off
    the facts once per claim, not once per check."""
    relations: dict[Span, int] = {}
    places: dict[Span, int] = {}
    for i, fact in enumerate(claim.facts):
        if fact.predicate in RELATION_PREDICATES and fact.object is not None:
            relations.setdefault(fact.object.span, i)
        # a definition's place is settled by the checks of the cited path and of the name placed
        if fact.predicate is Predicate.DEFINED_AT:
            for span in (fact.span if fact.file else None, fact.subject.span if fact.subject is not None else None):
                if span is not None:
                    places.setdefault(span, i)
    return relations, places


def _answered_fact(claim: Claim, check: CheckResult, relations: dict[Span, int], places: dict[Span, int]) -> int | None:
    if check.fact is not None or check.ref is None:
        return check.fact
    ref = claim.refs[check.ref]
    span = (ref.start, ref.end)
    found = [i for i in (relations.get(span) if check.relation else None, places.get(span)) if i is not None]
    return min(found, default=None)


def record_checks(claim: Claim, checks: list[CheckResult]) -> list[FactCheck]:
    """The checks as recorded outcomes, then one `unchecked` outcome per fact no check answered."""
    relations, places = _answering_facts(claim)
    answers = [_answered_fact(claim, c, relations, places) for c in checks]
    recorded = [
        FactCheck(
            fact=fact,
            ref=c.ref,
            outcome=c.outcome,  # the checker's word, which the model's validation makes the CheckOutcome member
            message=c.message,
            evidence=c.evidence,
            relation=c.relation,
        )
        for c, fact in zip(checks, answers)
    ]
    answered = set(answers)
    recorded += [
        FactCheck(
            fact=i,
            outcome=CheckOutcome.UNCHECKED,
            message=f"no check settled {describe(fact, claim.text)}",
            ruled=False,
        )
        for i, fact in enumerate(claim.facts)
        if i not in answered
    ]
    return recorded
