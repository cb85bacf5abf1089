"""Checkers for the predicates the reference checks of verify.py do not cover: inherits, has-value, raises,
catches and maps-exception, and unknown (a judgement nothing in the code can settle).

Each answers one fact with an outcome (held, contradicted, or unchecked) and evidence at the fact's own
location: the class line for inherits, the constant, parameter or data item for has-value, the raise or
except statement for raises. A fact whose subject the index cannot place (a name of another language,
a dotted name of a module) gets no outcome: the name checks of verify.py still judge it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from groundjudge.grounding.facts import Fact, Predicate
from groundjudge.grounding.index.model import Ref, Symbol
from groundjudge.grounding.models import Evidence

MAX_ANCESTRY = 8

Outcome = Literal["ok", "missing", "mismatch", "contradicted", "unchecked"]


@dataclass
class FactOutcome:
    outcome: Outcome
    message: str
    evidence: list[Evidence] = field(default_factory=list)


def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _defs(lk: Any, name: str, kinds: set[str]) -> list[Symbol]:
    """Definitions of a (possibly dotted) name of the given kinds; `Owner.attr` keeps those whose parent is Owner."""
    owner = name.rsplit(".", 2)[-2] if "." in name else None
    defs = [d for d in lk.definitions(_last(name)) if d.kind in kinds]
    if owner is not None:
        defs = [d for d in defs if d.detail.get("parent") in (owner, None)] or defs
    return defs


def _sym_evidence(lk: Any, sym: Symbol, note: str) -> Evidence:
    return lk.snippet(sym.path, sym.start_line, sym.start_line, note=note)


def _ref_evidence(lk: Any, ref: Ref, note: str) -> Evidence:
    return lk.snippet(ref.path, ref.line, ref.line, note=note)


def normalize_value(value: str) -> str:
    """Values compare without quotes, a COBOL VALUE keyword, digit separators or case: `VALUE 1` == 1,
    10_000_000_00 == 1000000000, 'E' == "e", b"." == "."."""
    v = value.strip().rstrip(".")
    v = re.sub(r"^VALUE\s+(?:IS\s+)?", "", v, flags=re.I)
    v = re.sub(r"^[bBrRuU]{1,2}(?=[\"'])", "", v)
    v = v.strip("\"'`")
    if re.fullmatch(r"[-+]?[\d_,]+(?:\.\d+)?", v):
        v = v.replace("_", "").replace(",", "").lstrip("+")
        v = v.split(".")[0] if re.fullmatch(r"-?\d+\.0+", v) else v
    return v.upper()


def _bases(lk: Any, cls: Symbol) -> list[str]:
    return [b for b in cls.detail.get("bases", "").split(",") if b]


def _ancestors(lk: Any, cls: Symbol) -> set[str]:
    """Every base class name up the chain, as far as the snapshot defines the bases."""
    seen: set[str] = set()
    todo = _bases(lk, cls)
    while todo and len(seen) < MAX_ANCESTRY * 4:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for parent in lk.definitions(name, "class"):
            todo.extend(_bases(lk, parent))
    return seen


def check_inherits(lk: Any, fact: Fact) -> FactOutcome | None:
    if fact.subject is None or fact.object is None:
        return None
    classes = [d for d in _defs(lk, fact.subject.value, {"class"}) if "bases" in d.detail or d.language == "python"]
    if not classes:
        return None
    base = _last(fact.object.value)
    for cls in classes:
        if base in _ancestors(lk, cls):
            return FactOutcome(
                "ok",
                f"{cls.name} inherits from {base} ({cls.path}:{cls.start_line})",
                [_sym_evidence(lk, cls, f"class {cls.name}")],
            )
    cls = classes[0]
    has = ", ".join(_bases(lk, cls)) or "no base class"
    return FactOutcome(
        "contradicted",
        f"{cls.name} inherits from {has} ({cls.path}:{cls.start_line}), not {base}",
        [_sym_evidence(lk, cls, f"class {cls.name}")],
    )


_VALUE_KINDS = {"constant": "value", "data_item": "value"}


def _defaults(lk: Any, param: str, functions: set[str]) -> list[tuple[Symbol, str]]:
    """(function, default) for each function declaring a default for param: those the claim names, else all."""
    out = []
    for kind in ("function", "method"):
        for fn in lk.definitions(None, kind):
            for pair in filter(None, fn.detail.get("defaults", "").split(";")):
                name, _, value = pair.partition("=")
                if name == param:
                    out.append((fn, value))
    return [o for o in out if o[0].name in functions] or out


def check_has_value(lk: Any, fact: Fact, names: list[str]) -> FactOutcome | None:
    """A constant's value, a parameter's default (of the function the claim also names, when it names one),
    or a data item's VALUE clause (only when the claim speaks of an initial value: a COBOL item's content
    changes as the program runs)."""
    if fact.subject is None or fact.value is None:
        return None
    holders: list[tuple[Symbol, str, str]] = [
        (d, d.detail["value"], f"{d.name} is")
        for d in _defs(lk, fact.subject.value, set(_VALUE_KINDS))
        if "value" in d.detail and (fact.initial or d.kind != "data_item")
    ]
    if not holders:
        functions = {_last(n) for n in names if n != fact.subject.value}
        param = _last(fact.subject.value)
        holders = [(fn, v, f"{param} of {fn.name} defaults to") for fn, v in _defaults(lk, param, functions)]
    if not holders:
        return None
    claimed = normalize_value(fact.value)
    for d, value, said in holders:
        if normalize_value(value) == claimed:
            return FactOutcome("ok", f"{said} {value} ({d.path}:{d.start_line})", [_sym_evidence(lk, d, f"{d.kind} {d.name}")])
    d, value, said = holders[0]
    return FactOutcome(
        "contradicted",
        f"{said} {value} ({d.path}:{d.start_line}), not {fact.value}",
        [_sym_evidence(lk, d, f"{d.kind} {d.name}")],
    )


def _body_refs(lk: Any, fn: Symbol, kind: str) -> list[Ref]:
    return [r for r in lk.references(None, kind, fn.path) if fn.start_line <= r.line <= fn.end_line]


def _is_a(lk: Any, raised: str, wanted: str) -> bool:
    """Is the raised class the wanted one or a subclass of it (BadTimeSignature is a BadSignature)?"""
    return raised == wanted or any(wanted in _ancestors(lk, c) for c in lk.definitions(raised, "class"))


def _check_statements(lk: Any, fact: Fact, kind: str, verb: str) -> FactOutcome | None:
    """raises / catches: the subject function's own raise or except statements, then those of the
    functions it calls (one level: "`unsign` raises X" holds when a helper it calls raises X)."""
    if fact.subject is None or fact.object is None:
        return None
    functions = _defs(lk, fact.subject.value, {"function", "method"})
    if not functions:
        return None
    wanted = _last(fact.object.value)
    statements = [r for fn in functions for r in _body_refs(lk, fn, kind)]
    if not statements:
        return None  # nothing of that kind in its body (a runtime error, a re-raise by a callee): not decided here
    for r in statements:
        if _is_a(lk, r.target, wanted):
            return FactOutcome(
                "ok", f"{fact.subject.value} {verb} {r.target} ({r.path}:{r.line})", [_ref_evidence(lk, r, f"{kind} {r.target}")]
            )
    callees = {c.target for fn in functions for c in _body_refs(lk, fn, "call")}
    for callee in sorted(callees):
        for fn in lk.definitions(callee):
            if fn.kind not in ("function", "method"):
                continue
            for r in _body_refs(lk, fn, kind):
                if _is_a(lk, r.target, wanted):
                    return FactOutcome(
                        "ok",
                        f"{fact.subject.value} {verb} {r.target} through {callee} ({r.path}:{r.line})",
                        [_ref_evidence(lk, r, f"{kind} {r.target}")],
                    )
    shown = ", ".join(sorted({r.target for r in statements}))
    first = statements[0]
    return FactOutcome(
        "contradicted",
        f"{fact.subject.value} {verb} {shown} ({first.path}:{first.line}), not {wanted}",
        [_ref_evidence(lk, first, f"{kind} {first.target}")],
    )


def check_raises(lk: Any, fact: Fact) -> FactOutcome | None:
    return _check_statements(lk, fact, "raise", "raises")


def check_catches(lk: Any, fact: Fact) -> FactOutcome | None:
    return _check_statements(lk, fact, "except", "catches")


def check_unknown(lk: Any, fact: Fact, text: str) -> FactOutcome:
    word = text[fact.span[0] : fact.span[1]]
    return FactOutcome("unchecked", f'"{word}" states a judgement or a runtime behaviour the code cannot settle')


CHECKERS: dict[Predicate, Callable[..., FactOutcome | None]] = {
    Predicate.INHERITS: check_inherits,
    Predicate.RAISES: check_raises,
    Predicate.CATCHES: check_catches,
}


def check_fact(lk: Any, fact: Fact, text: str, names: list[str]) -> FactOutcome | None:
    """The outcome of one fact with a checker here; None when this module has nothing to say about it
    (its relation is checked by verify.py's reference checks, or its subject is not indexed)."""
    if fact.predicate is Predicate.UNKNOWN:
        return check_unknown(lk, fact, text)
    if fact.predicate is Predicate.HAS_VALUE:
        return check_has_value(lk, fact, names)
    checker = CHECKERS.get(fact.predicate)
    return checker(lk, fact) if checker is not None else None
