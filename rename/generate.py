"""Seeded generation of shape-preserving replacement tokens.

A token keeps the original's length, its ``-``/``_`` (and any other non-alphanumeric) characters in
place, a digit where it has a digit and a letter of the same case where it has a letter. A candidate
is refused when it equals a token of the corpus or one already issued, is a reserved word, starts
with a system prefix, contains a keep-list term, a reserved word of three or more characters, an
English word of four or more letters or an original identifier, or (programs) repeats another
program's first 8 characters.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterable
from dataclasses import dataclass, field

from groundjudge.errors import UserError
from groundjudge.rename.vocabulary import ibm_supplied

MAX_ATTEMPTS = 5000
DIGITS = string.digits


@dataclass
class Rejection:
    original: str
    candidate: str
    reason: str


@dataclass
class TokenRules:
    corpus_tokens: set[str]  # upper-cased
    reserved: frozenset[str]
    keep_terms: list[str]  # upper-cased
    originals: list[str]  # upper-cased
    program_names: set[str]  # upper-cased, every program of the repository
    words: frozenset[str] = frozenset()  # upper-cased English words a token must not contain (4+ letters)
    substrings: set[str] = field(init=False)
    min_sub: int = field(init=False)

    def __post_init__(self) -> None:
        self.substrings = (
            {w for w in self.reserved if len(w) >= 3}
            | set(self.keep_terms)
            | set(self.originals)
            | {w for w in self.words if len(w) >= 4}
        )
        self.min_sub = min((len(w) for w in self.substrings), default=1)


def draw(original: str, rng: random.Random, letters: str) -> str:
    """One candidate in the shape of ``original``; ``letters`` is the upper-case alphabet to draw from."""
    out = []
    for c in original:
        if c.isdigit():
            out.append(rng.choice(DIGITS))
        elif c.isupper():
            out.append(rng.choice(letters))
        elif c.islower():
            out.append(rng.choice(letters).lower())
        else:
            out.append(c)
    return "".join(out)


def refusal(candidate: str, rules: TokenRules, issued: set[str], fixed: int = 0) -> str | None:
    """Why a candidate may not be issued, or None if it may. The first ``fixed`` characters are a kept
    prefix (``test_``): only the drawn rest is searched for words."""
    up = candidate.upper()
    if up in issued:
        return "already issued"
    if up in rules.corpus_tokens:
        return "already a token of the corpus"
    if up in rules.reserved:
        return "reserved word"
    if ibm_supplied(up):
        return "system prefix"
    n = len(up)
    hits = {up[i : i + size] for size in range(rules.min_sub, n + 1) for i in range(fixed, n - size + 1)} & rules.substrings
    if not hits:
        return None
    # the most specific reason first: QLEDGERQ is refused for the keep term LEDGER, not the word EDGE
    for label, group in (
        ("keep term", rules.keep_terms),
        ("reserved word", rules.reserved),
        ("original identifier", rules.originals),
    ):
        if found := sorted(hits.intersection(group)):
            return f"contains {label} {found[0]}"
    return f"contains English word {min(hits)}"


def generate(
    originals: list[tuple[str, str, list[str]]],
    rules: TokenRules,
    seed: int,
    letters: str = string.ascii_uppercase,
) -> tuple[dict[str, str], list[Rejection]]:
    """Map each original to a new token. ``originals`` is (name, class, derived suffixes/prefixes)
    in a fixed order; a derived form is written ``+I`` (suffix) or ``S-+`` (prefix) around the base
    and must pass the same rules as the base, else the base is drawn again."""
    rng = random.Random(seed)
    issued: set[str] = set()
    prefixes8 = {p[:8].replace("-", "0") for p in rules.program_names}
    result: dict[str, str] = {}
    rejections: list[Rejection] = []
    for name, cls, derived in originals:
        fixed = fixed_prefix(name, cls)
        for _ in range(MAX_ATTEMPTS):
            cand = fixed + draw(name[len(fixed) :], rng, letters)
            why = refusal(cand, rules, issued, len(fixed))
            if why is None and cls == "program" and cand.upper()[:8].replace("-", "0") in prefixes8:
                why = "first 8 characters repeat a program name"
            forms = [_derive(cand, pattern) for pattern in derived]
            for form in forms:
                if why is None:
                    why = refusal(form, rules, issued | {cand.upper()})
                    why = f"derived {form}: {why}" if why else None
            if why is None:
                break
            rejections.append(Rejection(name, cand, why))
        else:
            raise UserError(f"cannot generate a token for {name!r} in {MAX_ATTEMPTS} attempts (name space too small)")
        result[name] = cand
        issued.add(cand.upper())
        issued.update(f.upper() for f in forms)
        if cls == "program":
            prefixes8.add(cand.upper()[:8].replace("-", "0"))
    return result, rejections


# pytest collects test_*.py, test_* functions and Test* classes: a renamed test keeps that prefix, or
# the renamed suite would collect nothing
TEST_PREFIXES = {"module": ("test_",), "function": ("test_",), "method": ("test_",), "class": ("Test",)}


def fixed_prefix(name: str, cls: str) -> str:
    return next((p for p in TEST_PREFIXES.get(cls, ()) if name.startswith(p) and len(name) > len(p)), "")


def _derive(base: str, pattern: str) -> str:
    return pattern.replace("+", base)


def ordered(found: Iterable[tuple[str, str]], class_order: tuple[str, ...]) -> list[tuple[str, str]]:
    """Deterministic generation order: by class, then by upper-cased name, then by name."""
    return sorted(found, key=lambda nc: (class_order.index(nc[1]), nc[0].upper(), nc[0]))
