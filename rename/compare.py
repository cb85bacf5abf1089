"""Token-by-token comparison of an original text with its renamed copy, shared by the tree verifier
(``verify``) and the question-set checks (``questions``), so neither has to import the other."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from groundjudge.rename.lexer import in_spans, token_spans
from groundjudge.rename.mapping import Lookup, pinned_reason
from groundjudge.rename.models import PHRASE_CLASS, Check
from groundjudge.rename.phrase import Phrases

MAX_FAILURES = 20


@dataclass
class Tally:
    """What the comparison counts besides failures: replaced occurrences per class, and every renamed
    name still present in the renamed text (whole or as a part), each with where and why it stayed."""

    occurrences: dict[str, int] = field(default_factory=dict)
    leftover: dict[str, int] = field(default_factory=dict)  # class of the name left -> occurrences
    leftovers: list[str] = field(default_factory=list)  # "file:line: TOKEN carries NAME (why)"

    def leave(self, cls: str, message: str) -> None:
        self.leftover[cls] = self.leftover.get(cls, 0) + 1
        self.leftovers.append(message)


class Checks:
    def __init__(self) -> None:
        self.failures: dict[str, list[str]] = {}
        self.counts: dict[str, int] = {}
        self.order: list[str] = []

    def declare(self, name: str) -> None:
        self.order.append(name)
        self.failures.setdefault(name, [])
        self.counts.setdefault(name, 0)

    def fail(self, name: str, message: str) -> None:
        self.counts[name] += 1
        if len(self.failures[name]) < MAX_FAILURES:
            self.failures[name].append(message)

    def result(self, details: dict[str, str]) -> list[Check]:
        checks = []
        for n in self.order:
            detail = "; ".join(x for x in (f"{self.counts[n]} failure(s)" if self.counts[n] else "", details.get(n, "")) if x)
            checks.append(Check(name=n, ok=self.counts[n] == 0, detail=detail, failures=self.failures[n]))
        return checks


def compare_text(
    original: str,
    renamed: str,
    lang: str,
    lookup: Lookup,
    phrases: Phrases,
    where: str,
    checks: Checks,
    tally: Tally,
    data: Sequence[tuple[int, int]] = (),
    data_lookup: Lookup | None = None,
) -> None:
    """The renamed text must equal the original, its phrases replaced as the map says, except at tokens
    the map names (whole or as parts), and there hold exactly the mapped token in the occurrence's
    case. Every renamed name or phrase still found in the renamed text is counted; one that no pin
    explains fails ``no_original_left``. Inside the ``data`` spans (Python string data, paths of files
    that are no code) ``data_lookup`` applies."""
    original, n = phrases.apply(original, lang, lookup, data, data_lookup)
    if n:
        tally.occurrences[PHRASE_CLASS] = tally.occurrences.get(PHRASE_CLASS, 0) + n
    _count_phrases_left(renamed, phrases, where, checks, tally, data, data_lookup)
    inside = in_spans(data)
    o_lines = original.splitlines(keepends=True)
    r_lines = renamed.splitlines(keepends=True)
    if len(o_lines) != len(r_lines):
        checks.fail("line_counts", f"{where}: {len(o_lines)} lines became {len(r_lines)}")
        return
    for n, (a, b) in enumerate(zip(o_lines, r_lines), start=1):
        if len(a.encode("utf-8")) != len(b.encode("utf-8")):
            checks.fail("line_lengths", f"{where}:{n}: {len(a.encode())} bytes became {len(b.encode())}")
    o_spans = list(token_spans(original, lang))
    if o_spans != list(token_spans(renamed, lang)) or len(original) != len(renamed):
        checks.fail("token_structure", f"{where}: token boundaries differ")
        return
    starts = [0] + [i + 1 for i, c in enumerate(original) if c == "\n"]
    last = 0
    for s, e in o_spans:
        if original[last:s] != renamed[last:s]:
            checks.fail("only_mapped_tokens_differ", f"{where}: text between tokens differs at offset {last}")
        last = e
        tok, new = original[s:e], renamed[s:e]

        def line(s: int = s) -> str:
            return f"{where}:{bisect_right(starts, s)}"

        kept_as_data = inside(s)
        here = data_lookup if kept_as_data and data_lookup else lookup
        whole = here.original_class(tok)
        expected = here(tok)
        if whole:
            tally.occurrences[whole] = tally.occurrences.get(whole, 0) + 1
        else:
            for *_, cls in here.parts(tok):
                tally.occurrences[cls] = tally.occurrences.get(cls, 0) + 1
        if expected is None and tok != new:
            checks.fail("only_mapped_tokens_differ", f"{line()}: unmapped token {tok!r} became {new!r}")
        elif expected is not None and new != expected:
            checks.fail("mapped_tokens_replaced", f"{line()}: {tok!r} became {new!r}, expected {expected!r}")
        if kept_as_data and here.original_class(new) is None and (data_cls := lookup.original_class(new)):
            tally.leave(data_cls, f"{line()}: {new!r} kept as data (a Python string that names no code, or a data file's path)")
        else:
            _count_left(new, here, line, checks, tally)
    if original[last:] != renamed[last:]:
        checks.fail("only_mapped_tokens_differ", f"{where}: text after the last token differs")


def _count_left(token: str, lookup: Lookup, where: Callable[[], str], checks: Checks, tally: Tally) -> None:
    cls = lookup.original_class(token)
    hits = [] if cls else lookup.parts(token, pinned=False, case_sensitive=True)
    if not (cls or hits):
        return
    line = where()
    if cls:
        tally.leave(cls, f"{line}: {token!r} is a mapped original")
        checks.fail("no_original_left", f"{line}: {token!r} is a mapped original")
        return
    for i, j, _new, cls in hits:
        why = pinned_reason(token, lookup.kept) or (
            "a Python/Java/... name is renamed whole only: the longer name may be a library's"
            if token[i:j] in lookup.cs
            else None
        )
        tally.leave(cls, f"{line}: {token!r} carries {token[i:j]!r} ({why or 'not renamed'})")
        if why is None:
            checks.fail("no_original_left", f"{line}: {token!r} still carries the renamed name {token[i:j]!r}")


def _count_phrases_left(
    renamed: str,
    phrases: Phrases,
    where: str,
    checks: Checks,
    tally: Tally,
    data: Sequence[tuple[int, int]],
    data_lookup: Lookup | None,
) -> None:
    for m in phrases.find(renamed):
        line = renamed.count("\n", 0, m.start()) + 1
        if phrases.kept(m.start(), data, data_lookup):
            tally.leave(
                PHRASE_CLASS, f"{where}:{line}: the phrase {m.group(0)!r} kept as data (a Python string that names no code)"
            )
            continue
        message = f"{where}:{line}: the phrase {m.group(0)!r} is left"
        tally.leave(PHRASE_CLASS, message)
        checks.fail("no_original_left", message)
