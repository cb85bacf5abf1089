"""Deterministic verification: one verdict per claim, from the index of a frozen snapshot.

Each checkable reference of a claim becomes one or more checks with an outcome:
  ok            the reference resolves and agrees with the code
  missing       it resolves nowhere (or a path leaves the corpus root)
  mismatch      it resolves, but an attribute is wrong: file, directory, lines, PIC, usage, quoted code
  contradicted  a stated relation (performs, copies, reads, writes, XCTL) is absent from the subject's code,
                or the subject reaches the object another way (CALL where XCTL is said; only WRITEs a
                file said to be read). A quoted statement (`EXEC CICS LINK PROGRAM('X')`) states its
                relation too.

Verdict: no checks -> UNABLE_TO_VERIFY; all ok -> SUPPORTED; nothing ok, or every relation the claim
states is contradicted -> UNSUPPORTED; otherwise PARTIALLY_SUPPORTED.

Which words are checked: a strict reference (a path, a backticked name, a COBOL-shaped or
program-shaped name, CamelCase or snake_case, a PIC, a quoted string) that resolves nowhere is
"missing"; a loose one (an all-caps word, a bare number in prose) only counts when it resolves, so
plain English never turns a claim UNSUPPORTED. A name resolves when it is a definition, a reference
target, a file name, or a whole word in the full-text table (source files before prose files).

Where: the files a claim cites, else the programs it names (not those a relation points at, nor
those inside quoted code), else the context carried from earlier units together with the topic of
the enclosing heading. Only a cited path or a named program can make a name "misplaced"; the carried
context only scopes relations, values and quoted code.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, NamedTuple, Protocol, runtime_checkable

from groundjudge.grounding.checks import (
    CHECKERS,
    CODE_ACTOR_KINDS,
    Outcome,
    assignments,
    calls_reached,
    check_fact,
    normalize_value,
    preferred_in,
)
from groundjudge.grounding.claims import (
    OBJECT_BEFORE,
    Stemmed,
    in_code_fragment,
    is_cobol_shaped,
    is_program_shaped,
    normalize_pic,
    relation_cues,
)
from groundjudge.grounding.facts import Fact, Predicate, Term, cell_end
from groundjudge.grounding.index.model import DATA_KINDS, FUNCTION_KINDS, PROCEDURE_KINDS, Ref, RefKind, Symbol, SymbolKind
from groundjudge.grounding.index.registry import (
    assign_dd,
    case_insensitive,
    is_script,
    keywords,
    members_outside_types,
    special_names,
)
from groundjudge.grounding.lookup import (
    FULL_SEARCH_LIMIT,
    MAX_LITERAL_LINES,
    MAX_STATEMENT_LINES,
    NUMBER_PLACEHOLDER,
    NUMBERED,
    Lookup,
    Resolution,
    cached_property,
    code_part,
    is_comment,
    last_part,
    squash,
    statement_parts,
    string_literals,
    word_pattern,
)
from groundjudge.grounding.models import Claim, ClaimRef, Evidence, Verdict, VerifiedClaim
from groundjudge.grounding.outcomes import RELATION_PREDICATES, record_checks
from groundjudge.grounding.snapshot import Snapshot, normalize_relpath

CALL_LINES = 8  # a quoted call's arguments are looked for this many lines past the line that opens it
MAX_EVIDENCE = 5
MAX_REASON = 300

# Which index reference kinds carry each relation.
RELATION_REFS: dict[str, frozenset[RefKind]] = {
    # "calls" is loose English: a LINK or an XCTL to a program is still "calling" it.
    "calls": frozenset(
        {RefKind.PERFORM, RefKind.CALL, RefKind.EXEC_PGM, RefKind.EXEC_PROC, RefKind.LINK, RefKind.XCTL, RefKind.GOTO}
    ),
    "copies": frozenset({RefKind.COPY, RefKind.IMPORT}),
    "reads": frozenset(
        {
            RefKind.CICS_READ,
            RefKind.CICS_STARTBR,
            RefKind.CICS_READNEXT,
            RefKind.FILE_READ,
            RefKind.FILE_OPEN,
            RefKind.SQL_TABLE,
            RefKind.DSN,
        }
    ),
    "writes": frozenset(
        {
            RefKind.CICS_WRITE,
            RefKind.CICS_REWRITE,
            RefKind.CICS_DELETE,
            RefKind.FILE_WRITE,
            RefKind.FILE_OPEN,
            RefKind.SQL_TABLE,
            RefKind.DSN,
        }
    ),
    "transfers": frozenset({RefKind.XCTL, RefKind.LINK}),
}
IO_REFS = RELATION_REFS["reads"] | RELATION_REFS["writes"]
PROGRAM_REFS = frozenset({RefKind.CALL, RefKind.XCTL, RefKind.LINK, RefKind.EXEC_PGM})
_SQL_WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "MERGE"})


def io_directions(ref: Ref) -> frozenset[str]:
    """Which way an I/O reference moves data: OPEN INPUT only reads, OPEN OUTPUT/EXTEND only write,
    OPEN I-O, a JCL DD and an unknown SQL statement may do both."""
    if ref.kind == RefKind.FILE_OPEN:
        mode = ref.detail.get("mode", "").upper()
        return {"INPUT": frozenset({"reads"}), "OUTPUT": frozenset({"writes"}), "EXTEND": frozenset({"writes"})}.get(
            mode, frozenset({"reads", "writes"})
        )
    if ref.kind == RefKind.SQL_TABLE and ref.detail.get("op"):
        return frozenset({"writes"}) if ref.detail["op"].upper() in _SQL_WRITES else frozenset({"reads"})
    return frozenset(rel for rel in ("reads", "writes") if ref.kind in RELATION_REFS[rel])


# Which definition kinds an object of each relation can be; an object of another kind is not checked
# against the relation ("copies data from WS-A" names no copybook).
RELATION_OBJECT_DEFS: dict[str, frozenset[SymbolKind]] = {
    "calls": frozenset(
        {
            SymbolKind.PARAGRAPH,
            SymbolKind.SECTION,
            SymbolKind.PROGRAM,
            SymbolKind.FUNCTION,
            SymbolKind.METHOD,
            SymbolKind.CLASS,
            SymbolKind.PROC,
        }
    ),
    "copies": frozenset({SymbolKind.COPYBOOK}),
    "reads": frozenset({SymbolKind.SELECT, SymbolKind.FD}),
    "writes": frozenset({SymbolKind.SELECT, SymbolKind.FD}),
    "transfers": frozenset({SymbolKind.PROGRAM}),
}
STATEMENT_VERBS = frozenset(
    [
        "XCTL",
        "LINK",
        "READ",
        "WRITE",
        "REWRITE",
        "DELETE",
        "PERFORM",
        "CALL",
        "COPY",
        "OPEN",
        "CLOSE",
        "SEND",
        "RECEIVE",
        "STARTBR",
        "READNEXT",
        "EVALUATE",
        "COMPUTE",
        "SELECT",
        "DISPLAY",
        "GOBACK",
        "ABEND",
        "UNLOCK",
        "INSERT",
        "UPDATE",
        "FETCH",
        "DECLARE",
    ]
)
LOCATABLE_KINDS = frozenset(
    {
        SymbolKind.PARAGRAPH,
        SymbolKind.SECTION,
        SymbolKind.DATA_ITEM,
        SymbolKind.CONDITION,
        SymbolKind.FD,
        SymbolKind.SELECT,
        SymbolKind.FUNCTION,
        SymbolKind.METHOD,
        SymbolKind.CLASS,
    }
)
ACTOR_KINDS = CODE_ACTOR_KINDS | {SymbolKind.JOB, SymbolKind.STEP, SymbolKind.PROC}
_WHICH_PRONOUN = re.compile(r"\bwhich\s+(?:it|they)\s+(?:\w+\s+)?$", re.I)
# "it performs", "and then runs": the subject of the previous cue carries on
# "it calls", "and then calls", ", then calls": the verb is the sentence subject's again
_PRONOUN_SUBJECT = re.compile(
    r"\b(?:it|they|and)\s+(?:also\s+|then\s+|only\s+|otherwise\s+|finally\s+|next\s+)?$|,\s*then\s+$", re.I
)
# Kinds whose definitions span the code that does what a sentence about them says.
SPAN_KINDS = PROCEDURE_KINDS | FUNCTION_KINDS
# what a sentence-end cite must reach: a paragraph, function, class or (nested) program, or a constant's line
_CITE_BODY_KINDS = SPAN_KINDS | {SymbolKind.CLASS, SymbolKind.PROGRAM, SymbolKind.CONSTANT}
# what a sentence opening with it speaks of as using the data items it names
_USING_KINDS = SPAN_KINDS | {SymbolKind.CLASS}
CALL_KINDS = frozenset({RefKind.CALL, RefKind.PERFORM})
_PASSIVE_CLAUSE = re.compile(
    r"\b(?:is|are|was|were|gets?|got|be|been)\s+(?:\w+ly\s+|not\s+|also\s+|only\s+)?\w+(?:ed|en)\b", re.I
)
# a passive verb right after a name: the name is what is acted on
_PASSIVE_AFTER = r"\s*" + _PASSIVE_CLAUSE.pattern
# "`X` is implemented for `Y`", "is called by `Y`" (but not "is annotated with `@Y`", which is X's own)
_DONE_TO_SUBJECT = re.compile(_PASSIVE_AFTER + r"(?:\s+\w+){0,2}?\s+(?:for|by|from|when|whenever|once|after|before)\b", re.I)
# a name the verb after it has run by its callers: "`X` is called when ...", "`X` runs right after `Y`"
_RUN_SUBJECT = re.compile(_PASSIVE_AFTER + r"|\s*(?:only\s+|also\s+|then\s+|first\s+)?(?:runs|executes|fires)\b", re.I)
# "is called by `Y`", "is performed from `Y`": the passive's agent or origin, which lives elsewhere
# ("is annotated with `@Component`" names what the subject carries)
_PASSIVE_AGENT = re.compile(_PASSIVE_CLAUSE.pattern + r"(?:\s+\w+){0,3}?\s+(?:by|from|in|inside|within)\b", re.I)
# "unlike `Z`", "in `BKACT01C`", "runs after `Q`": a name another part of the code owns, or a place; and
# "from `eventemitter3`" a module a name comes from (not "a line from `NUM-CRUNCH`", data the code uses)
_AGENT_BEFORE = re.compile(r"\b(?:than|like|unlike|of|in|inside|within|after|before)\s+(?:the\s+)?`?$", re.I)
_LISTED_BEFORE = re.compile(r"`[^`]+`\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)`?$")
# "does not rely on `instanceof`", "without `X`", "the marker that `setErrorName` defines": no use by the subject
_NOT_USED_BEFORE = re.compile(
    r"\b(?:(?:not|never)(?:\s+\w+){0,2}|(?:without|instead\s+of|rather\s+than)(?:\s+\w+ing)?|that|which)"
    r"\s+(?:the\s+)?`?$",
    re.I,
)
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:the\s+)?(?:module\s+|package\s+|library\s+)?`?$", re.I)
_COMPARED_BEFORE = re.compile(r"\b(?:like|unlike|than|as\s+in)\s+(?:the\s+)?(?:program\s+)?`?$", re.I)
# packages of a language's own library, whose classes no snapshot declares
_STANDARD_PACKAGE = re.compile(r"(?:java|javax|kotlin|builtins|System)\.")
_OWNED_BEFORE = re.compile(r"\w['’]s\s+`?$")
_PRONOUN_PASSIVE = re.compile(r"\b(?:it|they)\s+(?:is|are|was|were|gets?|got)\s+(?:\w+ly\s+|not\s+|also\s+|first\s+)?$", re.I)
# What a claim can name as the unit whose file holds its other names: a program, a JCL procedure or job.
UNIT_KINDS = frozenset({SymbolKind.PROGRAM, SymbolKind.PROC, SymbolKind.JOB})
_OTHER_VERB = re.compile(r"\b(?:returns?|raises?|throws?|catches|sets)\b", re.I)
# "..., which", "; ...", and a participle opening its own clause ("writes X, using the colour it cached from Y")
_CLAUSE_END = re.compile(r"[,(]\s*(?:which|whose|where|so|using|keeping|leaving|giving|making)\b|;", re.I)
_CO_SUBJECTS = re.compile(r"`?(?:\s*(?:,|\band\b|\bor\b)\s*`[^`]+`)*\s*(?:,|\band\b|\bor\b)\s*`?", re.I)
_DIVISION = re.compile(
    r"\b(identification|environment|data|procedure|working-storage|local-storage|linkage|file)\s+(division|section)\b", re.I
)
_RELATIVE_AFTER = re.compile(r"`?,?\s*(?:which|whose|where)\b", re.I)
_WHICH_SUBJECT = re.compile(r"\bwhich\s+(?:also\s+|then\s+|only\s+)?$", re.I)
_PREPOSITION_BEFORE = re.compile(
    r"\b(?:in|inside|within|of|on|to|into|from|with|for|by|via|under|over|through)\s+(?:the\s+|an?\s+)?$", re.I
)
_PLACE_WORD = re.compile(r"\b(?:in|inside|within|of)\s+(?:the\s+)?(?:program\s+|file\s+|copybook\s+)?[`'\"]?$", re.I)
_BY_AGENT = re.compile(r"\b(?:by|from)\b", re.I)
# between "by" and its agent: a few words ("by the `main` function", "by `A` and by `B`") or the names before
# it in a list ("Read by: `A`, `B`"), no clause break
_AGENT_GAP = re.compile(r"[^,;]{0,40}|:?(?:\s*`[^`]+`\s*(?:,|\band\b|\bor\b)?)*\s*(?:and\s+|or\s+)?")
_BY_MEANS_OF = re.compile(r"\b(?:with|via|using|through|by)\s+(?:an?\s+|the\s+)?(?:EXEC\s+CICS\s+)?$", re.I)
_PRONOUN_OBJECT = re.compile(r"\s+(?:to\s+)?(?:it|them)\b", re.I)
FILE_KINDS = frozenset({SymbolKind.PROGRAM, SymbolKind.COPYBOOK, SymbolKind.MAPSET, SymbolKind.JOB, SymbolKind.PROC})


@runtime_checkable
class Verifier(Protocol):
    @property
    def name(self) -> str: ...

    def verify(self, claim: Claim, index: Any, snapshot: Snapshot) -> VerifiedClaim: ...


@dataclass
class CheckResult:
    outcome: Outcome
    message: str
    evidence: list[Evidence] = field(default_factory=list)
    relation: bool = False
    fact: int | None = None  # the claim's fact it answers (an index into claim.facts), when one
    ref: int | None = None  # the claim's reference it is about (an index into claim.refs), when one


def expand_pic(pic: str) -> str:
    """PIC strings compare by expansion: 9(3) == 999, S9(7)V99 == S9999999V99."""
    pic = normalize_pic(pic)
    return re.sub(r"(.)\((\d+)\)", lambda m: m.group(1) * min(int(m.group(2)), 4096), pic)


def normalize_usage(usage: str) -> str:
    u = usage.upper()
    u = u.replace("COMPUTATIONAL", "COMP")
    return {"PACKED-DECIMAL": "COMP-3", "BINARY": "COMP", "COMP-4": "COMP"}.get(u, u)


# Words that continue a condition's chain at its own indentation: their governing test is above them (a
# THEN or an opening brace on a line of its own belongs to the IF above it).
_BRANCH = re.compile(r"\s*(?:else|elif|when|other|case|default|not\s+at\s+end|not\s+invalid|then\s*$|\{\s*$)", re.I)


# a line that only ends a statement: END-EXEC, END-IF, a lone period, closing brackets
_CLOSER = re.compile(r"\s*(?:END-[A-Z-]+\.?|\.|[)}\]]+[;,)]*)\s*", re.I)
# a statement that opens a block of others: a test or a loop
_BLOCK_OPENER = re.compile(r"\s*(?:IF|EVALUATE|SEARCH|PERFORM\s+(?:UNTIL|VARYING|WITH)|if|for|while|switch|try)\b")


def governed_region(lines: tuple[str, ...], language: str, line: int, body_start: int) -> tuple[int, int]:
    """The lines from the outermost condition governing a statement (every less-indented line above it,
    up to its paragraph's or function's first line, and for an ELSE or WHEN the test that heads it), and
    the statement that condition follows, to the statement's last continuation line. Indentation is how
    both COBOL and the tag languages are laid out."""

    def indent(n: int) -> int | None:
        text = lines[n - 1]
        if is_comment(text, language):
            return None
        code = code_part(text, language)
        return len(code) - len(code.lstrip()) if code.strip() else None

    own = indent(line)
    if own is None:
        return line, line
    first, level, chain = line, own, False
    for n in range(line - 1, body_start, -1):
        width = indent(n)
        if width is None or width > level or (width == level and not chain):
            continue
        first, level = n, width
        chain = bool(_BRANCH.match(code_part(lines[n - 1], language)))
    if first != line:
        # the statement a test follows is what it tests ("EXEC SQL INSERT ... END-EXEC / IF SQLCODE NOT = 0"):
        # its first line, above its continuation lines and its END-EXEC or closing bracket
        for n in range(first - 1, body_start, -1):
            width = indent(n)
            code = code_part(lines[n - 1], language)
            if width is None or width > level or _CLOSER.fullmatch(code):
                continue
            # a test of its own (an IF block, a loop) before this one is a sibling, not what this one tests
            if not (_BLOCK_OPENER.match(code) or code.rstrip().endswith((":", "{"))):
                first = n
            break
    last = line
    while last < len(lines) and (width := indent(last + 1)) is not None and width > own:
        last += 1
    # a call whose arguments stand one to a line ("Issue.create(\n id = ..., \n severity = ERROR\n)"): the
    # statement runs to the bracket that closes what its first line opened
    depth = sum(_bracket_balance(code_part(lines[n - 1], language)) for n in range(first, last + 1))
    while depth > 0 and last < min(len(lines), first + MAX_STATEMENT_LINES):
        last += 1
        depth += _bracket_balance(code_part(lines[last - 1], language))
    return first, last


def _statement_start(lines: tuple[str, ...], language: str, line: int) -> int:
    """The first line of the bracketed statement a line stands in (`val X = Issue.create(` for its `id = ...`
    argument line), or the line itself."""
    depth = 0
    for n in range(line - 1, max(0, line - MAX_STATEMENT_LINES), -1):
        depth += _bracket_balance(code_part(lines[n - 1], language))
        if depth > 0:
            return n
    return line


def _bracket_balance(code: str) -> int:
    return sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")


def _specific(number: str) -> bool:
    """A number specific enough to count as evidence on its own: three digits or more (a code like 102)."""
    return len(number.replace(".", "").lstrip("0")) >= 3


def _same_name(a: str, b: str) -> bool:
    return a.upper() == b.upper() if (a.upper() == a or b.upper() == b) else a == b


@dataclass
class _Located:
    """A reference of the claim with where it resolved, and its position in the claim's text."""

    ref: ClaimRef
    pos: int
    files: list[str] = field(default_factory=list)  # for paths and names of whole files (programs)
    res: Resolution | None = None
    moved: bool = False  # a cited path whose file exists only under another directory


class DeterministicVerifier:
    """Checks claims against the index alone; claims it cannot judge come out UNABLE_TO_VERIFY."""

    def __init__(self) -> None:
        self._lookup: Lookup | None = None

    @property
    def name(self) -> str:
        return "deterministic"

    def _lookup_for(self, index: Any, root_name: str) -> Lookup:
        if self._lookup is None or self._lookup.index is not index or self._lookup.root_name != root_name.lower():
            self._lookup = Lookup(index, root_name)
        return self._lookup

    def verify(self, claim: Claim, index: Any, snapshot: Snapshot) -> VerifiedClaim:
        lk = self._lookup_for(index, getattr(snapshot, "name", "") or "")
        checks = _ClaimChecker(claim, lk, snapshot).run()
        verdict, reason, _ = decide(checks)
        evidence = collect_evidence(checks, verdict)
        # the claim's fields as they are: its refs and facts are read, never changed, after extraction, so the
        # verdict shares them instead of serialising and rebuilding each. From the model's (name, value) pairs:
        # dict() of the model itself first asks it for a `keys` attribute, which a model answers by raising.
        return VerifiedClaim(
            **dict(iter(claim)),
            verdict=verdict,
            reason=reason,
            evidence=evidence,
            verifier=self.name,
            checks=record_checks(claim, checks),
        )


class Decision(NamedTuple):
    verdict: Verdict
    reason: str
    deciding: list[CheckResult]  # the checks the reason starts with (none when there is no check)


def decide(checks: list[CheckResult], settled_by: CheckResult | None = None) -> Decision:
    """The precision-first verdict rule (docs/grounding.md), and a one-line reason that starts with the
    deciding check: a fabricated name, file or value (missing) decides UNSUPPORTED whatever else holds; a
    contradicted fact decides UNSUPPORTED unless another fact of the claim held (then PARTIALLY_SUPPORTED);
    a qualifier off (mismatch) decides PARTIALLY_SUPPORTED; a fact nothing in the code can settle
    decides UNABLE_TO_VERIFY; only a claim whose every check held is SUPPORTED.

    settled_by, one of checks, decides alone (the LLM verifier's judgement of the claim as a whole, which
    tells a wrong core from a wrong detail): contradicted is UNSUPPORTED, a mismatch PARTIALLY_SUPPORTED."""
    if settled_by is None:
        verdict, deciding = rule(checks)
    else:
        verdict, deciding = _SETTLED[settled_by.outcome], [settled_by]
    if not checks:
        return Decision(verdict, "names no file, symbol or value the snapshot could confirm or deny", deciding)
    rest = [c for c in checks if c not in deciding]
    held = [c for c in rest if c.outcome == "ok"]
    # The deciding checks first, then the facts that held, then the names that resolved.
    ordered = (
        deciding + [c for c in rest if c.outcome != "ok"] + [c for c in held if c.relation] + [c for c in held if not c.relation]
    )
    reason = "; ".join(dict.fromkeys(c.message for c in ordered))
    if len(reason) > MAX_REASON:
        reason = reason[: MAX_REASON - 3].rstrip() + "..."
    return Decision(verdict, reason, deciding)


_SETTLED = {"contradicted": Verdict.UNSUPPORTED, "mismatch": Verdict.PARTIALLY_SUPPORTED}


def rule(checks: list[CheckResult]) -> tuple[Verdict, list[CheckResult]]:
    """The verdict of ``decide`` and the checks that decided it (none when there is no check)."""
    if not checks:
        return Verdict.UNABLE_TO_VERIFY, []
    by = {
        outcome: [c for c in checks if c.outcome == outcome]
        for outcome in ("ok", "missing", "contradicted", "mismatch", "unchecked")
    }
    held = [c for c in by["ok"] if c.relation]
    if by["missing"]:
        verdict, deciding = Verdict.UNSUPPORTED, by["missing"]
    elif by["contradicted"]:
        verdict = Verdict.PARTIALLY_SUPPORTED if held else Verdict.UNSUPPORTED
        deciding = by["contradicted"]
    elif by["mismatch"]:
        verdict = Verdict.PARTIALLY_SUPPORTED if by["ok"] else Verdict.UNSUPPORTED
        deciding = by["mismatch"]
    elif by["unchecked"]:
        verdict, deciding = Verdict.UNABLE_TO_VERIFY, by["unchecked"]
    else:
        verdict, deciding = Verdict.SUPPORTED, held or by["ok"]
    return verdict, deciding


def collect_evidence(checks: list[CheckResult], verdict: Verdict) -> list[Evidence]:
    """Evidence of the deciding checks first (the fact's own location), then the rest."""
    seen: set[tuple[str, int, int]] = set()
    out: list[Evidence] = []
    rank = {"missing": 0, "contradicted": 1, "mismatch": 2, "unchecked": 3, "ok": 4}
    if verdict is Verdict.SUPPORTED:
        rank["ok"] = 0 if any(c.relation for c in checks) else 4
    for c in sorted(checks, key=lambda c: (rank[c.outcome], not c.relation)):
        for e in c.evidence:
            key = (e.path, e.start_line, e.end_line)
            if key not in seen and len(out) < MAX_EVIDENCE:
                seen.add(key)
                out.append(e)
    return out


def _where(sym: Symbol) -> str:
    return f"{sym.path}:{sym.start_line}" + (f"-{sym.end_line}" if sym.end_line != sym.start_line else "")


def _def_evidence(lk: Lookup, sym: Symbol) -> Evidence:
    if sym.kind in FILE_KINDS:  # a whole file: show the line that names it (PROGRAM-ID, JOB card)
        named = lk.first_code_mention(sym.path, sym.name, sym.start_line, sym.end_line)
        line = named if named is not None else sym.start_line
        return lk.snippet(sym.path, line, line, note=f"{sym.kind} {sym.name}")
    return lk.snippet(sym.path, sym.start_line, sym.end_line, note=f"{sym.kind} {sym.name}")


class _ClaimChecker:
    def __init__(self, claim: Claim, lk: Lookup, snapshot: Any = None):
        self.claim = claim
        # the text every check reads, often many times: an attribute of a pydantic model costs several of a
        # plain object's to read (the model's __getattr__ keeps Python from taking the fast path)
        self.text = claim.text
        self.lk = lk
        self.snapshot = snapshot
        self.checks: list[CheckResult] = []
        self.located: list[_Located] = []
        self.scope: list[str] = []
        self.strong: list[str] = []  # the files the claim itself names (cited paths, else programs)
        self.cited: list[str] = []  # the files the claim cites by path
        self.actor_scope = False  # strong holds the programs the claim names as actors, no cited path
        self.acted_on: set[int] = set()  # ids of the located names a relation verb of the claim acts on
        self._about: ClaimRef | None = None  # the reference the checks being added are about

    # -- resolution ---------------------------------------------------------------------------------

    def _locate(self) -> None:
        for ref in self.claim.refs:
            loc = _Located(ref, ref.start)
            if ref.kind == "path":
                loc.files = self.lk.resolve_files(ref.value)
                if not loc.files and normalize_relpath(ref.value) is not None:
                    loc.files = self.lk.same_basename(ref.value)
                    loc.moved = bool(loc.files)
                if not loc.files and "/" not in ref.value and ref.start_line is None:
                    # `Response.json`: no such file, but a class's method is spelt the same
                    res = self.lk.resolve_name(ref.value)
                    if res.defs:
                        ref = ref.model_copy(update={"kind": "identifier"})
                        loc = _Located(ref, ref.start, res=res)
            if ref.kind == "identifier" and loc.res is None:
                loc.res = self.lk.resolve_name(ref.value)
                # only a name defined as a whole file names one: the definitions of any other are not walked
                whole = [d.path for d in loc.res.defs if d.kind in FILE_KINDS] if loc.res.kinds & FILE_KINDS else []
                loc.files = sorted(set(whole) | set(loc.res.files))
            self.located.append(loc)

    @cached_property
    def _context_scope(self) -> list[str]:
        """Files of the carried context and of the heading's topic (a copybook cited inside a program's
        section does not make "here" stop meaning the program). The scope falls back to them twice per claim."""
        return list(dict.fromkeys(f for name in self._context_names() for f in self.lk.context_files(name)))

    def _context_names(self) -> list[str]:
        return [n for n in (self.claim.context, self.claim.topic) if n]

    # -- checks -------------------------------------------------------------------------------------

    def run(self) -> list[CheckResult]:
        self._locate()
        self.cited = explicit = list(dict.fromkeys(f for loc in self.located if loc.ref.kind == "path" for f in loc.files))
        # The files the claim is about, for picking among same-named definitions: first its cited paths or
        # its context; once the relations are known, also the programs it names that are not their objects.
        self.scope = explicit or self._context_scope
        links = self._relation_links()
        objects = {id(obj) for _, _, _, obj in links}
        self.acted_on = objects
        # Programs the claim names contain its other names, unless they are what a relation points at
        # ("4000-WRITE-AUDIT LINKs to BKAUD04C": 4000-WRITE-AUDIT is not in BKAUD04C).
        # A name inside a quoted statement (`XCTL PROGRAM('BKUPD02C')`) is what the code points at, too.
        # "calls `B`, which performs `P`", "calls `B`, whose paragraph `P` ...": an object that a relative
        # clause makes a subject is a program the claim is about, too.
        subjects = {id(who) for _, _, who, _ in links if who is not None}
        named = [
            d.path
            for loc in self.located
            if loc.ref.kind == "identifier"
            and loc.res is not None
            and loc.res.kinds & UNIT_KINDS  # the cheap test first: most names are of no program
            and (id(loc) not in objects or id(loc) in subjects or _RELATIVE_AFTER.match(self.text, loc.ref.end))
            and not OBJECT_BEFORE.search(self.text, 0, loc.pos)  # "sent to `P`": no actor
            and not _COMPARED_BEFORE.search(self.text, 0, loc.pos)  # "Like `P`, it ...": another program
            and not in_code_fragment(loc.ref)
            for d in loc.res.defs
            if d.kind in UNIT_KINDS
        ]
        strong = list(dict.fromkeys(explicit or named))
        self.strong = strong
        # a table row's cells are no sentence: a program in one cell is not the subject of the others
        self.actor_scope = not explicit and bool(named) and " | " not in self.text
        self.scope = strong or self._context_scope
        for loc in self.located:
            self._about = loc.ref
            if loc.ref.kind == "path":
                self._check_path(loc)
            elif loc.ref.kind == "identifier":
                # A name of a whole file is only placed by a cited path, not by other names. The context
                # carried from earlier units is too weak to call a name misplaced: it only scopes the
                # relations, values and code below.
                scope = self._placing_files(loc, explicit) if explicit and not loc.files else explicit if loc.files else strong
                if self._passed_by_caller(loc):
                    scope = []  # "`DECODE` reads `PACKET-ID`": the caller's item, passed on a CALL of the program
                # a name whose own file is among the cited ones is placed there (`GETPOL` by `GETPOL.cbl:50-57`)
                self._check_identifier(loc, [] if set(loc.files) & set(scope) else scope)
        self._about = None
        self._check_values(self.scope)
        for relation, kinds, subject, obj in links:
            self._about = obj.ref
            self._check_relation(relation, kinds, subject, obj)
        self._about = None
        self._check_subject_uses({id(obj) for _, _, _, obj in links})
        self._check_never()
        self._check_flows_unused()
        self._check_receives()
        self._check_divisions()
        self._check_moved_into()
        self._check_cics_options()
        self._check_facts()
        self._check_quoted_calls()
        self._check_mapped_entries()
        self._check_declared_types()
        self._check_holds_empty()
        self._check_class_attributes()
        self._check_identical_files()
        self._check_file_lists()
        self._check_code(self.scope, strict=bool(strong))
        self._check_qualifiers()
        self._check_row_values()
        self._check_order()
        return self.checks

    def _check_order(self) -> None:
        """ "`f` replaces `<` before it replaces `>`", "performs `A`, then `B`", "runs `X` after it builds
        `Y`": when the sentence opens with a paragraph or function and both sides of the order word quote
        something its body names, the first lines naming them must come in the order stated."""
        if _ORDER_WORD.search(self._masked) is None:
            return  # most claims state no order: nothing below is worked out for them
        first = self._opening_name()
        bodies = (
            [] if first is None or first.res is None else [d for d in self._preferred(first.res.defs) if d.kind in SPAN_KINDS]
        )
        opening = first if len(bodies) == 1 else None
        start = opening.ref.end if opening is not None else 0
        text = self.text
        quoted = [m for m in _BACKTICKED.finditer(text) if m.start() > start]
        for word in _ORDER_WORD.pattern.finditer(self._masked, start):
            lo, hi = self._clause_of(word.start())
            if lo > start and _STEP_JOIN.fullmatch(self._masked, lo, word.start()):
                lo = self._clause_of(lo - 1)[0]  # ", then `B`": the step before is the previous clause's
            before = [m for m in quoted if lo <= m.start() < word.start()]
            # the step after the word is its own next few words ("before it replaces `>`"), not a later verb's
            after = [m for m in quoted if word.end() <= m.start() < hi and _STEP_GAP.fullmatch(text, word.end(), m.start())]
            if not before or not after:
                continue
            a, b = before[-1].group(0).strip("`"), after[0].group(0).strip("`")
            if word.group("after"):
                a, b = b, a
            # a sentence that opens with no function ("The Azure check (`TF_BUILD`) runs after the `!isTTY`
            # check") orders steps of the bodies that name both: each must name them in that order
            orders = [
                (body, la, lb)
                for body in (bodies if opening is not None else self._bodies_naming(a, b))
                if (la := self._first_use(body, a)) is not None and (lb := self._first_use(body, b)) is not None and la != lb
            ]
            if a == b or not orders or len({la < lb for _, la, lb in orders}) != 1:
                continue
            body, line_a, line_b = orders[0]
            ev = [self.lk.snippet(body.path, min(line_a, line_b), max(line_a, line_b))]
            if line_a < line_b:
                self._add("ok", f"{body.name} names {a} (line {line_a}) before {b} (line {line_b})", ev, relation=True)
            else:
                self._add("contradicted", f"{body.name} names {b} (line {line_b}) before {a} (line {line_a})", ev, relation=True)

    def _bodies_naming(self, a: str, b: str) -> list[Symbol]:
        """The innermost functions or paragraphs, in the claim's code files, whose code names both a and b."""
        if not (_NAME_LIKE.fullmatch(a) and _NAME_LIKE.fullmatch(b)):
            return []  # a literal's place in a body says little of when it is used
        found: dict[tuple[str, int], Symbol] = {}
        for path in self._code_files([last_part(a)], 20, self.scope):
            for n in self.lk.code_mention_lines(path, last_part(a)):
                body = self.lk.index.enclosing(path, n, tuple(SPAN_KINDS))
                if body is not None and body.start_line < n and self._first_use(body, b) is not None:
                    found[(body.path, body.start_line)] = body
        return list(found.values())

    def _first_use(self, body: Symbol, quoted: str) -> int | None:
        """The first line after a body's own header that names a quoted name, or holds it as a literal."""
        lines = self.lk.file_lines(body.path)
        language = self.lk.line_language(body.path)
        if re.fullmatch(r"[\w.-]+", quoted):
            return self.lk.first_code_mention(body.path, last_part(quoted), body.start_line + 1, body.end_line)
        literal = re.compile("[\"']" + re.escape(quoted) + "[\"']")
        return next(
            (
                n
                for n in range(body.start_line + 1, min(body.end_line, len(lines)) + 1)
                if literal.search(lines[n - 1]) and not is_comment(lines[n - 1], language)
            ),
            None,
        )

    def _check_row_values(self) -> None:
        """A table row pairs its first cell's name with the values of its other cells ("| `limit` | `2` |",
        "| `afterStatusCodes` | 413, 429 | `retryAfterStatusCodes` |"): each value must be in a statement
        that names the row's name (with the conditions governing it), or in the definition of another name
        of the row. A value found only elsewhere is not that name's."""
        text = self.text
        if " | " not in text:
            return
        first_cell = text.index(" | ")
        key = next((loc for loc in self.located if loc.ref.kind == "identifier" and loc.ref.start < first_cell), None)
        if key is None or key.res is None or not key.res.found:
            return
        if key.res.files or not key.res.kinds.isdisjoint(_CONTAINER_KINDS):
            return  # a program's or class's row lists what is said of it (its transaction, its callers), held anywhere
        others = [
            loc.res.defs
            for loc in self.located
            if loc is not key and loc.ref.kind == "identifier" and loc.res is not None and loc.ref.value not in _LITERAL_WORDS
        ]
        regions = [(d.path, d.start_line, d.end_line) for defs in others for d in defs if d.kind in _VALUE_HOLDERS]
        # a function of the row's name holds its values somewhere in its code; a name of an option or a field,
        # in the statements that name it (both, when the name is ambiguous)
        regions += [(d.path, d.start_line, d.end_line) for d in key.res.defs if d.kind not in _VALUE_HOLDERS]
        paths = self.scope or sorted(
            {d.path for d in key.res.defs} | {r.path for r in key.res.refs} | {p for p, _ in key.res.hits}
        )
        regions += [(p, a, b) for p in paths for a, b in self._governed_regions(p, key.ref.value, inside_bodies=False)]
        text_only = {
            id(loc.ref)
            for loc in self.located
            if loc.res is not None and not (loc.res.defs or loc.res.refs or loc.res.files) and loc.ref.value.isupper()
        }
        for ref in self.claim.refs:
            # an upper-case name nothing defines (`GET`, `NOTFND`) is a value the code spells, too
            if ref.start < first_cell or not (self._row_value(ref) or (id(ref) in text_only and not in_code_fragment(ref))):
                continue
            if _EXAMPLE_BEFORE.search(text, 0, ref.start):
                continue  # "an operation code such as `01IEND`": an example of the kind, not the name's own value
            hit = next(((p, n) for p, a, b in regions for n in self._value_lines(p, ref, a, b)), None)
            self._about = ref
            if hit is not None:
                p, n = hit
                self._add("ok", f"{ref.value} is with {key.ref.value} at {p}:{n}", [self.lk.snippet(p, n, n)])
            elif regions:
                self._add("contradicted", f"no statement naming {key.ref.value} holds {ref.value}", relation=True)
            self._about = None

    def _value_lines(self, path: str, ref: ClaimRef, start: int, end: int) -> Iterator[int]:
        """Code lines start..end holding a value: a string as a quoted literal (`"="` is no assignment), a
        number or name as a word."""
        if ref.kind != "value" or ref.value_kind != "string":
            yield from self.lk.code_mention_lines(path, ref.value, start, end)
            return
        literal = re.compile("[\"']" + re.escape(ref.value) + "[\"']")
        lines = self.lk.file_lines(path)
        yield from (n for n in range(max(start, 1), min(end, len(lines)) + 1) if literal.search(lines[n - 1]))

    def _row_value(self, ref: ClaimRef) -> bool:
        if in_code_fragment(ref):
            return False  # a quoted statement is checked as a whole
        if ref.kind == "identifier":
            return ref.value in _LITERAL_WORDS
        # a number standing alone in its cell ("| 9 |") is that column's value for the row
        alone = (
            ref.value_kind == "number" and _WHOLE_CELL.match(self.text, ref.end) and _CELL_START.search(self.text, 0, ref.start)
        )
        return (
            ref.kind == "value" and ref.value_kind in ("number", "string") and (ref.strict or _specific(ref.value) or bool(alone))
        )

    def _placing_files(self, loc: _Located, explicit: list[str]) -> list[str]:
        """The cited files that place a name: those cited in its own clause. A sentence that follows a call
        across files cites where its point is, not every name it passes ("`a` delegates to `B.c`, which ...
        (`b.py:10-20`)" places `B.c`, not `a`)."""
        if " | " in self.text:
            return explicit  # a table row's path cell places the row's names
        lo, hi = self._clause_of(loc.pos)
        cited = [f for c in self.located if c.ref.kind == "path" and lo <= c.pos < hi for f in c.files]
        return [f for f in explicit if f in cited]

    def _check_qualifiers(self) -> None:
        """A value or data name that a clause puts before a relation that held, or after it in a condition
        ("for customer number 0 it performs `P`", "on `NOTFND` it sets `X` to '2'", "performs `P` until
        `EOF-SW` is 'Y'"), must be in a statement that does it or in the conditions that govern that
        statement: found only elsewhere, the relation holds but not when the claim says, which contradicts
        the relation as stated."""
        taken = self._fact_term_spans()
        cites = {r.start for r in self.claim.refs if r.kind == "path"}
        for check in list(self.checks):
            if check.outcome != "ok" or not check.relation or not check.evidence:
                continue
            anchor = self._check_anchor(check)
            if anchor is None:
                continue
            pos, name = anchor
            phrases = self._condition_phrases(pos)
            qualifiers = [
                ref
                for i, ref in enumerate(self.claim.refs)
                if any(a <= ref.start < b for a, b in phrases)
                and i != check.ref
                and (ref.start, ref.end) not in taken
                and self._qualifier(ref)
            ]
            fragments = [
                m
                for m in _BACKTICKED.finditer(self.text)
                if " " in m.group(0).strip("`").strip() and m.start() not in cites and any(a <= m.start() < b for a, b in phrases)
            ]
            where = check.evidence[0]
            # a value set is where the statement setting it is; a relation, wherever the code does it
            if not (qualifiers or fragments):
                regions = []
            elif check.fact is not None and self.claim.facts[check.fact].predicate is Predicate.HAS_VALUE:
                regions = self._governed_lines(where.path, [e.start_line for e in check.evidence if e.path == where.path])
            else:
                regions = self._governed_regions(where.path, name)
            if not regions:
                continue
            if self._restrictive(phrases) and self._unconditioned(where.path, where.start_line, name):
                # "calls `g` only when ...": the call is there, but nothing makes it conditional
                said = check.message.split(" (")[0]
                message = f"{said} at {where.path}:{where.start_line} whatever happens: no condition governs it"
                self.checks[self.checks.index(check)] = CheckResult("contradicted", message, [where], True, check.fact, check.ref)
                continue
            absent = [m.group(0).strip("`").strip() for m in fragments]
            absent = [f for f in absent if not any(self._fragment_in(where.path, f, a, b) for a, b in regions)]
            absent += [
                r.value
                for r in qualifiers
                if all(self.lk.first_code_mention(where.path, r.value, a, b) is None for a, b in regions)
            ]
            if absent:
                # the relation holds, but not where or when the claim says: as stated, it does not hold
                a, b = regions[0]
                said = check.message.split(" (")[0]
                message = f"{', '.join(absent)} not in the statement nor its conditions where {said} ({where.path}:{a}-{b})"
                self.checks[self.checks.index(check)] = CheckResult(
                    "contradicted", message, [self.lk.snippet(where.path, a, b)], True, check.fact, check.ref
                )

    def _restrictive(self, phrases: list[tuple[int, int]]) -> bool:
        """Is one of the condition phrases a restriction ("only when", "only if", "unless")?"""
        return any(_RESTRICTION.match(self._masked, a) or _ONLY_BEFORE.search(self._masked, 0, a) for a, _ in phrases)

    def _unconditioned(self, path: str, line: int, name: str) -> bool:
        """Does a statement run whenever its paragraph or function does: no test on its own line, and no
        less-indented test above it in its body?"""
        lines = self.lk.file_lines(path)
        if 0 < line <= len(lines) and _INLINE_TEST.search(lines[line - 1]):
            return False
        regions = self._governed_lines(path, [line], name)
        return bool(regions) and regions[0][0] == line

    def _fragment_in(self, path: str, fragment: str, start: int, end: int) -> bool:
        """Is a quoted piece of code in lines start..end: as written, as an EXEC command in any order of
        options, or (a condition such as `exp <= now - leeway`, which code may parenthesise) with every name
        it uses on those lines?"""
        if self.lk.statement_line(path, [fragment], start, end) or self.lk.command_line(path, fragment, start, end):
            return True
        names = re.findall(r"[A-Za-z_][\w.-]*", fragment)
        return bool(names) and all(self.lk.first_code_mention(path, n, start, end) is not None for n in names)

    def _condition_phrases(self, pos: int) -> list[tuple[int, int]]:
        """The condition phrases of the clause around pos ("when `X` is 'Y'", "until `EOF`", a leading "for
        customer 9999999999" or "on `NOTFND`"): each from its word to the next comma, or to pos."""
        lo, hi = self._clause_of(pos)
        text = self._masked
        opening = _OPENING_CONDITION.match(text, lo) or _OPENING_CASE.match(self.text, lo)
        starts = [m.start() for m in _CONDITION_WORD.finditer(text, lo, hi)] + ([opening.end()] if opening else [])
        phrases = []
        for start in starts:
            stop = text.find(",", start, hi)
            end = min(e for e in (stop if stop >= 0 else hi, pos if start < pos else hi) if e > start)
            phrases.append((start, end))
        return phrases

    def _governed_lines(
        self, path: str, lines: Iterable[int], name: str = "", inside_bodies: bool = True
    ) -> list[tuple[int, int]]:
        """The governed region of each statement line inside a paragraph or function other than the named one
        (or, unless inside_bodies, of a statement outside any: the statement alone)."""
        bodies = [d for d in self.lk.definitions(None, None, path) if d.kind in _BODY_KINDS and not _same_name(d.name, name)]
        text, language = self.lk.file_lines(path), self.lk.line_language(path)
        regions = []
        for n in lines:
            around = [d for d in bodies if d.start_line < n <= d.end_line]
            body = min(around, key=lambda d: d.end_line - d.start_line, default=None)
            if body is not None:
                regions.append(governed_region(text, language, n, body.start_line))
            elif not inside_bodies:
                regions.append(governed_region(text, language, n, _statement_start(text, language, n) - 1))
        return regions

    def _governed_regions(self, path: str, name: str, inside_bodies: bool = True) -> list[tuple[int, int]]:
        """For each statement of a file that uses a name inside a paragraph or function (not the name's own
        definition), or anywhere unless inside_bodies: the lines from the outermost condition governing it
        to the end of the statement."""
        return self._governed_lines(path, self.lk.code_mention_lines(path, last_part(name)), name, inside_bodies)

    def _acted_on(self, ref: ClaimRef) -> bool:
        """Is the name what a fact says the code calls, reads, writes, copies or transfers control to?"""
        return any(
            f.object is not None and f.object.span == (ref.start, ref.end) and f.predicate in _ACTION_PREDICATES
            for f in self.claim.facts
        )

    def _fact_term_spans(self) -> set[tuple[int, int]]:
        """The spans of the names and values the claim's facts are about: a fact's own terms are its
        subject and object, not qualifiers of another fact."""
        spans = set()
        for fact in self.claim.facts:
            # a relation's subject, or whoever sets a value, is its actor, whose data name before the verb may
            # be the condition ("on `NOTFND` it performs `P`"); the item a value is stated of is the fact's own
            subject = fact.subject if fact.predicate is Predicate.HAS_VALUE else None
            for term in (subject, fact.object):
                if term is not None:
                    spans.add(term.span)
            if fact.value is not None:
                spans |= {(r.start, r.end) for r in self.claim.refs if fact.span[0] <= r.start and r.end <= fact.span[1]}
        return spans

    def _check_anchor(self, check: CheckResult) -> tuple[int, str] | None:
        """Where in the claim a held relation is stated, and the name its code statement uses."""
        if check.ref is not None:
            ref = self.claim.refs[check.ref]
            return ref.start, ref.value
        if check.fact is not None:
            fact = self.claim.facts[check.fact]
            term = fact.object or fact.subject
            return (fact.span[0], term.value) if term is not None else None
        return None

    def _qualifier(self, ref: ClaimRef) -> bool:
        """A literal, or a name of data rather than of code that acts (a paragraph, program, class)."""
        if ref.kind == "value":
            return ref.value_kind in ("number", "string") and (ref.strict or _specific(ref.value))
        if ref.kind != "identifier" or in_code_fragment(ref):
            return False
        loc = next((loc for loc in self.located if loc.ref is ref), None)
        if loc is None or loc.res is None or not loc.res.found or loc.res.files:
            return False
        if last_part(ref.value).upper() in special_names():
            return False  # `TypeError`: a class the language supplies, another fact's object, no datum
        return loc.res.kinds <= _DATA_KINDS

    @cached_property
    def _fact_scope(self) -> list[str]:
        """The files that pick among same-named subjects of the facts: the claim's own, else those of the
        paragraph or function it opens with (the `X` of "`P` stops at `X`, which is 10" is P's program's)."""
        if self.scope:
            return self.scope
        opener = self._opening_name(SPAN_KINDS)
        return sorted({d.path for d in opener.res.defs}) if opener is not None and opener.res is not None else []

    def _check_facts(self) -> None:
        """The facts whose predicates have their own checkers (grounding/checks.py)."""
        names = [r.value for r in self.claim.refs if r.kind == "identifier"]
        classes = [n for n in names + self._context_names() if self.lk.definitions(last_part(n), SymbolKind.CLASS)]
        for i, fact in enumerate(self.claim.facts):
            result = check_fact(self.lk, self._qualified(fact, classes), self.text, names, self._fact_scope)
            if result is not None:
                self._add(result.outcome, result.message, result.evidence, relation=result.outcome != "unchecked", fact=i)

    def _qualified(self, fact: Fact, classes: list[str]) -> Fact:
        """A bare method name in a claim about a class is that class's method ("## FileStore ... its `save`"
        is FileStore.save, not a same-named stub in Base)."""
        update = {}
        for role in ("subject", "by"):
            term = getattr(fact, role)
            if term is None or "." in term.value:
                continue
            owner = next(
                (
                    c
                    for c in classes
                    if any(d.detail.get("parent") == last_part(c) for d in self.lk.definitions(term.value, SymbolKind.METHOD))
                ),
                None,
            )
            if owner is not None:
                update[role] = term.model_copy(update={"value": f"{last_part(owner)}.{term.value}"})
        actor = fact.subject
        # "..., and a non-integer `nbf` raises X": a variable raises nothing; the sentence's function does
        if (
            fact.predicate in _STATEMENT_PREDICATES
            and actor is not None
            and "subject" not in update
            and not self.lk.definitions(last_part(actor.value))
            and (opener := self._opening_name(FUNCTION_KINDS)) is not None
        ):
            update["subject"] = Term(text=opener.ref.text, value=opener.ref.value, span=(opener.ref.start, opener.ref.end))
        return fact.model_copy(update=update) if update else fact

    def _opening_name(self, kinds: frozenset[SymbolKind] | None = None) -> _Located | None:
        """The resolved name a sentence opens with ("`P` performs ...", "- `f` returns ..."), if it opens with one;
        with kinds, only a name whose every definition is of one of them."""
        first = self._opener
        if first is None or first.res is None or (kinds is not None and not (first.res.defs and first.res.kinds <= kinds)):
            return None
        return first

    @cached_property
    def _opener(self) -> _Located | None:
        """_opening_name without kinds, which a claim's checks ask for again and again (the names are located
        before any check runs)."""
        first = next((loc for loc in self.located if loc.ref.kind == "identifier"), None)
        if first is None or first.res is None or not _OPENS_WITH_NAME.match(self.text[: first.ref.start]):
            return None
        return first

    def _check_involvement(self, relation: str, subject: _Located | None, obj: _Located, holds: bool = True) -> None:
        """A relation stated on a name that is no file, program or paragraph ("writes `ERR-MSG-DATA1`",
        "copies `DFHCOMMAREA`"): the relation checks cannot judge it, but the subject must at least use
        the name in its own span. A subject that never names it cannot act on it; one that does is shown
        at that line, and a subject the claim does not place leaves it to the name checks."""
        if subject is None:
            return
        if not obj.ref.strict or _EXAMPLE_BEFORE.search(self.text, 0, obj.ref.start):
            return  # "writes the DBRM", "a token such as `NEVER HAPPENED`": a word of the prose or an example
        who, spans = self._subject_scope(subject)
        if spans is None:
            return
        name = obj.ref.value
        mention = self._mention_in(spans, name)
        if mention is None and relation == "uses":
            # what the subject does through a function it calls is its doing too ("`load` raises X" via a helper)
            mention = self._mention_in([(d.path, d.start_line, d.end_line) for d in self._callees(spans)], name)
        if mention is None:
            mention = self._passed_in_call(subject, name)
        if mention is None:
            where = _spans_text(spans)
            self._add("contradicted", f"{who} never names {name} ({where}), so it {_NEGATED[relation]} it", relation=True)
            return
        p, n = mention
        self._add("ok", f"{who} uses {name} at {p}:{n}", [self.lk.snippet(p, n, n)], relation=holds)

    def _passed_by_caller(self, loc: _Located) -> bool:
        """Is a data name passed on a CALL of a program the claim names?"""
        if not _only_data(loc):
            return False
        return any(
            self._passed_in_call(other, loc.ref.value) is not None
            for other in self.located
            if other is not loc and other.ref.kind == "identifier"
        )

    def _passed_in_call(self, subject: _Located, name: str) -> tuple[str, int] | None:
        """A COBOL program acts on what its callers pass it ("`Decode-VarInt` reads `PACKET-ID`" where the
        caller's `CALL "Decode-VarInt" USING ... PACKET-ID`): the line of such a CALL's arguments."""
        if subject.res is None or SymbolKind.PROGRAM not in subject.res.kinds:
            return None
        return self.lk.call_argument_line(last_part(subject.ref.value), last_part(name))

    def _first_mention(self, spans: Iterable[tuple[str, int, int]], word: str) -> tuple[str, int] | None:
        """The first code line of the spans (path, first line, last line) naming a word."""
        return next(((p, n) for p, a, b in spans for n in self.lk.code_mention_lines(p, word, a, b)), None)

    def _mention_in(self, spans: list[tuple[str, int, int]], name: str) -> tuple[str, int] | None:
        """The first code line of the spans naming a name, else (outside COBOL) its private spelling: `currsize`
        is the property of `self.__currsize`, which the code writes."""
        word = last_part(name)
        private = (
            self._first_mention([span], spelling)
            for span in spans
            if self.lk.language(span[0]) != "cobol"
            for spelling in (f"_{word}", f"__{word}")
        )
        return self._first_mention(spans, word) or next((m for m in private if m is not None), None)

    def _callees(self, spans: list[tuple[str, int, int]]) -> list[Symbol]:
        """The functions, methods and paragraphs the spans call, MAX_CALL_DEPTH calls deep."""

        def resolve(target: str) -> list[Symbol]:
            return [d for d in self.lk.definitions(last_part(target)) if d.kind in SPAN_KINDS]

        return [d for _, d in calls_reached(self.lk, spans, CALL_KINDS, resolve)]

    def _add(
        self,
        outcome: Outcome,
        message: str,
        evidence: list[Evidence] | None = None,
        relation: bool = False,
        fact: int | None = None,
    ) -> None:
        ref = next((i for i, r in enumerate(self.claim.refs) if r is self._about), None)
        self.checks.append(CheckResult(outcome, message, evidence or [], relation, fact, ref))

    def _named_in_code(self, name: str) -> tuple[str, int] | None:
        """The first line of code, or else of a script (a makefile, a shell script; never a document, never a
        comment), that spells a file name or path, alone or at the end of a path (`$FILES/allCountries.txt`):
        the program that opens the file is better evidence than the script that passes it on."""
        pattern = re.compile(r"(?<![\w.-])" + re.escape(name) + r"(?![\w/-])", re.I)
        lines = [
            (self.lk.is_prose(path), path, n)
            for path, n, line in self.lk.search(name)
            if (not self.lk.is_prose(path) or is_script(path))
            and pattern.search(line)
            and not is_comment(line, self.lk.line_language(path))
        ]
        return min(lines)[1:] if lines else None

    def _add_named_in_code(self, value: str, named: tuple[str, int], what: str) -> None:
        p, n = named
        self._add("ok", f"{value} is named by the code at {p}:{n} ({what}, not of the snapshot)", [self.lk.snippet(p, n, n)])

    def _check_path(self, loc: _Located) -> None:
        ref = loc.ref
        if (
            not loc.files
            and ref.start_line is None
            and ref.text.startswith("`")
            and ".." not in PurePosixPath(ref.value).parts
            and not ref.value.startswith("~")
            and ref.value.strip("/").split("/", 1)[0] not in _SYSTEM_DIRS
            and "." not in PurePosixPath(ref.value.rstrip("/")).name
            and (ref.text.strip("`").startswith("/") or not ref.text.strip("`").endswith("/"))  # `cpy/`: a directory
        ):
            # `owners/findOwners`, `/owners/`, `//` in backticks: with no extension, no line, no '..' and no such
            # file or directory, a route, a view name or a URL, which a snapshot of files neither holds nor denies
            norm = normalize_relpath(ref.value)
            if norm is None or not any(p.startswith(norm.rstrip("/") + "/") for p in self.lk.all_paths()):
                return
        if normalize_relpath(ref.value) is None:
            # `/usr/share/www/cgi-bin` in a makefile's variable: a path of the machine the code runs on, which the
            # code spells; nothing outside the snapshot is read either way
            named = self._named_in_code(ref.value) if ref.value.startswith("/") and ref.start_line is None else None
            if named is None:
                self._add("missing", f"{ref.value} leaves the corpus root; nothing was read")
            else:
                self._add_named_in_code(ref.value, named, "a path of the machine it runs on")
            return
        if not loc.files and not ref.strict:
            return  # `localhost:8000`: cited like a file with no extension, but none of the snapshot's
        if not loc.files:
            norm = normalize_relpath(ref.value) or ""
            inside = [p for p in self.lk.all_paths() if p.startswith(norm + "/")]
            named = self._named_in_code(ref.value) if "/" not in norm and ref.start_line is None else None
            if inside and ref.start_line is None:
                self._add("ok", f"{norm}/ is a directory of the snapshot ({len(inside)} files)")
            elif named is not None:
                # `HOST01.TXT` in an ASSIGN clause, `settings.ini` in an open() call: a file the code reads at
                # run time, which the snapshot does not hold and need not
                self._add_named_in_code(ref.value, named, "a file of the run")
            else:
                self._add("missing", f"no file {ref.value} in the snapshot")
            return
        if loc.moved:  # the file exists under another directory: the name is right, the path is not
            norm = normalize_relpath(ref.value) or ref.value
            self._add("mismatch", f"no file {norm} in the snapshot; {PurePosixPath(norm).name} is {', '.join(loc.files)}")
        path = loc.files[0]
        info = self.lk.file_info(path)
        if info is not None and info.status == "skipped":  # binary or EBCDIC data: it exists, its lines cannot be read
            self._add("ok", f"{path} exists (a binary or non-text file, not read)")
            if ref.start_line is not None:
                self._add("mismatch", f"{path} is not a text file: its lines cannot be cited")
            return
        if ref.start_line is None:
            n = len(self.lk.file_lines(path))
            self._add("ok", f"{path} exists ({n} lines)", [self.lk.snippet(path, 1, min(n, 5))] if n else [])
            return
        results = [self._check_range(path, ref.start_line, ref.end_line or ref.start_line, loc) for path in loc.files]
        best = next((r for r in results if r.outcome == "ok"), results[0])
        if best.outcome != "ok":  # the right file with wrong lines is half right
            self._add("ok", f"{loc.files[0]} exists ({len(self.lk.file_lines(loc.files[0]))} lines)")
        self._add(best.outcome, best.message, best.evidence, best.relation)

    @staticmethod
    def _owns(res: Resolution, path: str, cite: _Located) -> bool:
        """Is the cited range in the program (or copybook, job...) a name resolved to: the file named so, or one
        of several programs in the file (`FUNCTION-ID`s after the main program) whose lines hold the range."""
        start, end = cite.ref.start_line or 1, cite.ref.end_line or cite.ref.start_line or 1
        return path in res.files or (
            bool(res.kinds & FILE_KINDS)
            and any(d.kind in FILE_KINDS and d.path == path and d.start_line <= start and end <= d.end_line for d in res.defs)
        )

    def _range_targets(self, path: str, cite: _Located) -> list[str]:
        """Names the claim says are at the cited lines: its identifiers, except the file's own program
        name; failing those, the COBOL/CICS verbs it writes in capitals ("the XCTL is at line 10").
        When a claim cites several ranges, each range takes the names between it and its neighbour: the
        range before it when the claim names before it cites ("`A` (lines 1-9) and `B` (lines 10-20)"),
        else the range after it ("lines 1-9 (`A`), lines 10-20 (`B`)")."""
        stem = PurePosixPath(path).stem.upper()
        names: list[tuple[int, str]] = []
        own_program = False
        # the names that are the program the lines are in; when the claim names one, the file's other programs
        # it names are said beside it, not placed at them
        owners = {
            id(loc)
            for loc in self.located
            if loc.ref.kind == "identifier" and loc.res is not None and self._owns(loc.res, path, cite)
        }
        for loc in self.located:
            quoted = loc.ref.text.startswith("`") or is_cobol_shaped(loc.ref.value) or is_program_shaped(loc.ref.value)
            if loc.ref.kind != "identifier" or not quoted:
                continue  # "a stream that is not a TTY": a word of the prose, which cited lines need not spell
            if in_code_fragment(loc.ref):
                continue  # a name inside a quoted statement is placed by that statement's own check
            if any(a <= loc.pos < b for a, b in self._header_spans) or _is_keyword(loc.ref.value):
                continue  # a column header ("Message put in `OUTCONT`") speaks of every row; `COPY` is a word of the language
            if _ABSENT_BEFORE.search(self.text, 0, loc.pos):
                continue  # "with neither `TIMEOUT` nor `NOSUSPEND`": said to be absent, so not at the lines
            if id(loc) in owners or (loc.ref.value.upper() == stem and self.lk.language(path) in case_insensitive()):
                own_program = True
                continue
            if owners and loc.res is not None and any(d.kind in FILE_KINDS and d.path == path for d in loc.res.defs):
                continue  # "`assert-equals` passes when ..., and `assert-notequals` inverts it (lines of the second)"
            if loc.res is not None and not loc.res.defs and any(PurePosixPath(f).name == loc.ref.value for f in loc.res.files):
                continue  # "the `README` runs them as ...": a file by its full name, which no lines of another file hold
            names.append((loc.pos, loc.ref.value))
        if not names and own_program and not _PLACES.search(self.text) and not _DIVISION.search(self.text):
            return []  # "`ZUTZCPC` is a batch precompiler (`ZUTZCPC.CBL:1-18`)": any lines of the program are its own
        cites = sorted(loc.pos for loc in self.located if loc.ref.kind == "path" and loc.ref.start_line is not None)
        if len(cites) > 1 and cite.pos in cites and names:
            i = cites.index(cite.pos)
            if min(p for p, _ in names) < cites[0]:  # "`A` (lines 1-9) and `B` (lines 10-20)"
                lo, hi = (cites[i - 1] if i > 0 else -1), cite.pos
            else:  # "lines 1-9 (`A`), lines 10-20 (`B`)"
                lo, hi = cite.pos, (cites[i + 1] if i + 1 < len(cites) else len(self.text) + 1)
            return [n for p, n in names if lo < p < hi]
        if names:
            return [n for _, n in names]
        # "The procedure division of `GETSCODE` is at lines 8-20": the division's or section's header
        headers = [f"{m.group(1)} {m.group(2)}".upper() for m in _DIVISION.finditer(self.text)]
        if headers:
            return headers
        return [w for w in dict.fromkeys(re.findall(r"\b[A-Z]{3,}\b", self.text)) if w in STATEMENT_VERBS]

    @cached_property
    def _masked(self) -> str:
        """The claim text with each backticked name blanked to underscores: it stays one word for the
        patterns, and no word inside it is read as prose."""
        return _BACKTICKED.sub(lambda m: "_" * len(m.group(0)), self.text)

    @cached_property
    def _clause_breaks(self) -> list[int]:
        return [m.start() for m in _CLAUSE_BREAK.finditer(self._masked)] + [i for i, ch in enumerate(self._masked) if ch == "|"]

    @cached_property
    def _header_spans(self) -> list[tuple[int, int]]:
        """Where a table row's cells carry their column's header ("| Header: cell", see claims._row_text)."""
        if " | " not in self.text:
            return []
        return [m.span(1) for m in _ROW_HEADER.finditer(self._masked)]

    def _clause_of(self, pos: int) -> tuple[int, int]:
        """The span of the clause around a position of the claim text (see _CLAUSE_BREAK)."""
        lo = max((b for b in self._clause_breaks if b <= pos), default=0)
        hi = min((b for b in self._clause_breaks if b > pos), default=len(self._masked))
        return lo, hi

    def _check_range(self, path: str, start: int, end: int, cite: _Located) -> CheckResult:
        n = len(self.lk.file_lines(path))
        cited = f"{path}:{start}" + (f"-{end}" if end != start else "")
        if start < 1 or end < 1:
            return CheckResult("mismatch", f"{cited}: line 0 does not exist (lines start at 1)")
        if end < start:
            return CheckResult("mismatch", f"{cited}: malformed range (ends before it starts)")
        if start > n:
            return CheckResult("mismatch", f"{cited}: line {start} is beyond the end of {path} ({n} lines)")
        if end > n:
            return CheckResult("mismatch", f"{cited}: runs past the end of {path} ({n} lines)", [self.lk.snippet(path, start, n)])
        names = self._range_targets(path, cite)
        if not names:
            return CheckResult("ok", f"{cited} exists", [self.lk.snippet(path, start, end)])
        # A name defined in this file must be defined at the cited lines when the cite's clause places it
        # ("`X` is at lines 40-50", "is defined in"); when the clause says what the code does with it
        # ("moves `X` to `Y` (line 114)"), or the name is defined elsewhere, a mention there is enough.
        lo, hi = self._clause_of(cite.pos)
        clause = self.text[lo:hi]
        # "`X` (`f.py:10-20`) does ...": a cite in parentheses right after a name, inside the sentence, places
        # that name; one that ends the sentence is the whole sentence's
        closes = _CITE_ENDS_SENTENCE.match(self.text, cite.ref.end)
        placed = None if closes else _NAME_THEN_CITE.search(self.text, 0, cite.pos)
        uses = not _PLACES.search(clause) and not _CITE_CELL.fullmatch(clause) and placed is None
        if placed is not None:
            names = [n for n in names if _same_name(placed.group("name"), n)] or names
        # "| `P` | lines 190-212 |": the range is the row's own name's span, which must start inside it
        row = _ROW_RANGE.match(self.text)
        if row is not None:
            names = [n for n in names if _same_name(row.group("name"), n)] or names
        # a row's cite cell places the row's own name (its first cell's); a row without one, the names of its
        # other cells, which the cited lines may only use
        key = _ROW_KEY.match(self.text) if " | " in self.text else None
        keyed = [n for n in names if key is not None and _same_name(key.group("name"), n)]
        names = keyed or names
        uses = uses or (_CITE_CELL.fullmatch(clause) is not None and " | " in self.text and not keyed)
        # "`makeSuccessResult` sets ... `exitCode` (`result.js:62-86`)": a cite that ends a sentence about a
        # function, paragraph, class or constant of this file but misses its code is misplaced, whatever names the lines
        # happen to mention, a call of the subject among them (a definition of another name there still holds:
        # the cite is then that name's). Only a subject its callers run ("`X` is called when ...", "`X` runs
        # after `Y`") may be shown where it is used.
        opener = self._opening_name(_CITE_BODY_KINDS) if closes else None
        own = [d for d in (opener.res.defs if opener and opener.res else []) if d.path == path]
        astray = (
            opener is not None
            and bool(own)
            and not any(d.start_line <= end and start <= d.end_line for d in own)
            and _RUN_SUBJECT.match(self._masked, opener.ref.end) is None
        )
        misplaced: list[Symbol] = []
        for name in names:
            defs = [d for d in self.lk.definitions(last_part(name), None, path) if _same_name(d.name, last_part(name))]
            owner = last_part(name.rsplit(".", 1)[0]) if "." in name else None
            if owner is not None and any(d.detail.get("parent") == owner for d in self.lk.definitions(last_part(name))):
                # `LFUCache.popitem`: another class's popitem at the cited lines is not this one
                defs = [d for d in defs if d.detail.get("parent") == owner]
            spanned = row is not None and _same_name(row.group("name"), name)
            for sym in defs:
                if start <= sym.start_line <= end or (
                    not spanned and sym.kind not in FILE_KINDS and sym.start_line <= start and end <= sym.end_line
                ):
                    return CheckResult("ok", f"{cited} holds {sym.kind} {sym.name}", [self.lk.snippet(path, start, end)])
            if (uses or not defs) and not astray and self.lk.first_code_mention(path, last_part(name), start, end) is not None:
                return CheckResult("ok", f"{cited} mentions {name}", [self.lk.snippet(path, start, end)])
            if not defs and next(self._prefixed_lines(path, name, start, end), None) is not None:
                return CheckResult(
                    "ok", f"{cited} spells {name} after the length a literal gives it", [self.lk.snippet(path, start, end)]
                )
            if (uses or not defs) and not astray and self.lk.mentions(path, last_part(name), start, end):
                # "saves `SQLCODE` into its message (lines 147-157)" where only a comment there names it
                return CheckResult("mismatch", f"{cited} names {name} only in comments", [self.lk.snippet(path, start, end)])
            misplaced.extend(defs)
        # "..., which works because `SPECIAL-NAMES` declares it (line 23)": a word of the language the cite's own
        # clause quotes is what its lines show
        shown = [
            loc.ref.value
            for loc in self.located
            if lo <= loc.pos < hi
            and loc.ref.kind == "identifier"
            and _is_keyword(loc.ref.value)
            and self.lk.first_code_mention(path, loc.ref.value, start, end) is not None
        ]
        if shown:
            return CheckResult("ok", f"{cited} holds {shown[0]}", [self.lk.snippet(path, start, end)])
        # "runs `PTNR` with `EXEC CICS RUN TRANSID(...)` (lines 182-187)": the quoted statement, or a quoted
        # message, is what is cited (of the cite's clause; of the whole sentence, when the cite ends it)
        first, last = (0, len(self.text)) if closes else (lo, hi)
        for ref in self.claim.refs:
            if ref.kind != "value" or not first <= ref.start < last:
                continue
            if ref.value_kind == "code" and self.lk.quoted_statement_line(path, ref.value, start, end) is not None:
                return CheckResult("ok", f"{cited} holds {ref.text}", [self.lk.snippet(path, start, end)])
            if ref.value_kind == "string" and " " in ref.value.strip() and next(self._value_lines(path, ref, start, end), None):
                return CheckResult("ok", f"{cited} holds {ref.text}", [self.lk.snippet(path, start, end)])
        if misplaced:
            sym = misplaced[0]
            return CheckResult("mismatch", f"{sym.name} is at {_where(sym)}, not at {cited}", [_def_evidence(self.lk, sym)])
        return CheckResult("mismatch", f"{cited} does not mention {', '.join(names)}", [self.lk.snippet(path, start, end)])

    def _check_identifier(self, loc: _Located, scope: list[str]) -> None:
        ref, res = loc.ref, loc.res
        assert res is not None
        if not res.defs and not res.refs and not res.files and self._outside_member(ref.value):
            if self._acted_on(ref) and not self.lk.text_hits(last_part(ref.value), 1):
                # "`colortable.py` calls `colorama.just_fix_windows_console()`": another library's name may be
                # real, but code of the snapshot that never spells it makes no such call
                self._add(
                    "missing", f"{last_part(ref.value)} appears nowhere in the snapshot, so none of its code uses {ref.value}"
                )
            return  # another library's name, which the snapshot neither holds nor denies
        if not res.defs and not res.refs and not res.files and ref.strict and self._only_described(ref.value, res):
            quoted = next(((p, n) for p, n in res.hits if p in self.cited and self.lk.is_prose(p)), None)
            if quoted is not None:
                # "The README's own example sets ... for legacy browsers (IE11, various SmartTVs) (`README.md:83-86`)":
                # what the claim quotes from a document (or a source the index reads as text) it cites is that file's
                p, n = quoted
                self._add("ok", f"{ref.value} appears at {p}:{n}, in a file the claim cites", [self.lk.snippet(p, n, n)])
                return
            p, n = res.hits[0]
            said = next(iter(self._commented(ref.value)), None) if _SAYS_COMMENT.search(self.text) else None
            if said is not None:
                # "which the source comment says saves two frames": the claim itself puts the name in a comment
                p, n = said
                self._add("ok", f"{ref.value} appears in a comment at {p}:{n}", [self.lk.snippet(p, n, n)])
                return
            if not ref.text.startswith("`") and (ref.start, ref.end) not in self._fact_term_spans():
                # "the request limits of the CoinDesk API": a word of the answer's prose (a product, a service)
                # that no fact says the code has, and a comment of the snapshot names: no invention, and no
                # evidence for the claim either
                return
            self._add(
                "missing",
                f"{ref.value} appears only in prose or comments ({p}:{n}), nowhere in the code",
                [self.lk.snippet(p, n, n)],
            )
            return
        if not res.found:
            if ref.value.upper() in special_names() or (
                _STANDARD_PACKAGE.match(ref.value) and last_part(ref.value).upper() in special_names()
            ):
                # `java.lang.Exception`: the language's own, by its full name too
                self._add("ok", f"{ref.value} is a name the language supplies (no file declares it)")
            elif (
                "." in ref.value
                and (head := ref.value.split(".", 1)[0]).upper() in special_names()
                and not self.lk.definitions(head)
            ):
                # `dict.update`, `str.join`: a method of one of the language's own types
                self._add("ok", f"{ref.value} is a member of {head}, which the language supplies")
            elif ref.value.upper() in keywords() and not self._acted_on(ref):
                # "none of them has a `READ`": a verb of the language, which no corpus invents (what a fact says
                # is called or read is still checked as a name of the code)
                self._add("ok", f"{ref.value} is a reserved word of the language, which no code in the snapshot uses")
            elif self._outside_member(ref.value):
                return  # `mac.hexdigest()` on a local `mac`: a method of another library's object, no name of the corpus
            elif not ref.text.startswith("`") and (spelled := self._spelled_otherwise(ref.value)) is not None:
                # "CircleCI" in prose for the code's 'CIRCLECI': a word of the answer, written its own way
                p, n = spelled
                self._add("ok", f"{ref.value} appears at {p}:{n} (in another case)", [self.lk.snippet(p, n, n)])
            elif _FAMILY_AFTER.match(self.text, ref.end) and (items := self.lk.numbered(ref.value)):
                # "the four `WRK-PAY-RATE` fields": the stem of numbered items (WRK-PAY-RATE1 to WRK-PAY-RATE4)
                first = items[0]
                self._add("ok", f"{ref.value} is the stem of {first.name} at {_where(first)}", [_def_evidence(self.lk, first)])
            elif _FAMILY_AFTER.match(self.text, ref.end) and (part := self.lk.name_part(ref.value)) is not None:
                # "the `QSAM-STAT` fields": the part several names share (WS-OCOR1-QSAM-STAT, WS-OCOR2-QSAM-STAT)
                p, n, whole = part
                self._add("ok", f"{ref.value} is part of {whole} at {p}:{n}", [self.lk.snippet(p, n, n)])
            elif _ABSENT_BEFORE.search(self.text, 0, ref.start):
                # "so no `ToTimeSliceE` is generated": found nowhere, as the claim says
                self._add("ok", f"{ref.value} appears nowhere in the snapshot, which the claim says it lacks")
            elif (prefixed := self._length_prefixed(ref.value)) is not None:
                p, n = prefixed
                self._add(
                    "ok", f"{ref.value} appears at {p}:{n}, after the length a literal gives it", [self.lk.snippet(p, n, n)]
                )
            elif (folder := self.lk.directory_files(ref.value)) and not in_code_fragment(ref):
                # "The `biorhythms` folder holds four variants": a directory of the snapshot, named alone
                self._add("ok", f"{ref.value} is a directory of the snapshot ({len(folder)} files)")
            elif ref.strict:
                self._add("missing", f"{ref.value} appears nowhere in the snapshot")
            return
        if ref.start_line is not None:  # a line range cited for the name itself, no file given
            end = ref.end_line or ref.start_line
            inside = [d for d in res.defs if ref.start_line <= d.start_line <= end]
            if inside:
                self._add("ok", f"{ref.value} is defined at {_where(inside[0])}", [_def_evidence(self.lk, inside[0])])
            elif res.defs:
                self._add(
                    "mismatch",
                    f"{ref.value} is at {_where(res.defs[0])}, not at lines {ref.start_line}-{end}",
                    [_def_evidence(self.lk, res.defs[0])],
                )
            else:
                self._add("mismatch", f"{ref.value} has no definition to place at lines {ref.start_line}-{end}")
            return
        # Only names that live inside a program (a paragraph, a data item, a function) can be misplaced;
        # a DD, a map field or a dataset name is used by programs but belongs to none.
        locatable = not res.kinds.isdisjoint(LOCATABLE_KINDS)
        scope = [f for f in scope if self.lk.file_lines(f)]
        # "`BKMNU01C` never performs `9000-TERMINATE`": a name the claim says its files do not use need not be there
        denied = _NOT_USED_BEFORE.search(self.text, 0, ref.start) is not None
        if locatable and scope and res.paths.isdisjoint(scope) and not denied:
            found = [f for f in scope if self._present_in(ref.value, f)]
            if found and res.defs and self._states_definition():
                # "X is defined in timed.py" where timed.py only imports X: the name is right, the file is not
                d = res.defs[0]
                self._add(
                    "mismatch", f"{ref.value} is defined at {_where(d)}; {found[0]} only mentions it", [_def_evidence(self.lk, d)]
                )
                return
            if not found:
                where = _where(res.defs[0]) if res.defs else self._place(ref.value, res, [])[0].rsplit(" ", 1)[-1]
                ev = [_def_evidence(self.lk, res.defs[0])] if res.defs else []
                if self.actor_scope and not _PLACES.search(self.text):
                    # "`EPSCSMRT` passes `X` through to `Y`": what a named program does with a name it never
                    # names is no qualifier off, the relation itself fails
                    message = f"{ref.value} exists ({where}) but {', '.join(scope)} never names it"
                    self._add("contradicted", message, ev, relation=True)
                else:
                    self._add("mismatch", f"{ref.value} exists ({where}) but not in {', '.join(scope)}", ev)
                return
            self._add("ok", f"{ref.value} appears in {found[0]}", self._mention_evidence(found[0], ref.value))
            return
        self._add("ok", *self._place(ref.value, res, scope))

    def _spelled_otherwise(self, name: str) -> tuple[str, int] | None:
        """A line of code holding the name in another case (the full-text search ignores case)."""
        return next(
            (
                (p, n)
                for p, n, line in self.lk.search(name)
                if not self.lk.is_prose(p) and re.search(word_pattern(name, self.lk.hyphen_in_names(p)).pattern, line, re.I)
            ),
            None,
        )

    def _code_files(self, words: Iterable[str], limit: int, scope: Sequence[str] = ()) -> list[str]:
        """The code files (no prose) to read for a claim: of its scope when it has one, else those whose lines
        hold one of the words (at most limit hits a word)."""
        if scope:
            return [p for p in scope if not self.lk.is_prose(p)]
        return sorted({p for w in words for p, _ in self.lk.text_hits(w, limit) if not self.lk.is_prose(p)})

    def _length_prefixed(self, name: str) -> tuple[str, int] | None:
        """A line of the claim's code files whose literal spells the name after its length (``_prefixed_lines``)."""
        return next(((p, n) for p in self.scope if not self.lk.is_prose(p) for n in self._prefixed_lines(p, name)), None)

    def _prefixed_lines(self, path: str, name: str, start: int = 1, end: int | None = None) -> Iterator[int]:
        """Code lines of the file, within the range, with a literal that spells the name after its length: a
        COBOL table of keywords holds `"10NOKEYFOUND"` and `"02hi "`, each entry prefixed by the length of
        its word, which the full-text search and a whole-word match read as another word."""
        pattern = re.compile(rf"[\"']\d{{1,3}}{re.escape(name)}(?![\w-])")
        lines = self.lk.file_lines(path)
        return (
            n
            for n in range(start, min(end or len(lines), len(lines)) + 1)
            # the substring test first: most lines of a program do not hold the name, and a regex search costs more
            if name in lines[n - 1] and pattern.search(lines[n - 1]) and not self._in_comment(path, n)
        )

    def _outside_member(self, name: str) -> bool:
        """Is a dotted name an attribute of a local variable (`mac.hexdigest`) or of a module the code imports
        from outside the snapshot (`string.Formatter.format_field`)? Its head is used in code but defined
        nowhere as a class, function or module of the snapshot."""
        head = name.split(".", 1)[0]
        if "." not in name or head in ("self", "cls"):
            return False
        module = (f"{head}.py", f"{head}/__init__.py")
        if any(p in module or p.endswith(("/" + module[0], "/" + module[1])) for p in self.lk.all_paths()):
            return False  # `winterm.set_icon`: the snapshot's own module (or a variable named after it) has no such name
        if any(r.target.split(".", 1)[0] == head for r in self.lk.references(head, RefKind.IMPORT)):
            return True  # `import json` of a module the snapshot does not hold
        if any(r.target.rsplit("/", 1)[-1] == head for r in self.lk.references(None, RefKind.IMPORT) if "/" in r.target):
            return True  # Go's `import "encoding/csv"`: the package is used by its last path element, `csv.Writer`
        if self.lk.definitions(head):
            return False
        return any(
            self.lk.code_mentions(p, head, n, n) and re.search(rf"(?<![\w.]){re.escape(head)}\s*=[^=]", line)
            for p, n in self.lk.text_hits(head, 20)
            for line in [self.lk.file_lines(p)[n - 1]]
        )

    def _states_definition(self) -> bool:
        return any(c.relation == "defines" for c in relation_cues(self.text))

    def _only_described(self, name: str, res: Resolution) -> bool:
        """Is a code-shaped name (CamelCase, snake_case, COBOL-hyphenated) found only in prose files
        or comment lines? A changelog or a comment naming a class is no sign the code has it."""
        if not res.hits or not (_CODE_SHAPED.search(name) or is_cobol_shaped(name)):
            return False
        # the resolution's own lines first (a `from difflib import get_close_matches` for the dotted name)
        for path, n in [*res.hits, *self.lk.text_hits(name, 50)]:
            if not self.lk.is_prose(path) and not self._in_comment(path, n):
                return False
        return True

    def _commented(self, name: str) -> list[tuple[str, int]]:
        """Comment lines of code files naming name."""
        return [(p, n) for p, n in self.lk.text_hits(name, 50) if not self.lk.is_prose(p) and self._in_comment(p, n)]

    def _in_comment(self, path: str, n: int) -> bool:
        return is_comment(self.lk.file_lines(path)[n - 1], self.lk.line_language(path))

    def _present_in(self, name: str, path: str) -> bool:
        return bool(self.lk.mentions(path, last_part(name)))

    def _mention_evidence(self, path: str, name: str) -> list[Evidence]:
        lines = self.lk.mentions(path, last_part(name))
        return [self.lk.snippet(path, lines[0], lines[0])] if lines else []

    def _place(self, name: str, res: Resolution, scope: list[str]) -> tuple[str, list[Evidence]]:
        """Where a resolved name is, as a message and evidence, in the files the claim is about first."""
        about = scope or self.scope
        within = set(about)  # a name many programs share has as many definitions to test
        defs = [d for d in res.defs if d.path in within]
        refs = [r for r in res.refs if r.path in within]
        # Only for names that belong to no program (a DD, a dataset, a transaction ID): a data item or a
        # paragraph is best shown where it is defined.
        if not defs and not refs and res.kinds.isdisjoint(FILE_KINDS | LOCATABLE_KINDS):
            mention = next(((p, n) for p in about for n in self.lk.code_mention_lines(p, last_part(name))), None)
            if mention is not None:
                p, n = mention
                return f"{name} appears at {p}:{n}", [self.lk.snippet(p, n, n)]
        defs = defs or res.defs
        if defs:
            return f"{name} is a {defs[0].kind} at {_where(defs[0])}", [_def_evidence(self.lk, defs[0])]
        refs = refs or res.refs
        if refs:
            ref = refs[0]
            return f"{name} is used ({ref.kind}) at {ref.path}:{ref.line}", [self._ref_evidence(ref)]
        if res.files:
            return f"{name} is the file {res.files[0]}", [self.lk.snippet(res.files[0], 1, 5)]
        p, n = res.hits[0]
        return f"{name} appears at {p}:{n}", [self.lk.snippet(p, n, n)]

    # -- values -------------------------------------------------------------------------------------

    def _data_items(self, pos: int) -> list[Symbol]:
        """The definitions of the data item a PIC or USAGE at pos describes: the one named nearest
        before it ("`AUD-KEY` is made of `AUD-TIMESTAMP` (`PIC X(26)`)"), else the first after it."""
        named = [
            (loc.pos, [d for d in loc.res.defs if d.kind == SymbolKind.DATA_ITEM]) for loc in self.located if loc.res is not None
        ]
        named = [(p, defs) for p, defs in named if defs]
        # "`A` and `B` are `PIC 9(13)` and `PIC V9(13)`": as many attributes after the names as names, respectively
        attrs = [loc.pos for loc in self.located if loc.ref.value_kind in ("pic", "usage")]
        if len(named) > 1 and len(attrs) == len(named) and max(p for p, _ in named) < min(attrs):
            return named[attrs.index(pos)][1]
        before = [defs for p, defs in named if p < pos]
        after = [defs for p, defs in named if p >= pos]
        return before[-1] if before else (after[0] if after else [])

    def _check_values(self, scope: list[str]) -> None:
        anchored = any(loc.ref.strict or loc.ref.kind != "value" for loc in self.located)
        for loc in self.located:
            ref = loc.ref
            if ref.kind != "value" or _EXAMPLE_BEFORE.search(self.text, 0, ref.start):
                continue  # "a number such as `-5`": an example of a kind of input, not a value of the code
            if ref.value_kind in ("pic", "usage"):
                self._check_item_attr(ref, self._data_items(loc.pos), scope)
            elif ref.value_kind == "initial":
                self._check_initial(ref, self._data_items(loc.pos), scope)
            elif ref.value_kind == "code":
                self._check_fragment(ref, scope)
            elif ref.value_kind == "string" or (ref.value_kind == "number" and (anchored or _specific(ref.value))):
                # A bare small number ("retries 3 times") turns up in any file: alone it confirms nothing.
                self._check_literal(ref, scope)

    def _check_item_attr(self, ref: ClaimRef, items: list[Symbol], scope: list[str]) -> None:
        attr = "pic" if ref.value_kind == "pic" else "usage"
        norm = expand_pic if attr == "pic" else normalize_usage
        shown = ref.value if attr == "usage" else f"PIC {ref.value}"
        if items:
            items = preferred_in(items, scope)
            match = [d for d in items if norm(d.detail.get(attr, "")) == norm(ref.value)]
            inner = None if match or attr != "pic" else self._group_pic(items, ref.value)
            if inner is not None:
                d, n = inner
                self._add("ok", f"{d.name} holds an item of {shown} at {d.path}:{n}", [self.lk.snippet(d.path, n, n)])
            elif match:
                self._add("ok", f"{match[0].name} is {shown} at {_where(match[0])}", [_def_evidence(self.lk, match[0])])
            else:
                d = items[0]
                actual = d.detail.get(attr)
                has = f"{'PIC ' if attr == 'pic' else ''}{actual}" if actual else f"no {attr.upper()} clause"
                self._add("mismatch", f"{d.name} has {has} at {_where(d)}, not {shown}", [_def_evidence(self.lk, d)])
            return
        pool = [d for f in scope for d in self.lk.definitions(None, SymbolKind.DATA_ITEM, f)] if scope else []
        match = [d for d in pool if norm(d.detail.get(attr, "")) == norm(ref.value)]
        if match:
            self._add("ok", f"{match[0].name} is {shown} at {_where(match[0])}", [_def_evidence(self.lk, match[0])])
        elif scope:
            self._add("mismatch", f"no data item in {', '.join(scope)} is {shown}")
        # Without a data item or a file to look in, a bare PIC names nothing checkable.

    def _group_pic(self, items: list[Symbol], pic: str) -> tuple[Symbol, int] | None:
        """A group item has no PIC of its own: "`TABLE` occurs 10 times, each entry a `PIC 99` code" speaks
        of the items under it, FILLERs included (which the index does not name), so its lines are read."""
        for d in items:
            if "pic" in d.detail:
                continue
            lines = self.lk.file_lines(d.path)
            for n in range(d.start_line + 1, min(d.end_line, len(lines)) + 1):
                m = _PIC_CLAUSE.search(lines[n - 1])
                if m and expand_pic(m.group(1)) == expand_pic(pic):
                    return d, n
        return None

    def _check_initial(self, ref: ClaimRef, items: list[Symbol], scope: list[str]) -> None:
        """The VALUE of a quoted data entry (`PIC S9(4) COMP VALUE IS 10`) against the item's own VALUE clause:
        a PIC off is a detail, a wrong value is a false statement of what the program starts from."""
        items = preferred_in(items, scope)
        valued = [d for d in items if "value" in d.detail]
        if not valued:
            return
        for d in valued:
            if normalize_value(d.detail["value"]) == normalize_value(ref.value):
                self._add(
                    "ok", f"{d.name} has VALUE {d.detail['value']} at {_where(d)}", [_def_evidence(self.lk, d)], relation=True
                )
                return
        d = valued[0]
        self._add(
            "contradicted",
            f"{d.name} has VALUE {d.detail['value']} at {_where(d)}, not {ref.value}",
            [_def_evidence(self.lk, d)],
            relation=True,
        )

    def _check_fragment(self, ref: ClaimRef, scope: list[str]) -> None:
        """An inline COBOL statement (`EXEC CICS XCTL PROGRAM('BKUPD02C')`) must be in the claim's files
        as written (case, spacing and line breaks aside; "..." skips any text); with no files named,
        anywhere in the snapshot."""
        parts = statement_parts(ref.value)
        if not parts or _HYPOTHETICAL.search(self.text, 0, ref.start):
            return  # "would be better done with `FUNCTION NUMVAL`": a statement proposed, not said to be there
        # a number placeholder's first item (EOL-HOURS1 for EOL-HOURSn) is what the files hold
        naming = self._code_files([_longest_word(NUMBER_PLACEHOLDER.sub(r"\g<1>1", parts[0]))], 20)
        for path in scope or naming:
            line = self.lk.quoted_statement_line(path, ref.value)
            if line is not None:
                self._add("ok", f"{ref.text} is in {path} (line {line})", [self.lk.snippet(path, line, line)])
                return
        where = ", ".join(scope) if scope else "the snapshot"
        elsewhere = [p for p in naming if p not in scope]
        if scope and not any(self.lk.quoted_statement_line(p, ref.value) is not None for p in elsewhere):
            # absent from the claim's files and from every other file too: made up, not misplaced
            self._add("missing", f"{ref.text} is not in {where} nor anywhere else in the snapshot")
        elif scope and self.actor_scope and not _PLACES.search(self.text):
            # "`P` reads the file with `EXEC CICS STARTBR`": the statement is how the named program acts,
            # so its absence there is the relation failing, not a file off
            self._add("contradicted", f"{ref.text} is not in {where}", relation=True)
        else:
            self._add("mismatch" if scope else "missing", f"{ref.text} is not in {where}")

    def _check_literal(self, ref: ClaimRef, scope: list[str]) -> None:
        value = ref.value
        if not re.search(r"\w", value):
            return  # `" "`, `"*"`: blanks or punctuation, which the full-text search cannot look for
        shown = value if ref.value_kind == "number" else f"'{value}'"
        if ref.value_kind == "number":
            # A number may be written with thousands separators in the code (a literal '50,000.00') or not.
            pattern = re.compile("|".join(word_pattern(v).pattern for v in sorted({value, ref.text})))
            literal = pattern
        else:
            # A claim's text has its runs of blanks squashed, which a message in the code may keep ("libmagic.  Check")
            spaced = re.escape(value).replace(r"\ ", r"\s+")
            pattern = re.compile(spaced)
            # A string is best found as a literal in the code; anywhere in a line will do otherwise.
            literal = re.compile("[\"']" + spaced + "[\"']") if ref.value_kind == "string" else pattern
        for pat in dict.fromkeys((literal, pattern)):  # a number's or a name's one pattern is read once
            for path in scope:
                lines = self.lk.file_lines(path)
                for n, line in enumerate(lines, start=1):
                    if pat.search(line):
                        self._add("ok", f"{shown} appears at {path}:{n}", [self.lk.snippet(path, n, n)])
                        return
        if not scope and ref.strict:
            hits = sorted(
                ((p, n) for p, n, line in self.lk.search(value) if pattern.search(line)),
                key=lambda h: (self.lk.is_prose(h[0]), h),
            )
            if hits:
                p, n = hits[0]
                self._add("ok", f"{shown} appears at {p}:{n}", [self.lk.snippet(p, n, n)])
                return
        if ref.value_kind == "string" and " " in value.strip():
            for path in self._code_files([_longest_word(value)], 20, scope):
                if (joined := self.lk.concatenated_literal(path, value)) is not None:
                    self._add(
                        "ok", f"{shown} is the literals joined at {path}:{joined}", [self.lk.snippet(path, joined, joined + 1)]
                    )
                    return
        if ref.value_kind == "string":
            rendered = self._rendered_line(value, scope)
            if rendered is not None:
                p, n = rendered
                self._add("ok", f"{shown} is what the template at {p}:{n} renders", [self.lk.snippet(p, n, n)])
                return
        if (
            ref.value_kind == "string"
            and " " in value.strip()
            and any(ch.islower() for ch in value)
            and (capitals := self._in_capitals(value, scope)) is not None
        ):
            p, n = capitals
            self._add("ok", f"{shown} appears at {p}:{n} (in capitals)", [self.lk.snippet(p, n, n)])
            return
        cobol = all(self.lk.language(path) == "cobol" for path in scope)
        if not ref.strict and ref.value_kind == "number" and _specific(value) and scope and scope == self.strong and cobol:
            # a telling number ("caps a loan at 100000000.01") stated of the COBOL programs the claim names is a
            # value of their code or of the copybooks they copy; absent from both, it is a wrong value (other
            # languages name their numbers: `codes.temporary_redirect` for 307)
            copied = [
                d.path
                for path in scope
                for r in self.lk.references(None, RefKind.COPY, path)
                for d in self.lk.definitions(r.target, SymbolKind.COPYBOOK)
            ]
            for path in dict.fromkeys(copied):
                at = next((n for n, line in enumerate(self.lk.file_lines(path), start=1) if pattern.search(line)), None)
                if at is not None:
                    self._add("ok", f"{shown} appears at {path}:{at}", [self.lk.snippet(path, at, at)])
                    return
            self._add("contradicted", f"{shown} appears nowhere in {', '.join(scope)} nor its copybooks", relation=True)
            return
        if _argument_of_quoted_code(ref) and (
            _OPENS_WITH_NAME.match(self.text[: ref.start]) or _USAGE_BEFORE.search(self.text, 0, ref.start)
        ):
            return  # "`Timber.tag("Net")` sets ...", "so `f("x")` ...": a call shown as a use, its argument an example
        if ref.strict:
            # A quoted message absent from the claim's files is misplaced only if it is somewhere else: one
            # no line of the snapshot holds was made up. A one-word string may be a wrong value ("USD" for
            # "EUR"), which the value checks judge.
            where = ", ".join(scope) if scope else "the snapshot"
            made_up = " " in value.strip() and not _argument_of_quoted_code(ref)
            if scope and ref.value_kind == "string" and made_up and not self.lk.text_hits(value, 1):
                self._add("missing", f"{shown} does not appear in {where} nor anywhere else in the snapshot")
                return
            # an argument of a quoted call may be built at run time: absent, it is off, not made up
            missing = not scope and not _argument_of_quoted_code(ref)
            if scope and not missing and not _argument_of_quoted_code(ref) and not self._anywhere(value, pattern):
                # a value no line of the snapshot holds is a wrong value of the claim's code, not one misplaced
                self._add("contradicted", f"{shown} appears nowhere in {where} nor anywhere else in the snapshot", relation=True)
                return
            # a value found nowhere is recorded against its reference: it may be one the claim works out itself
            # (a worked example's result), which the LLM verifier is then asked about
            self._about = ref if missing else None
            self._add("missing" if missing else "mismatch", f"{shown} does not appear in {where}")
            self._about = None

    def _in_capitals(self, value: str, scope: list[str]) -> tuple[str, int] | None:
        """A line written all in capitals (of the claim's files, when it has any) that holds a quoted phrase the
        claim writes in lower case ("describes itself as 'my 32 byte wide version'" of a COBOL banner `THIS IS MY
        32 BYTE WIDE VERSION`): such a line's case says nothing. A line with any lower-case letter keeps its
        case, which a message's value may hang on."""
        wanted = " ".join(value.split()).upper()
        return next(
            (
                (p, n)
                for p, n, line in sorted(self.lk.search(value), key=lambda h: (self.lk.is_prose(h[0]), h))
                if (not scope or p in scope) and not any(ch.islower() for ch in line) and wanted in " ".join(line.split())
            ),
            None,
        )

    def _anywhere(self, value: str, pattern: re.Pattern[str]) -> bool:
        """Does some line of the snapshot hold the value (as the pattern spells it)?"""
        return any(pattern.search(line) for _, _, line in self.lk.search(value, FULL_SEARCH_LIMIT))

    def _rendered_line(self, value: str, scope: list[str]) -> tuple[str, int] | None:
        """A code line whose string literal renders the quoted message: its format placeholders (`%d`, `{n}`)
        stand for the quote's values, and the quote's own placeholders ("...", `<path>`) for the code's, which
        may be a value joined between two literals ("wildcard segment ... conflicts" of Go's
        `"wildcard segment '" + path + "' conflicts"`)."""
        words = re.findall(r"[A-Za-z]{3,}", _QUOTE_PLACEHOLDER.sub(" ", value))
        if not words:
            return None
        # the longest word may be a value the template fills in: each word's lines are candidates
        for path in self._code_files(words, 50, scope):
            lines = self.lk.file_lines(path)
            for n, line in enumerate(lines, start=1):
                if not any(w in line for w in words):
                    continue
                literals = string_literals(line)
                # the statement's literals, its line and those it runs on to after a `+` or `&`
                more = [*literals]
                for k in range(n, min(n + MAX_LITERAL_LINES, len(lines))):
                    if not lines[k - 1].rstrip().endswith(("+", "&")):
                        break
                    more += string_literals(lines[k])
                joined = ["\0".join(more)] if len(more) > 1 else []
                if any(renders(lit, value) for lit in [*literals, *joined]):
                    return path, n
        return None

    # -- relations ----------------------------------------------------------------------------------

    def _is_actor(self, loc: _Located) -> bool:
        """Can this name do things (perform, read, XCTL)? A paragraph, program or file can; a data item
        or a copybook cannot."""
        if loc.ref.kind == "path":
            return True
        # `INPUT`, an OPEN mode, is no program though a file input.txt shares its stem
        named_file = bool(loc.res and loc.res.files) and not _is_keyword(loc.ref.value)
        return loc.res is not None and (named_file or not loc.res.kinds.isdisjoint(ACTOR_KINDS))

    def _in_cobol(self, loc: _Located) -> bool:
        """Is the name or file a COBOL one (where "copies" means a COPY statement)?"""
        paths = loc.files or ([d.path for d in loc.res.defs] if loc.res else [])
        return any(self.lk.language(p) in ("cobol", "jcl", "bms") for p in paths)

    def _context_located(self) -> _Located | None:
        """The context as an actor: the carried context unless it is a copybook (which does nothing) and
        the heading's topic is something else."""
        candidates = [(n, self.lk.context_files(n)) for n in self._context_names()]
        candidates = [(n, files) for n, files in candidates if files]
        if not candidates:
            return None
        name, files = next(((n, f) for n, f in candidates if not all(self.lk.is_copybook(p) for p in f)), candidates[0])
        ref = ClaimRef(kind="identifier", text=name, value=PurePosixPath(name).stem)
        return _Located(ref, -1, files, Resolution(files=files))

    def _relation_links(self) -> list[tuple[str, frozenset[RefKind], _Located | None, _Located]]:
        """(relation, subject, object) triples from the cue words and the order of the names around them.

        A subject is the nearest name before the cue that can act (not a data item), else the context;
        "it performs" and "and then runs" keep the previous cue's subject; "X, which it copies" makes X the object and the
        context the subject; "transfers control to it" makes the context the object."""
        cues = relation_cues(self.text)
        text = self.text
        named = [
            loc for loc in self.located if loc.ref.kind in ("identifier", "path") and (loc.files or (loc.res and loc.res.found))
        ]
        links: list[tuple[str, frozenset[RefKind], _Located | None, _Located]] = []
        previous: _Located | None = None
        after_passive = False
        previous_objects: list[_Located] = []
        acted_on: list[_Located] = []
        for i, cue in enumerate(cues):
            if cue.relation == "defines":
                continue  # a definition's place is checked by the file and line checks
            nxt = cues[i + 1].start if i + 1 < len(cues) else len(text) + 1
            # "calls `f` and returns `False` when it raises `E`": what follows another verb is not this one's
            stop = _OTHER_VERB.search(self._masked, cue.end)
            nxt = min(nxt, stop.start()) if stop else nxt
            before = text[: cue.start]
            # "writes X to a file, and `load` reads it": a name the next verb follows is that verb's subject
            after = [loc for loc in named if cue.end <= loc.pos < nxt and (nxt > len(text) or text[loc.ref.end : nxt].strip())]
            # "calls `load()`, which reads `config.properties`": the relative clause says what the object does
            clause = _CLAUSE_END.search(self._masked, cue.end, nxt)
            after = [loc for loc in after if clause is None or loc.pos < clause.start()]
            # "| `A`: stores the slice | `B`: copies it |"
            after = [loc for loc in after if loc.pos < cell_end(text, cue.end)]
            earlier = [loc for loc in named if loc.pos < cue.start]
            agents: list[_Located] = []
            # "... in BKACT01C", "... of BKUPD02C": a name after a place word locates, it is not an object
            places = [loc for loc in after if _PLACE_WORD.search(text[: loc.pos]) and self._is_actor(loc)]
            after = [loc for loc in after if loc not in places]
            if cue.passive:
                # the agents are the names after "by"/"from" ("is performed with THRU X from Y": Y)
                by = _BY_AGENT.search(text, cue.end, nxt)
                # "is performed until WS-IDX passes ...": without "by"/"from" the names after the verb
                # are conditions or places, not agents; the agent is then the context.
                # "are written out by hand, because ... `M`": the agent is the name the word introduces, not any later one
                named_by = [
                    loc
                    for loc in after
                    if by is not None and loc.pos >= by.end() and _AGENT_GAP.fullmatch(text, by.end(), loc.pos)
                ]
                subject = named_by[0] if named_by else (places[0] if places else None)
                # "... after the card is read": what is read is the prose's noun, none of the names before it
                prose_subject = _PROSE_PASSIVE_SUBJECT.search(self._masked, 0, cue.start) is not None
                objects = ([] if prose_subject else earlier) + [loc for loc in after if loc not in named_by]
                if _PRONOUN_PASSIVE.search(before):
                    objects = earlier[:1]  # "`f` creates a `TreeSet` the first time it is called": f is called
                agents = [loc for loc in named_by[1:] if self._is_actor(loc)]  # "imported by A and by B": each must
            elif _WHICH_PRONOUN.search(before):
                objects, subject = earlier[-1:], previous
            else:
                objects = after
                # a name inside a quoted call or signature is its argument, not who acts
                actors = [loc for loc in earlier if self._is_actor(loc) and not in_code_fragment(loc.ref)]
                # "performs A, reads B": A is what the previous verb acted on, not a new subject.
                since_previous = [loc for loc in actors if i > 0 and loc.pos >= cues[i - 1].end and loc not in previous_objects]
                # (a COBOL data item right before the verb is what a statement acts on, never who acts:
                # "`ACCEPT WS-IN` reads the line and `FUNCTION LOWER-CASE` copies it into `WS-LC`")
                adjacent = [
                    loc
                    for loc in earlier
                    if not text[loc.ref.end : cue.start].strip()
                    and not _PLACE_WORD.search(text[: loc.pos])
                    and not _only_data(loc)
                ]
                if adjacent:
                    subject = adjacent[-1]  # "... under which `models.py` imports": the name right before the verb
                elif _PRONOUN_SUBJECT.search(before) and previous is not None:
                    subject = previous
                elif _WHICH_SUBJECT.search(before) and actors:
                    subject = actors[-1]  # "runs BKTRN02C, which reads DALYTRAN": BKTRN02C reads
                elif previous is not None and not since_previous and not after_passive:
                    # "reads DALYTRAN, updates ACCTDAT and appends to TRANHIST": one subject, several verbs
                    subject = previous
                elif _PRONOUN_SUBJECT.search(before):
                    # "`main()` builds the parser with `build_parser()` and calls `run()`": the sentence's
                    # subject acts again, not the instrument named just before; "performs `A`; otherwise it
                    # links": what an earlier verb acted on is no subject, so "it" is then the context.
                    fresh = [loc for loc in actors if not any(loc is o for o in acted_on)]
                    subject = next(iter([loc for loc in fresh if not loc.files] or fresh), None)
                else:
                    # "`0000-MAIN` in cbl/X.cbl performs Y": the paragraph acts, the file only locates it.
                    spans = [loc for loc in actors if not loc.files]
                    # "`f` records the path in `RunInfo`, runs `g`": RunInfo is where f records, not who runs g
                    free = [loc for loc in spans if not _PREPOSITION_BEFORE.search(text, 0, loc.pos)]
                    subject = (free or spans or actors)[-1] if actors else (places[0] if places else None)
                if not objects:
                    context = self._context_located()
                    passive_files = [loc for loc in earlier if not self._is_actor(loc)]
                    # Only for control transfer: "copies it" more often means a copybook named just before.
                    if cue.relation == "transfers" and _PRONOUN_OBJECT.match(text, cue.end) and context:
                        objects = [context]
                    elif cue.relation == "transfers" and _BY_MEANS_OF.search(before) and previous is not None:
                        # "`A` transfers control to `B` with an XCTL": the word names the mechanism of the same
                        # link, so A must hold the XCTL, not whichever program reaches B.
                        subject, objects = previous, previous_objects
                    elif cue.relation == "transfers" and _BY_MEANS_OF.search(before):
                        # "sent to COADM01C and COMEN01C, both with XCTL": the programs named before
                        objects = [
                            loc for loc in earlier if any(d.kind == SymbolKind.PROGRAM for d in (loc.res.defs if loc.res else []))
                        ]
                        subject = None
                    elif cue.relation in ("reads", "writes") and passive_files:
                        # "ACCTREJ | Access: read", "reads AUDITLG before writing": the file named before
                        # the verb is what is read or written.
                        objects = passive_files[-1:]
                    else:
                        # nothing named after the cue: a second cue word for the same link, or a verb of
                        # its own subject whose object is prose ("`load` reads the whole file and calls")
                        previous = subject or previous
                        continue
            previous = subject or previous
            previous_objects = objects
            acted_on += objects
            after_passive = cue.passive
            kinds = RELATION_REFS[cue.relation]
            word = text[cue.start : cue.end].upper()
            if cue.relation == "transfers" and ("XCTL" in word or "LINK" in word):
                kinds = frozenset({RefKind.XCTL} if "XCTL" in word else {RefKind.LINK})  # LINK returns, XCTL does not
            if cue.relation == "copies" and word.startswith("COP") and subject is not None and not self._in_cobol(subject):
                continue  # "`build_response` copies the status": English, not a COPY statement
            for who in [subject, *agents]:
                for obj in objects:
                    if obj is not who and obj.ref.kind == "identifier":
                        # "copies the record to `TEST-SOURCE`": where the copy goes is written, no copybook
                        if cue.relation == "copies" and _DESTINATION_BEFORE.search(text, cue.end, obj.pos):
                            links.append(("writes", RELATION_REFS["writes"], who, obj))
                        else:
                            links.append((cue.relation, kinds, who, obj))
        return links + self._statement_links(named) + self._row_copy_links(named, links)

    def _row_copy_links(
        self, named: list[_Located], links: list[tuple[str, frozenset[RefKind], _Located | None, _Located]]
    ) -> list[tuple[str, frozenset[RefKind], _Located | None, _Located]]:
        """A table row whose first cell is a program and one of whose columns lists its copybooks
        ("`P` | Copybooks: `A`, `B`"): the program copies each listed name."""
        text = self.text
        first = text.find(" | ")
        row_subject = (
            next((loc for loc in named if loc.ref.kind == "identifier" and loc.pos < first), None) if first > 0 else None
        )
        if row_subject is None or row_subject.res is None or SymbolKind.PROGRAM not in row_subject.res.kinds:
            return []
        linked = {id(obj) for relation, _, _, obj in links if relation == "copies"}
        out: list[tuple[str, frozenset[RefKind], _Located | None, _Located]] = []
        for m in _COPY_COLUMN.finditer(text):
            end = text.find(" | ", m.end())
            end = len(text) if end < 0 else end
            for loc in named:
                if loc.ref.kind == "identifier" and m.end() <= loc.pos < end and id(loc) not in linked:
                    out.append(("copies", RELATION_REFS["copies"], row_subject, loc))
        return out

    def _statement_links(self, named: list[_Located]) -> list[tuple[str, frozenset[RefKind], _Located | None, _Located]]:
        """A quoted statement states its own relation: `EXEC CICS LINK PROGRAM('X')` says the subject
        LINKs to X, `CALL 'X'` that it calls X, `COPY X` that it copies X."""
        links: list[tuple[str, frozenset[RefKind], _Located | None, _Located]] = []
        for loc in self.located:
            if loc.ref.value_kind != "code":
                continue
            m = _STATEMENT_RELATION.match(loc.ref.value)
            bare = _BARE_TRANSFER.fullmatch(loc.ref.value.strip())
            if m is not None:
                verb, target = m.group(1).upper(), m.group(2).upper()
            elif bare is not None:
                # "uses `EXEC CICS XCTL` to reach `X`": the verb alone, its target the program named after it
                after = [a for a in named if a.pos > loc.pos and a.res is not None and SymbolKind.PROGRAM in a.res.kinds]
                if not after or not _TO_REACH.fullmatch(self.text, loc.ref.end, after[0].pos):
                    continue
                verb, target = bare.group(1).upper(), after[0].ref.value.upper()
            else:
                continue
            relation, kinds = {
                "XCTL": ("transfers", frozenset({RefKind.XCTL})),
                "LINK": ("transfers", frozenset({RefKind.LINK})),
                "CALL": ("calls", frozenset({RefKind.CALL})),
                "COPY": ("copies", frozenset({RefKind.COPY})),
            }[verb.split()[-1]]
            obj = next((loc for loc in named if loc.ref.kind == "identifier" and loc.ref.value.upper() == target), None)
            if obj is None:
                continue
            actors = [
                a
                for a in named
                if a.pos < loc.pos and self._is_actor(a) and not in_code_fragment(a.ref) and a.ref.value.upper() != target
            ]
            links.append((relation, kinds, actors[-1] if actors else None, obj))
        return links

    def _subject_scope(self, subject: _Located | None) -> tuple[str, list[tuple[str, int, int]] | None]:
        """(description, spans) where spans None means the whole snapshot."""
        if subject is not None:
            if subject.files:
                return subject.ref.value, [self._unit_span(subject, f) for f in subject.files]
            if subject.res is not None and subject.res.defs:
                defs = self._preferred(subject.res.defs)
                return subject.ref.value, [(d.path, self._decorated_start(d), d.end_line) for d in defs]
        context = self._context_located()
        if context is not None:
            return context.ref.text, [(f, 1, 10**9) for f in context.files]
        return "the snapshot", None

    def _unit_span(self, loc: _Located, path: str) -> tuple[str, int, int]:
        """A file a name stands for; only the program's own lines when the file holds several programs
        (GnuCOBOL's sibling and nested programs), so another program's CALL there is not the subject's."""
        units = [d for d in (loc.res.defs if loc.res else []) if d.path == path and d.kind is SymbolKind.PROGRAM]
        if len(units) == 1 and len(self.lk.definitions(None, SymbolKind.PROGRAM, path)) > 1:
            return path, units[0].start_line, units[0].end_line
        return path, 1, 10**9

    def _decorated_start(self, d: Symbol) -> int:
        """A definition's first line, taking in the decorators, annotations or Rust attributes right above it
        (`@Component`, `#[derive(PartialOrd)]`)."""
        lines = self.lk.file_lines(d.path)
        start = d.start_line
        while start > 1 and lines[start - 2].lstrip().startswith(("@", "#[")):
            start -= 1
        return start

    def _preferred(self, defs: list[Symbol]) -> list[Symbol]:
        """Definitions in the files the claim is about (its own, else its context), when there are any:
        `0000-MAIN` in a claim about BKTRN02C is BKTRN02C's 0000-MAIN, not another program's."""
        return preferred_in(defs, self.scope)

    def _check_relation(self, relation: str, kinds: frozenset[RefKind], subject: _Located | None, obj: _Located) -> None:
        name = obj.ref.value
        res = obj.res
        assert res is not None
        io = relation in ("reads", "writes")
        # Any I/O reference makes a name a file, whichever way the claim says the data goes.
        family = IO_REFS if io else RELATION_REFS[relation]
        fits = not res.kinds.isdisjoint(RELATION_OBJECT_DEFS[relation]) or any(r.kind in family for r in res.refs)
        if not fits:
            # A program outside the snapshot (CEE3ABD, an IBM routine) is known by the CALL/XCTL/LINK to it.
            reached = family | PROGRAM_REFS if relation in ("calls", "transfers") else family
            fits = any(r.kind in reached for r in self.lk.references(last_part(name)))
        if not fits and io:
            fits = bool(self._file_aliases(name))
        if not fits and relation == "copies" and any(d.language != "cobol" for d in res.defs):
            self._check_name_import(name, subject)
            return
        if not fits:
            self._check_involvement(relation, subject, obj)
            return
        targets = {last_part(name).upper()}
        if NUMBERED.fullmatch(name):  # `R3100`: the sections its number resolved to
            targets |= {d.name.upper() for d in res.defs}
        if io:
            targets |= self._file_aliases(name)
        who, spans = self._subject_scope(subject)
        verb = {
            "calls": "calls/performs",
            "copies": "copies",
            "reads": "reads",
            "writes": "writes",
            "transfers": "transfers control to",
        }[relation]
        reaching = _refs_to(self.lk, self._refs_of(None, spans), name, targets)
        if io:
            # A paragraph's I/O is often done by the paragraphs it performs ("`8100-LOAD` reads two records from
            # `CONFIG`" through `PERFORM 9100-READ-CONFIG`)
            # (only the statement doing what is claimed is taken from them: they may do other things too)
            if spans and not any(r.kind in family and relation in io_directions(r) for r in reaching):
                performed = _refs_to(self.lk, self._refs_of(None, self._performed(spans)), name, targets)
                reaching += [r for r in performed if r.kind in family and relation in io_directions(r)]
            # A READ/WRITE statement is better evidence than the OPEN before it.
            found = sorted((r for r in reaching if r.kind in family), key=lambda r: r.kind == RefKind.FILE_OPEN)
            exact = [r for r in found if relation in io_directions(r)]
        else:
            found = [r for r in reaching if r.kind in family]
            exact = [r for r in found if r.kind in kinds]
        if exact:
            ref = exact[0]
            self._add(
                "ok", f"{who} {verb} {name} ({ref.kind} at {ref.path}:{ref.line})", [self._ref_evidence(ref)], relation=True
            )
        elif io and found:
            ref = found[0]
            other = "writes" if relation == "reads" else "reads"
            self._add(
                "contradicted",
                f"{who} only {other} {name} ({ref.kind} at {ref.path}:{ref.line}), it never {relation[:-1]}s it",
                [self._ref_evidence(ref)],
                relation=True,
            )
        elif found or reaching:
            # The subject does reach the object, by another mechanism (CALL where the claim says XCTL).
            ref = (found or reaching)[0]
            said = "/".join(sorted(k.upper() for k in kinds))
            self._add(
                "contradicted",
                f"{who} uses {ref.kind.upper()} to reach {name} ({ref.path}:{ref.line}), not {said}",
                [self._ref_evidence(ref)],
                relation=True,
            )
        else:
            # The index may not know every form (a program run from SYSTSIN, a CALL through a variable):
            # a name that the subject's code spells out is not contradicted, only unindexed.
            mention = self._first_mention(spans or [], name)
            if mention is not None:
                p, n = mention
                self._add(
                    "ok",
                    f"{who} names {name} at {p}:{n} (no indexed {relation} reference)",
                    [self.lk.snippet(p, n, n)],
                    relation=True,
                )
            else:
                self._add("contradicted", f"{who} {_NEGATED[relation]} {name}", relation=True)

    def _check_name_import(self, name: str, subject: _Located | None) -> None:
        """ "report.py imports `format_amount`": the index records imported modules, so the name is looked
        for in the subject's import statements (one line, or a parenthesised list)."""
        who, spans = self._subject_scope(subject)
        if spans is None:
            return  # "X is imported" with no importer named: nothing to hold it against
        for path, start, end in spans:
            lines = self.lk.file_lines(path)
            for n in _import_lines(lines, start, end):
                if word_pattern(last_part(name)).search(lines[n - 1]):
                    self._add("ok", f"{who} imports {name} ({path}:{n})", [self.lk.snippet(path, n, n)], relation=True)
                    return
        self._add("contradicted", f"{who} does not import {name}", relation=True)

    def _ref_evidence(self, ref: Ref) -> Evidence:
        return self.lk.snippet(ref.path, ref.line, ref.line, note=f"{ref.kind} {ref.target}")

    def _file_aliases(self, name: str) -> set[str]:
        """A file is named in claims by its SELECT name or its ASSIGN (DD or dataset) name."""
        up = name.upper()
        aliases: set[str] = set()
        for sym in self.lk.definitions(None, SymbolKind.SELECT, None):
            assign = sym.detail.get("assign", "").strip("'\"").upper()
            names = {assign, assign_dd(assign)} if assign else set()
            if sym.name.upper() == up:
                aliases |= names
            if up in names:
                aliases.add(sym.name.upper())
        return aliases

    def _performed(self, spans: list[tuple[str, int, int]], depth: int = 2) -> list[tuple[str, int, int]]:
        """The spans of the paragraphs and sections the spans PERFORM, up to depth PERFORMs deep (same file)."""
        out: list[tuple[str, int, int]] = []
        todo = list(spans)
        for _ in range(depth):
            found = [
                (d.path, d.start_line, d.end_line)
                for path, start, end in todo
                for r in self.lk.references(None, RefKind.PERFORM, path, (start, end))
                for d in self.lk.definitions(r.target, None, path)
                if d.kind in PROCEDURE_KINDS
            ]
            todo = [f for f in dict.fromkeys(found) if f not in out and f not in spans]
            out += todo
        return out

    def _refs_of(self, kinds: frozenset[RefKind] | None, spans: list[tuple[str, int, int]] | None) -> list[Ref]:
        """References of the given kinds (None: any) inside the spans (None: the whole snapshot)."""
        if spans is None:
            if kinds is None:
                return list(self.lk.references(None, None, None))
            return [r for k in sorted(kinds) for r in self.lk.references(None, k, None)]
        out: list[Ref] = []
        for path, start, end in spans:
            out.extend(r for r in self.lk.references(None, None, path, (start, end)) if kinds is None or r.kind in kinds)
        return out

    # -- what the subject's own code does with a data item --------------------------------------------------

    def _check_subject_uses(self, objects: set[int]) -> None:
        """A sentence that opens with a paragraph speaks of the data items it names as that paragraph's
        ("`P` also rejects a `F` outside 1 to 12", "`P` prints a line from `C`"): each must be named in P's
        own span. Items a relation already points at are checked there. A mention is no fact that held: the
        claim's verb about the item is still unchecked."""
        first = self._opening_name()
        if first is None or first.res is None:
            return
        kinds = first.res.kinds
        if not kinds or not kinds <= _USING_KINDS:
            return
        if _DONE_TO_SUBJECT.match(self._masked, first.ref.end):
            return  # "`VisitSource` is implemented for `DebugMap`": what is done to P names what P need not
        if SymbolKind.CLASS in kinds and {d.language for d in first.res.defs} & members_outside_types():
            return  # a Rust or Go type's code is in impl blocks and methods anywhere, not in its definition
        text = self.text
        clause_end = self._clause_of(first.pos)[1]
        cobol = kinds <= PROCEDURE_KINDS
        # what a fact with its own checker names ("raises `X`") is judged there, through the calls it follows
        judged = {term.span[0] for f in self.claim.facts if f.predicate in CHECKERS for term in (f.object, f.by) if term}
        for loc in self.located:
            if loc is first or id(loc) in objects or loc.ref.kind != "identifier" or in_code_fragment(loc.ref):
                continue
            if not loc.ref.strict:
                continue  # "as ANSI expects": a capitalised word of the prose, not a name the answer quotes
            if loc.ref.start in judged:
                continue
            if _CO_SUBJECTS.fullmatch(text, first.ref.end, loc.pos):
                continue  # "`replace`, `ljust` and `center` escape ...": a list of subjects, not what the first uses
            if loc.res is None or not loc.res.found or loc.pos >= clause_end:
                continue
            if cobol and self._is_group(loc):
                # "the labels of `G`", "stamps `MSG-TIME`": a paragraph that sets a group's items uses the group
                self._check_group_use(first, loc)
                continue
            # "after `A`, `B` and `C`": the word before a list governs each of its names
            head = loc.pos
            while (listed := _LISTED_BEFORE.search(text, 0, head)) is not None:
                head = listed.start()
            if _AGENT_BEFORE.search(text, 0, head) or _NOT_USED_BEFORE.search(text, 0, head):
                continue
            if _FROM_BEFORE.search(text, 0, loc.pos) and loc.res.kinds.isdisjoint(DATA_KINDS):
                continue
            if _OWNED_BEFORE.search(text, 0, loc.pos):
                continue  # "urllib3's `HTTPError`": another module's name, which the subject may import under another
            if _PASSIVE_AGENT.search(text, first.ref.end, loc.pos):
                continue  # "`X` is called by `Y`": Y is the caller, not in X's span
            if cobol and not _only_data(loc):
                continue
            if loc.ref.value.upper() in special_names():
                continue  # `str`, `ValueError`: the language's, named or not
            if last_part(loc.ref.value) in {last_part(first.ref.value), *first.ref.value.split(".")[:-1]}:
                continue  # `Store` in a claim about `Store.load`
            self._check_involvement("uses", first, loc, holds=False)

    def _is_group(self, loc: _Located) -> bool:
        return loc.res is not None and any(d.kind == SymbolKind.DATA_ITEM and d.end_line > d.start_line for d in loc.res.defs)

    def _check_group_use(self, first: _Located, group: _Located) -> None:
        """ "`P` displays the labels of `G`": P's span must name the group or one of the items inside it."""
        who, spans = self._subject_scope(first)
        assert group.res is not None
        if not spans:
            return
        parts = {group.ref.value} | {
            d.name
            for g in group.res.defs
            if g.kind == SymbolKind.DATA_ITEM
            for d in self.lk.definitions(None, SymbolKind.DATA_ITEM, g.path)
            if g.start_line < d.start_line <= g.end_line
        }
        for name in sorted(parts):
            at = self._first_mention(spans, name)
            if at is not None:
                self._add(
                    "ok", f"{who} uses {name} of {group.ref.value} at {at[0]}:{at[1]}", [self.lk.snippet(at[0], at[1], at[1])]
                )
                return
        self._add(
            "contradicted", f"{who} names neither {group.ref.value} nor any item of it ({_spans_text(spans)})", relation=True
        )

    def _data_subject(self, pos: int) -> _Located | None:
        """The data item a clause ending at pos is about: the nearest name before it that cannot act."""
        before = [
            loc
            for loc in self.located
            if loc.ref.kind == "identifier" and loc.pos < pos and loc.res is not None and loc.res.defs and not self._is_actor(loc)
        ]
        return before[-1] if before else None

    def _check_never(self) -> None:
        """ "`X` is never set": in the claim's files, a statement that sets X (MOVE, SET, COMPUTE, an
        assignment) contradicts it. ("never used" is a fact of its own: checks.check_unused.)"""
        m = _NEVER.search(self.text)
        item = self._data_subject(m.start()) if m is not None else None
        if m is None or item is None or not self.scope:
            return
        name = item.ref.value
        found = [(p, n) for p, n, _ in assignments(self.lk, name, [(p, 1, 10**9) for p in self.scope])]
        if found:
            p, n = found[0]
            self._add("contradicted", f"{p}:{n} sets {name}", [self.lk.snippet(p, n, n)], relation=True)
        else:
            self._add("ok", f"nothing in {', '.join(self.scope)} sets {name}", relation=True)

    def _uses_outside(self, name: str, defs: list[Symbol], spans: list[tuple[str, int, int]]) -> Iterator[tuple[str, int]]:
        """(path, line) of the code lines in the spans that name `name` outside its own definitions."""
        own = {(d.path, n) for d in defs for n in range(d.start_line, d.end_line + 1)}
        return ((p, n) for p, a, b in spans for n in self.lk.code_mentions(p, last_part(name), a, b) if (p, n) not in own)

    def _check_flows_unused(self) -> None:
        """ "`X` feeds the term of the loan", "`X` is passed to ...": a data item the claim says its value flows
        somewhere must be named by some code line outside its own definition; an item nothing uses feeds
        nothing. A use found states no fact: the flow itself is left to the other checks."""
        m = _FLOWS.search(self.text)
        item = self._data_subject(m.start()) if m is not None else None
        if m is None or item is None or item.res is None:
            return
        defs = [d for d in item.res.defs if d.kind in DATA_KINDS]
        if not defs or len(defs) != len(item.res.defs):
            return
        name = item.ref.value
        if any(self._uses_outside(name, defs, [(path, 1, 10**9) for path, _ in self.lk.text_hits(last_part(name), 50)])):
            return
        d = defs[0]
        self._add("contradicted", f"{name} is declared at {_where(d)} and no code uses it", [_def_evidence(self.lk, d)], True)

    def _check_receives(self) -> None:
        """ "The loan amount ends up in `A`, the term in `B`": each data item the claim says receives a value
        (named after "in"/"into" once a verb such as "ends up in", "goes into", "is stored in" has said so)
        must be set by the subject's code, else the context's. A statement setting it holds; an item that
        code never names outside its own definition contradicts; one it names in a form the index does not
        read as a setting (READ INTO a group, a CICS RECEIVE) is left to the other checks."""
        text = self.text
        verb = _RECEIVES.search(text)
        if verb is None:
            return
        actors = [loc for loc in self.located if loc.ref.kind == "identifier" and loc.pos < verb.start() and self._is_actor(loc)]
        who, spans = self._subject_scope(actors[-1] if actors else None)
        if spans is None:
            return
        for loc in self.located:
            if loc.pos < verb.start() or loc.ref.kind != "identifier" or not _INTO_BEFORE.search(text, 0, loc.pos):
                continue
            if loc.res is None or not _only_data(loc):
                continue
            name = loc.ref.value
            found = assignments(self.lk, name, spans)
            if found:
                p, n, _ = found[0]
                self._add("ok", f"{who} sets {name} at {p}:{n}", [self.lk.snippet(p, n, n)], relation=True)
                continue
            if any(self._uses_outside(name, loc.res.defs, spans)):
                continue
            where = _spans_text(spans)
            self._add(
                "contradicted",
                f"{who} never sets {name} ({where} does not name it)",
                [_def_evidence(self.lk, loc.res.defs[0])],
                True,
            )

    def _check_divisions(self) -> None:
        """ "`P` divides `X` by 10": the divisions of X in the actor's own span (COMPUTE ... X / 12, DIVIDE 12
        INTO X, DIVIDE X BY 12, x / 12) must use that divisor; others contradict it."""
        m = _DIVIDES.search(self.text)
        if m is None:
            return
        actor = next(
            (loc for loc in self.located if loc.ref.kind == "identifier" and loc.pos < m.start() and self._is_actor(loc)), None
        )
        if actor is None or actor.res is None:
            return
        name, wanted = m.group("name"), normalize_value(m.group("n"))
        forms = [
            r"(?<![\w-])" + re.escape(name) + r"\s*//?\s*(?P<d>[\w.-]+)",
            r"\bDIVIDE\s+(?P<d>[\w.-]+)\s+INTO\s+" + re.escape(name) + r"(?![\w-])",
            r"\bDIVIDE\s+" + re.escape(name) + r"\s+BY\s+(?P<d>[\w.-]+)",
        ]
        pattern = re.compile("|".join(f"(?:{f})".replace("(?P<d>", f"(?P<d{i}>") for i, f in enumerate(forms)), re.I)
        seen: list[tuple[str, int, str]] = []
        for d in self._preferred(actor.res.defs):
            lines = self.lk.file_lines(d.path)
            for n in range(d.start_line, min(d.end_line, len(lines)) + 1):
                for hit in pattern.finditer(lines[n - 1]):
                    seen.append((d.path, n, next(g for g in hit.groups() if g is not None)))
        if not seen:
            return
        same = next(((p, n) for p, n, v in seen if normalize_value(v) == wanted), None)
        p, n = same or seen[0][:2]
        outcome: Outcome = "ok" if same else "contradicted"
        divisor = wanted if same else seen[0][2]
        self._add(outcome, f"{actor.ref.value} divides {name} by {divisor} at {p}:{n}", [self.lk.snippet(p, n, n)], True)

    def _check_moved_into(self) -> None:
        """ "`P` moves `A` into `B`", "reports an error with `A` in `B`": the statements in P's own span that
        set B (MOVE, SET, COMPUTE, an assignment) must include one from A; ones that set B from something
        else only contradict it. No statement setting B in the span leaves it to the other checks."""
        data = {loc.ref.value.upper(): loc for loc in self.located if loc.ref.kind == "identifier" and _only_data(loc)}
        for m in _MOVED_INTO.finditer(self.text):
            source, target = data.get(m.group("a").upper()), data.get(m.group("b").upper())
            if source is None or target is None:
                continue
            # "performs `P`; on PF3 it moves `A` to `B`": what an earlier verb acted on does not move
            actors = [
                loc
                for loc in self.located
                if loc.pos < m.start() and loc.ref.kind == "identifier" and self._is_actor(loc) and id(loc) not in self.acted_on
            ]
            who, spans = self._subject_scope(actors[-1] if actors else None)
            if spans is None:
                continue
            found = assignments(self.lk, target.ref.value, spans)
            if not found:
                continue
            a, b = source.ref.value, target.ref.value
            wanted = last_part(a).upper()
            same = next(((p, n) for p, n, v in found if wanted in re.findall(r"[\w-]+", v.upper())), None)
            if same is not None:
                p, n = same
                self._add("ok", f"{who} moves {a} into {b} at {p}:{n}", [self.lk.snippet(p, n, n)], relation=True)
                continue
            # that the span names A and B was only a sign of this link: it is no fact that held
            for check in self.checks:
                if check.outcome == "ok" and check.message.startswith((f"{who} uses {a} at", f"{who} uses {b} at")):
                    check.relation = False
            p, n, _ = found[0]
            others = ", ".join(dict.fromkeys(v for _, _, v in found))
            note = f"{who} sets {b} from {others} ({p}:{n}), never from {a}"
            self._add("contradicted", note, [self.lk.snippet(p, n, n)], relation=True)

    def _check_cics_options(self) -> None:
        """ "`P` sends the map with `ERASE` and `DATAONLY`": each CICS option named must be in one of P's own
        EXEC CICS statements of that command (the verb says which: sends, receives, reads, ...; none said,
        any command). Statements of that command found without the option contradict it."""
        text = self.text
        for m in re.finditer(r"`([A-Z][A-Z0-9]*)`", text):
            option = m.group(1)
            if option not in CICS_OPTIONS:
                continue
            actors = [loc for loc in self.located if loc.pos < m.start() and loc.ref.kind == "identifier" and self._is_actor(loc)]
            if not actors:
                continue
            who, spans = self._subject_scope(actors[-1])
            if spans is None:
                continue
            verb = _CICS_VERB.search(text, actors[-1].ref.end, m.start())
            command = _CICS_COMMANDS[verb.group(1).lower()] if verb else None
            statements: list[tuple[str, int, str]] = []
            for path, start, end in spans:
                code, starts = self.lk.code_text(path)
                a = starts[start - 1] if 0 < start <= len(starts) else len(code)
                b = starts[end] if end < len(starts) else len(code)
                for st in _EXEC_CICS.finditer(code, a, b):
                    if command is None or st.group("command").upper() == command:
                        statements.append((path, bisect.bisect_right(starts, st.start()), st.group(0).upper()))
            if not statements:
                continue
            hit = next(((p, n) for p, n, body in statements if re.search(r"(?<![\w-])" + option + r"(?![\w-])", body)), None)
            said = command or "EXEC CICS"
            if hit is not None:
                p, n = hit
                self._add("ok", f"{who}'s {said} at {p}:{n} has {option}", [self.lk.snippet(p, n, n)], relation=True)
            else:
                p, n, _ = statements[0]
                self._add("contradicted", f"{who}'s {said} at {p}:{n} has no {option}", [self.lk.snippet(p, n, n)], True)

    # -- quoted calls and types ------------------------------------------------------------------------

    def _python_hits(self, name: str) -> list[tuple[str, int]]:
        # every call site: an exception class is raised from dozens of lines, and the quoted call may be the last
        hits = self.lk.text_hits(last_part(name), FULL_SEARCH_LIMIT)
        return [h for h in hits if self.lk.language(h[0]) == "python"]

    def _quoted_calls(self) -> list[tuple[str, list[Symbol] | None]]:
        """The calls the claim quotes, each with the bodies its call sites must be in (None: anywhere):
        each backticked text (anywhere: a table row or a sentence may quote a call made by a helper), and
        "`g` calls `f` with `k=v`" as `f(k=v)` in g's body."""
        text = self.text
        out: list[tuple[str, list[Symbol] | None]] = [(m.group(1).strip(), None) for m in re.finditer(r"`([^`]+)`", text)]
        opener = self._opening_name(FUNCTION_KINDS)
        bodies = self._preferred(opener.res.defs) if opener is not None and opener.res is not None else None
        # "call" must be in the text: most claims are not searched with a pattern that tries every position
        for m in _CALL_WITH.finditer(text) if "call" in text else ():
            out.append((f"{m.group('name')}({', '.join(re.findall(r'`([^`]+)`', m.group('args')))})", bodies))
        return out

    def _check_quoted_calls(self) -> None:
        """A quoted Python call (`zlib.compress(json, 9)`) states its arguments too: the code's calls of that
        function must include one with the same arguments (spacing aside). Calls found with other arguments
        only contradict it; no call found leaves it to the name checks."""
        for quoted, bodies in self._quoted_calls():
            call = _PY_CALL.fullmatch(quoted) if "(" in quoted else None  # most quotes are names, never calls
            if call is None or _balanced(call.group(0), call.start("args")) != call.group("args"):
                continue  # not one call: a chain (`f(x).digest()`) or a sum of calls
            name, wanted = call.group("name"), _arguments(call.group("args"))
            # a method is called through its receiver (`make_signer(salt)` is `self.make_signer(salt)`);
            # its def and a class statement are no calls
            site = re.compile(r"(?<!\w)(?<!def )(?<!class )" + re.escape(name) + r"\s*\(")
            seen: list[tuple[str, int, str]] = []
            for path, n in self._python_hits(name):
                if bodies is not None and not any(d.path == path and d.start_line <= n <= d.end_line for d in bodies):
                    continue  # "`g` calls `f` with ...": a call of f in another function says nothing of g's
                lines = self.lk.file_lines(path)
                text = "\n".join(lines[n - 1 : n + CALL_LINES])
                for found in site.finditer(text.split("\n", 1)[0]):
                    args = _balanced(text, found.end())
                    if args is not None:
                        seen.append((path, n, args))
            if not seen:
                self._check_sibling_call(name, wanted, quoted)
                continue
            # prose quotes a call's telling arguments, not always all of them
            same = next(((p, n) for p, n, a in seen if wanted <= _arguments(a)), None)
            if same is not None:
                p, n = same
                self._add("ok", f"{name} is called with ({call.group('args')}) at {p}:{n}", [self.lk.snippet(p, n, n)], True)
                continue
            if any(_run_time_values(a, call.group("args")) for _, _, a in seen):
                continue  # `InvalidVersion("Invalid version: None")` where the code passes `msg`: a run's value
            if any(a.lstrip().startswith("*") or ", *" in a for _, _, a in seen):
                continue  # `Version(**ver)`: a call that unpacks its arguments may pass the quoted ones
            if all(_VARIABLE.fullmatch(a) for a in _split_arguments(call.group("args"))):
                continue  # `register_algorithm(alg_id, alg_obj)`: names, a signature or the caller's variables
            declared = None if "." in name else self._declared_signature(name, call.group("args"))
            if declared is not None:
                # `bump_prerelease(token="rc", bump_when_empty=False)`: the signature, its defaults as declared
                # (with a receiver, `ctx.scope(cleanup=True)`, it is a call)
                self._add(
                    "ok", f"{name} declares ({call.group('args')}) ({_where(declared)})", [_def_evidence(self.lk, declared)]
                )
                continue
            p, n, args = seen[0]
            self._add(
                "contradicted",
                f"{name} is called as {name}({' '.join(args.split())}) at {p}:{n}, never as {quoted}",
                [self.lk.snippet(p, n, n)],
                relation=True,
            )

    def _check_mapped_entries(self) -> None:
        """ "`AnsiStyle.DIM` is mapped to `(winterm.style, WinStyle.NORMAL)`": the code's entries for the key
        (`KEY: value`, `KEY => value`, `KEY -> value`) must include one whose value is the quoted one; entries
        with other values only contradict it; no entry leaves it to the other checks."""
        for m in _MAPPED.finditer(self.text):
            key, value = m.group("key") or m.group("key2"), m.group("value") or m.group("value2")
            wanted = _squash_code(value)
            entry = re.compile(r"(?<![\w.])" + re.escape(key) + r"['\"]?\s*(?::|=>|->)\s*(?P<value>.+?)\s*,?\s*$")
            found = [
                (p, n, e.group("value"))
                for p in self._code_files([_longest_word(key)], 50, self.scope)
                for n, line in enumerate(self.lk.file_lines(p), start=1)
                if key in line and (e := entry.search(line)) is not None
            ]
            same = next(((p, n) for p, n, v in found if _squash_code(v) == wanted), None)
            if same is not None:
                self._add("ok", f"{key} maps to {value} at {same[0]}:{same[1]}", [self.lk.snippet(*same, same[1])], True)
            elif found:
                p, n, v = found[0]
                self._add("contradicted", f"{key} maps to {v} ({p}:{n}), not {value}", [self.lk.snippet(p, n, n)], True)

    def _check_sibling_call(self, name: str, wanted: set[str], quoted: str) -> None:
        """`bisect.bisect_left(powers, value)` where the code never calls it but calls another function of the
        same module with those arguments (`bisect.bisect_right(powers, value)`): the call is another one."""
        head, _, last = name.rpartition(".")
        if not head or not wanted:
            return
        site = re.compile(r"(?<![\w.])" + re.escape(head) + r"\.(?P<other>[A-Za-z_]\w*)\s*\(")
        for path, n in self._python_hits(head):
            line = self.lk.file_lines(path)[n - 1]
            for found in site.finditer(line):
                args = _balanced(line, found.end())
                if found.group("other") != last and args is not None and wanted <= _arguments(args):
                    called = f"{head}.{found.group('other')}({args})"
                    self._add("contradicted", f"{path}:{n} calls {called}, not {quoted}", [self.lk.snippet(path, n, n)], True)
                    return

    def _declared_signature(self, name: str, quoted: str) -> Symbol | None:
        """The function (or class, by its `__init__`) whose declaration the quoted arguments spell: each bare
        name one of its parameters, each `param=value` one of its defaults as declared."""
        args = _split_arguments(quoted)
        if not args:
            return None
        for fn in self.lk.definitions(last_part(name)):
            if fn.kind == SymbolKind.CLASS:
                inits = [d for d in self.lk.definitions("__init__", None, fn.path) if d.detail.get("parent") == fn.name]
                params = self._parameters(inits[0]) if inits else None
            else:
                params = self._parameters(fn) if fn.kind in FUNCTION_KINDS else None
            if params is not None and all(_declares(params, arg) for arg in args):
                return fn
        return None

    def _parameters(self, fn: Symbol) -> dict[str, str | None] | None:
        """A Python function's parameters as declared: name -> default as written (None: no default)."""
        text = "\n".join(self.lk.file_lines(fn.path)[fn.start_line - 1 : fn.start_line + CALL_LINES])
        m = re.search(r"\bdef\s+\w+\s*\(", text)
        declared = _balanced(text, m.end()) if m else None
        if declared is None:
            return None
        params: dict[str, str | None] = {}
        for part in _split_arguments(declared):
            head, sep, default = part.lstrip("*").partition("=")
            params[head.split(":", 1)[0]] = default if sep else None
        return params

    def _check_declared_types(self) -> None:
        """A claim that `self.sep` is a `bytes`: the name's annotations in the Python code say its type. An annotation
        that does not name the claimed type contradicts; a name with no annotation is left open."""
        for m in _IS_A_TYPE.finditer(self.text):
            name, wanted = m.group("name"), m.group("type")
            declared = re.compile(r"(?<![\w.])" + re.escape(name) + r"\s*:\s*(?P<type>[^=\n]+?)\s*(?:=|$)")
            found = [
                (p, n, d.group("type"))
                for p, n in self._python_hits(name)
                for d in [declared.search(self.lk.file_lines(p)[n - 1])]
                if d is not None
            ]
            if not found:
                continue
            same = next(((p, n, t) for p, n, t in found if word_pattern(wanted).search(t)), None)
            p, n, t = same or found[0]
            outcome: Outcome = "ok" if same else "contradicted"
            note = f"{name} is declared {t} at {p}:{n}" + ("" if same else f", not {wanted}")
            self._add(outcome, note, [self.lk.snippet(p, n, n)], relation=True)

    def _check_holds_empty(self) -> None:
        """ "`x` holds a fallback signer": a Python name whose every assignment is empty ([], (), {}, None) and
        that nothing appends to, extends, updates or adds to holds nothing."""
        m = _HOLDS.search(self.text)
        if m is None:
            return
        name = last_part(m.group("name"))
        word = re.escape(name)
        assigned = re.compile(r"(?m)^[ \t]*(?:self\.)?" + word + r"[ \t]*(?::[^=\n]*(?:\n[^=\n]*)*?)?=(?!=)[ \t]*(?P<v>[^\n#]*)")
        grown = re.compile(
            r"(?<![\w.])(?:self\.)?" + word + r"\s*(?:\.(?:append|extend|add|insert|update|setdefault)\s*\(|\+=|\[[^\]]*\]\s*=)"
        )
        empties: list[tuple[str, int]] = []
        for path in dict.fromkeys(p for p, _ in self._python_hits(name)):
            text = "\n".join(self.lk.file_lines(path))
            if grown.search(text):
                return
            for a in assigned.finditer(text):
                if a.group("v").strip() not in ("[]", "()", "{}", "None", "set()", "list()", "dict()"):
                    return
                empties.append((path, text.count("\n", 0, a.start("v")) + 1))
        if empties:
            p, n = empties[0]
            self._add("contradicted", f"{name} is only ever set empty ({p}:{n})", [self.lk.snippet(p, n, n)], relation=True)

    def _check_class_attributes(self) -> None:
        """ "`C` signs with `S`" where C's body assigns a class attribute named for the verb
        (`default_signer = Signer`): the attribute's value must be S. C's own body decides: a subclass that
        assigns S does not make C use it."""
        for m in _USES_WITH.finditer(self.text):
            owner, used, verb = m.group("c"), m.group("d"), m.group("verb").lower()
            stems = {w for w in (verb, verb[:-1], verb[:-2]) if len(w) >= 3}
            attrs: list[tuple[str, int, str, str]] = []
            for d in self.lk.definitions(last_part(owner), SymbolKind.CLASS):
                lines = self.lk.file_lines(d.path)
                body: int | None = None
                for n in range(d.start_line + 1, min(d.end_line, len(lines)) + 1):
                    line = lines[n - 1]
                    if not line.strip() or line.lstrip().startswith("#"):
                        continue
                    indent = len(line) - len(line.lstrip())
                    body = indent if body is None else body
                    assigned = _CLASS_ATTR.match(line)
                    if indent == body and assigned and any(st in assigned.group("attr").lower() for st in stems):
                        attrs.append((d.path, n, assigned.group("attr"), assigned.group("value")))
            if not attrs:
                continue
            same = next(((p, n, a) for p, n, a, v in attrs if last_part(v) == last_part(used)), None)
            if same is not None:
                p, n, a = same
                self._add("ok", f"{owner}.{a} is {used} ({p}:{n})", [self.lk.snippet(p, n, n)], relation=True)
                continue
            p, n, a, v = attrs[0]
            self._add("contradicted", f"{owner}.{a} is {v} ({p}:{n}), not {used}", [self.lk.snippet(p, n, n)], True)

    # -- identical files ------------------------------------------------------------------------------

    def _check_identical_files(self) -> None:
        """ "`A` and `B` are identical", "the two copies differ": the snapshot manifest's sha256 of each cited
        file says whether their contents are the same."""
        m = _IDENTICAL.search(self.text)
        entry = getattr(self.snapshot, "entry", None)
        if m is None or entry is None:
            return
        files = list(dict.fromkeys(loc.files[0] for loc in self.located if loc.ref.kind == "path" and len(loc.files) == 1))
        if len(files) != 2:
            return
        digests = [getattr(entry(f), "sha256", None) for f in files]
        if None in digests:
            return
        same = digests[0] == digests[1]
        says_same = m.group("differ") is None and m.group("not") is None
        outcome: Outcome = "ok" if same == says_same else "contradicted"
        how = "the same content" if same else "different contents"
        self._add(outcome, f"{files[0]} and {files[1]} have {how} (sha256 in the snapshot manifest)", relation=True)

    def _check_file_lists(self) -> None:
        """ "`F` declares `X`", "`F` also lists `X`": a cited file that declares, lists or registers a name
        must name it; a file that never does contradicts."""
        for m in _FILE_LISTS.finditer(self.text):
            cited = next(
                (loc for loc in self.located if loc.ref.kind == "path" and loc.ref.start in (m.start("f") - 1, m.start("f"))),
                None,
            )
            named = next(
                (
                    loc
                    for loc in self.located
                    if loc.ref.kind == "identifier" and loc.ref.start in (m.start("x") - 1, m.start("x"))
                ),
                None,
            )
            if cited is None or named is None or len(cited.files) != 1 or named.res is None or not named.res.found:
                continue
            path, name = cited.files[0], named.ref.value
            lines = self.lk.mentions(path, last_part(name))
            if lines:
                self._add("ok", f"{path} names {name} at line {lines[0]}", [self.lk.snippet(path, lines[0], lines[0])], True)
            else:
                self._add("contradicted", f"{path} never names {name}", [self.lk.snippet(path, 1, 5)], relation=True)

    # -- quoted code --------------------------------------------------------------------------------

    def _check_code(self, scope: list[str], strict: bool) -> None:
        """A quoted code block must appear in the files the claim names (strict) or, failing the carried
        context, anywhere in the snapshot."""
        code = self.claim.code
        if not code:
            return
        wanted = [squash(line) for line in code.splitlines() if len(squash(line)) >= 8]
        if not wanted:
            return
        best = self._best_code_match(wanted, scope)
        if best is None and not strict:
            candidates = sorted({p for w in wanted[:3] for p, _ in self.lk.text_hits(_longest_word(w), 20)} - set(scope))
            best = self._best_code_match(wanted, candidates)
        if best is not None:
            hits, path, first = best
            ev = [self.lk.snippet(path, first, first + len(wanted) - 1)]
            if hits == len(wanted):
                self._add("ok", f"the quoted code is in {path} (from line {first})", ev)
            else:  # close to real code, but not what the file says
                self._add("mismatch", f"only {hits} of {len(wanted)} quoted code lines are in {path} (from line {first})", ev)
        else:
            where = ", ".join(scope) if strict else "the snapshot"
            self._add("mismatch" if strict else "missing", f"the quoted code is not in {where}")

    def _best_code_match(self, wanted: list[str], files: list[str]) -> tuple[int, str, int] | None:
        """(lines found, path, first line) of the file holding most of the quoted lines, if at least half."""
        best: tuple[int, str, int] | None = None
        for path in files:
            lines = [squash(line) for line in self.lk.file_lines(path)]
            found = [next((n for n, text in enumerate(lines, 1) if w in text), 0) for w in wanted]
            hits = sum(1 for n in found if n)
            if hits and hits * 2 >= len(wanted) and (best is None or hits > best[0]):
                # Start the evidence where the quoted block would begin, so a wrong first line shows.
                i, n = next((i, n) for i, n in enumerate(found) if n)
                best = (hits, path, max(1, n - i))
        return best


_NEGATED = {
    "calls": "does not call or perform",
    "copies": "does not copy or import",
    "reads": "does not read",
    "writes": "does not write",
    "transfers": "does not XCTL or LINK to",
    "uses": "does not use",
}


def _only_data(loc: _Located) -> bool:
    """Is the name only ever a COBOL data item or condition name?"""
    return loc.res is not None and bool(loc.res.defs) and loc.res.kinds <= DATA_KINDS


def _spans_text(spans: list[tuple[str, int, int]]) -> str:
    """The first spans of a subject for a reason: `path:start-end`, or the path for a whole file."""
    return ", ".join(f"{p}:{a}-{b}" if b < 10**9 else p for p, a, b in spans[:3])


def _refs_to(lk: Lookup, refs: Iterable[Ref], name: str, targets: set[str]) -> list[Ref]:
    """The index references that point at the claimed object. A dotted object (Ledger.post, os.replace)
    needs its qualifier to agree too: from the reference's target when it has one, else from the source
    line (``ledger.post(...)`` matches Ledger.post; ``cleaned.replace(...)`` is not os.replace)."""
    # a subject's every reference is tested, claim after claim: an undotted object's test is written out here
    # rather than made a call per reference
    undotted = "." not in name
    return [
        r
        for r in refs
        if r.detail.get("file", "").upper() in targets
        or (last_part(r.target).upper() in targets if undotted else _dotted_target(lk, r, name))
    ]


def _dotted_target(lk: Lookup, ref: Ref, name: str) -> bool:
    """Does a reference point at a dotted object (see _refs_to)?"""
    qualifier, last = name.rsplit(".", 1)
    if last_part(ref.target) != last:
        return False
    dotted = f"{last_part(qualifier)}.{last}".lower()
    if "." in ref.target:
        return ref.target.lower().endswith(dotted)
    lines = lk.file_lines(ref.path)
    if not 0 < ref.line <= len(lines):
        return False
    line = lines[ref.line - 1].lower()
    if dotted in line:
        return True
    # self.post(...) inside class Ledger is Ledger.post
    owner = last_part(qualifier)
    if f"self.{last}".lower() in line and any(d.name == owner for d in lk.definitions(owner, SymbolKind.CLASS, ref.path)):
        return True
    # `c.ExecuteC()` through a variable of any name: Command.ExecuteC when no other type of the snapshot has such a method
    methods = [d for d in lk.definitions(last) if d.kind in FUNCTION_KINDS]
    return bool(ref.detail.get("receiver")) and bool(methods) and all(d.detail.get("parent") == owner for d in methods)


# A dotted chain (value.timestamp.signature) often describes a format in prose; _unnamed_presence judges it.
_OPENS_WITH_NAME = re.compile(r"^\s*(?:[-*]\s+|\d+[.)]\s+)?`?$")
_NEVER = Stemmed(
    r"(?<![\w-])(?:(?:is|are)\s+)?never\s+(?:set|assigned|moved\s+to|changed|updated|initiali[sz]ed)(?![\w-])", ("never",)
)
_FLOWS = Stemmed(
    r"(?<![\w-])(?:feeds|is\s+passed\s+(?:to|on|through)|flows\s+(?:in)?to|is\s+moved\s+(?:in)?to|is\s+copied\s+(?:in)?to"
    r"|ends\s+up\s+in|is\s+used\s+(?:to|for|as|in|by))(?![\w-])",
    ("feeds", "passed", "flows", "moved", "copied", "ends", "used"),
)
_PIC_CLAUSE = re.compile(r"\bPIC(?:TURE)?\s+(?:IS\s+)?(\S+?)\.?(?=\s|$)", re.I)
_RECEIVES = Stemmed(
    r"(?<![\w-])(?:ends?\s+up|goes|go|lands?|(?:is|are)\s+(?:stored|placed|put|saved|kept))\s+(?:in|into)\s+`",
    ("end", "go", "land", "stored", "placed", "put", "saved", "kept"),
)
_INTO_BEFORE = re.compile(r"(?<![\w-])(?:in|into)\s+`?$", re.I)
_DIVIDES = Stemmed(r"(?<![\w-])divides?\s+`(?P<name>[^`]+)`\s+by\s+(?P<n>\d+(?:\.\d+)?)(?![\w-])", ("divide",))
_IDENTICAL = Stemmed(
    r"(?<![\w-])(?:(?:are|is)\s+(?P<not>not\s+)?(?:byte[- ]for[- ]byte\s+)?identical|identical\s+(?:copies|files)"
    r"|(?P<differ>differ|are\s+different))(?![\w-])",
    ("identical", "differ"),
)
_COPY_COLUMN = re.compile(
    r"(?<= \| )(?:COPY\s+)?(?:copy\s*books?|copies|copied|copy\s+members|members|includes)(?:\s+\w+)?\s*:", re.I
)
# Where one clause of a sentence ends and the next, with its own subject, begins: a semicolon, a comma
# before a conjunction, "while"/"whereas", and "and" before a new subject ("and its procedure division").
# Where statements sit: the unit a relation's evidence line belongs to.
_BODY_KINDS = frozenset({SymbolKind.PARAGRAPH, SymbolKind.SECTION, SymbolKind.FUNCTION, SymbolKind.METHOD})
_DATA_KINDS = frozenset({SymbolKind.DATA_ITEM, SymbolKind.CONDITION, SymbolKind.CONSTANT, SymbolKind.FIELD})
_CONDITION_WORD = re.compile(r"(?<![\w-])(?:when|whenever|if|unless|until|while)(?![\w-])", re.I)
# "For customer number 9999999999 it ...", "On `NOTFND`, ...": a clause that opens on a case
# "A failed `INSERT INTO CUSTOMER` sets ...", "Any `NOTFND` ...": a clause opening on a case of something quoted
_OPENING_CASE = re.compile(r"[\s,;]*(?:[-*+]\s+|\d+[.)]\s+)?(?:an?|any|each|every)\b(?=[^`]{0,30}`)", re.I)
_OPENING_CONDITION = re.compile(r"[\s,;]*(?:[-*+]\s+|\d+[.)]\s+)?(?:for|on)\b", re.I)
# Names a language gives to values, which a table cell states as a value ("| `retryOnTimeout` | `false` |")
_LITERAL_WORDS = frozenset({"true", "false", "True", "False", "None", "null", "undefined", "nil"})
# Definitions small enough that a value inside them belongs to them: constants, data items, fields
_STATEMENT_PREDICATES = frozenset({Predicate.RAISES, Predicate.CATCHES})
_CONTAINER_KINDS = frozenset({SymbolKind.PROGRAM, SymbolKind.CLASS, SymbolKind.COPYBOOK, SymbolKind.JOB, SymbolKind.PROC})
_VALUE_HOLDERS = frozenset({SymbolKind.CONSTANT, SymbolKind.DATA_ITEM, SymbolKind.FIELD, SymbolKind.CONDITION})
# "A before B", "A, then B", "B after A": the order two steps are said to come in
# "after that `B`" and "afterwards `B`" put B second, like "then"; a bare "after `A`" puts A first
_ORDER_WORD = Stemmed(
    r"(?<![\w-])(?:before|then|afterwards|after\s+(?:that|this)|(?P<after>after))(?![\w-])", ("before", "then", "after")
)
# what joins a step to the one before ("..., then", "..., and only afterwards", "; after that")
_STEP_JOIN = re.compile(r"[,;]?\s*(?:and\s+)?(?:only\s+|just\s+|right\s+)?", re.I)
_NAME_LIKE = re.compile(r"[A-Za-z_][\w.-]*")
_STEP_GAP = re.compile(r"(?:\s+[\w'-]+){0,5}\s+")
_EXAMPLE_WORDS = r"such\s+as|e\.g\.,?|for\s+example|for\s+instance|like"
_EXAMPLE_BEFORE = re.compile(r"\b(?:" + _EXAMPLE_WORDS + r")\s+(?:`[^`]*`,?\s+(?:or\s+|and\s+)?)*`?$", re.I)
# a quoted call after these words shows how the code is used, not a call the code makes
_USAGE_BEFORE = re.compile(r"\b(?:so|as\s+in|" + _EXAMPLE_WORDS + r")\s+`?$", re.I)
# what a fact says the code acts on: the relations, without placing and importing
_ACTION_PREDICATES = RELATION_PREDICATES - {Predicate.IMPORTS, Predicate.DEFINED_AT}
# an argument that is a variable (whose value only a run knows), and one that is a literal
_VARIABLE = re.compile(r"(?!(?:True|False|None)\b)[A-Za-z_][\w.]*")
_LITERAL_ARG = re.compile(r"[\"'\d-]")
_CITE_ENDS_SENTENCE = re.compile(r"`?\s*\)?\s*[.;:]?\s*$")
_NAME_THEN_CITE = re.compile(r"`(?P<name>[^`\s]+)`\s*\(\s*`?$")
# a comma before a verb of the subject starts its next step ("writes `X` through `P`, issues `SEND` only when
# ..."): what that step is conditioned on is not the step before
_STEP_VERB = (
    r"(?:issues|performs|calls|reads|writes|rewrites|deletes|returns|raises|throws|sets|moves|displays|opens|closes|"
    r"checks|adds|computes|builds|sends|receives|links|starts|stops|ends|runs|executes|accepts|stores|copies|passes|"
    r"logs|appends|clears|updates|catches|handles|creates|invokes|waits|fetches|puts|gets|defers|wraps|marks)\b"
)
_CLAUSE_BREAK = Stemmed(
    r";|,\s*(?:and|but|while|whereas|then|so|which|whose|where)\b|\b(?:while|whereas)\b|\band\s+(?=(?:its|it|the|this|that|then|they|their|otherwise)\b)"
    r"|,\s*(?=" + _STEP_VERB + ")"
    # "`A` sets `x` and `B` sets it back": a name a verb follows opens a clause of its own
    r"|\band\s+(?=_+\s+(?:also\s+|then\s+|only\s+)?" + _STEP_VERB + ")",
    (";", ",", "while", "whereas", "and"),
)
_BACKTICKED = re.compile(r"`[^`]*`")
# a condition that restricts: "only when", "only if", "unless"
_RESTRICTION = re.compile(r"unless\b", re.I)
_ONLY_BEFORE = re.compile(r"\bonly\s+$", re.I)
# a test on the statement's own line ("IF X PERFORM Y", "x if c else y", "c && f()", "c ? f() : g()")
_INLINE_TEST = re.compile(r"\b(?:IF|WHEN|if|when|while|unless)\b|&&|\|\||\?|\band\b|\bor\b")
# "calls `skip_until` with `error_on_eof=True`": the keyword arguments of that call
_CALL_WITH = re.compile(
    r"(?<![\w-])call(?:s|ed|ing)?\s+`(?P<name>[A-Za-z_][\w.]*)(?:\(\))?`\s+with\s+"
    r"(?P<args>`[A-Za-z_]\w*=[^`]+`(?:\s*(?:,|and|,\s*and)\s*`[A-Za-z_]\w*=[^`]+`)*)"
)
# "the `QSAM-STAT` fields": a name that several names share, followed by a plural noun
_FAMILY_AFTER = re.compile(r"`?\s+(?:fields|items|entries|variables|flags|counters|switches|names|columns)\b", re.I)
_PROSE_PASSIVE_SUBJECT = re.compile(
    r"\b(?:the|a|an|each|every|its|their|this|that|these|those)\s+(?:(?!having\b)[a-z]+\s+){0,2}"
    r"(?:is|are|was|were|gets?|got|be|been)\s+(?:\w+ly\s+|not\s+|also\s+|only\s+)?$"
)
_DESTINATION_BEFORE = re.compile(r"\b(?:to|into|onto)\s+(?:the\s+|its\s+|a\s+)?(?:file\s+)?`?$", re.I)
_WHOLE_CELL = re.compile(r"\s*(?:\||$)")
_CELL_START = re.compile(r"\|\s*(?:[^|:]+:\s*)?$")
_HYPOTHETICAL = re.compile(r"\b(?:would|should|could|might|better|instead|consider|prefer)\b", re.I)
# the claim says it quotes or cites a comment
_SAYS_COMMENT = re.compile(r"\bcomments?\b", re.I)
# "with neither `TIMEOUT` nor `NOSUSPEND`", "without importing `datetime`", "rather than from `NoneType`": a name
# the claim says the code does not have
_ABSENT_BEFORE = re.compile(
    r"\b(?:neither|nor|without(?:\s+(?:importing|calling|using))?|no|rather\s+than(?:\s+from)?|instead\s+of)\s+`?$", re.I
)
_ROW_HEADER = re.compile(r"\|\s*([^|:]+):\s")
# A table cell holding only a cite ("| `f.py:10-20` |", "Lines: `f.py:10-20`") places the row's name.
_CITE_CELL = re.compile(r"\|?\s*(?:[\w ]+:\s*)?`[^`]*:\d+(?:\s*[-–]\s*\d+)?`\s*\|?\s*")
# A clause that says where a name is, rather than what the code does with it.
_PLACES = re.compile(
    r"(?<![\w-])(?:defin(?:es|ed|e|ing)|declar(?:es|ed|e|ing)|(?:is|are)\s+(?:at|in|on)|lives?|sits?|spans?|located)(?![\w-])",
    re.I,
)
_ROW_KEY = re.compile(r"^\s*`(?P<name>[^`]+)`\s*\|")
_ROW_RANGE = re.compile(r"^\s*`(?P<name>[^`]+)`\s*\|\s*lines?\s+\d+(?:\s*[-–]\s*\d+)?\s*(?:\||$)")
_MOVED_INTO = Stemmed(
    r"(?<![\w-])(?:moves?|moved|copies|copied|puts?|places?|passe[sd]|pass|stores?|stored|with)\s+"
    r"`(?P<a>[^`]+)`\s+(?:(?:through|on)\s+)?(?:in|into|to)\s+`(?P<b>[^`]+)`",
    ("move", "copie", "put", "place", "pass", "store", "with"),
)
# CICS command options a claim may name: a named one must be in the subject's own statement
CICS_OPTIONS = frozenset(
    [
        "ERASE",
        "ERASEAUP",
        "DATAONLY",
        "MAPONLY",
        "FREEKB",
        "ALARM",
        "CURSOR",
        "FRSET",
        "NOHANDLE",
        "UPDATE",
        "GTEQ",
        "EQUAL",
        "GENERIC",
        "LAST",
        "ACCUM",
        "PAGING",
        "PRINT",
        "NOSUSPEND",
        "KEYLENGTH",
        "RIDFLD",
        "COMMAREA",
        "LENGTH",
        "RESP",
        "RESP2",
        "TRANSID",
        "INTO",
        "FROM",
        "MAPSET",
        "SYSID",
        "CHANNEL",
        "INPUTMSG",
        "ASIS",
        "IMMEDIATE",
    ]
)
_CICS_COMMANDS = {
    "send": "SEND", "sends": "SEND", "receive": "RECEIVE", "receives": "RECEIVE", "read": "READ", "reads": "READ",
    "write": "WRITE", "writes": "WRITE", "rewrite": "REWRITE", "rewrites": "REWRITE", "delete": "DELETE",
    "deletes": "DELETE", "return": "RETURN", "returns": "RETURN", "link": "LINK", "links": "LINK", "xctl": "XCTL",
}  # fmt: skip
_CICS_VERB = re.compile(r"(?<![\w-])(" + "|".join(_CICS_COMMANDS) + r")(?![\w-])", re.I)
_EXEC_CICS = re.compile(r"\bEXEC\s+CICS\s+(?P<command>\w+).*?\bEND-EXEC\b", re.I | re.S)
_HOLDS = re.compile(r"^\W*`(?P<name>[A-Za-z_][\w.]*)`\s+(?:holds|contains|lists|keeps)\s+(?:an?|one|the|some)\b")
_USES_WITH = re.compile(
    r"`(?P<c>[A-Za-z_][\w.]*)`\s+(?:\w+ly\s+)?(?P<verb>[a-z]{3,})\s+(?:with|using|through|via)\s+(?:an?\s+|the\s+)?"
    r"`(?P<d>[A-Za-z_][\w.]*)`"
)
_CLASS_ATTR = re.compile(r"^\s*(?P<attr>[A-Za-z_]\w*)\s*(?::[^=]+)?=\s*(?P<value>[A-Za-z_][\w.]*)\s*(?:#.*)?$")
_FILE_LISTS = re.compile(
    r"`(?P<f>[^`]+)`\s+(?:also\s+)?(?:declares|lists|registers|defines|names|contains)\s+(?:an?\s+|the\s+)?`(?P<x>[^`]+)`"
)
_PY_CALL = re.compile(r"(?P<name>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)\((?P<args>.*)\)")
_IS_A_TYPE = re.compile(r"`(?P<name>[A-Za-z_][\w.]*)`\s+is\s+an?\s+`(?P<type>[A-Za-z_][\w.]*)`(?!\s*\()")
_CODE_SHAPED = re.compile(r"[a-z][A-Z]|[A-Za-z]_[A-Za-z]|^[A-Z][a-z]+[A-Z]")
_TO_REACH = re.compile(r"`?\s+to\s+(?:reach|call|invoke|run|start|get\s+to|go\s+to|transfer\s+to|pass\s+control\s+to)\s+`?", re.I)
# The top directories of a Unix file system (FHS): `/etc/passwd` is a file outside the snapshot, `/owners/` a route
_SYSTEM_DIRS = frozenset(
    [
        "bin",
        "boot",
        "dev",
        "etc",
        "home",
        "lib",
        "lib64",
        "media",
        "mnt",
        "opt",
        "proc",
        "root",
        "run",
        "sbin",
        "srv",
        "sys",
        "tmp",
        "usr",
        "var",
    ]
)
_BARE_TRANSFER = re.compile(r"(?:EXEC\s+CICS\s+)?(XCTL|LINK)", re.I)
_STATEMENT_RELATION = re.compile(r"(?:EXEC\s+CICS\s+)?(XCTL|LINK|CALL|COPY)\s+(?:PROGRAM\s*\(\s*)?['\"]?([A-Z0-9$#@-]+)", re.I)


def _import_lines(lines: tuple[str, ...], start: int, end: int) -> list[int]:
    """Line numbers of import statements in a span, with every line of a parenthesised import list."""
    out: list[int] = []
    open_list = False
    for n in range(max(start, 1), min(end, len(lines)) + 1):
        line = lines[n - 1]
        if open_list:
            out.append(n)
            open_list = ")" not in line
        elif re.match(r"\s*(?:from\s+\S+\s+)?import\b", line):
            out.append(n)
            open_list = "(" in line and ")" not in line
    return out


def _argument_of_quoted_code(ref: ClaimRef) -> bool:
    """Is the value part of a longer quoted piece of code (a call's argument), not quoted on its own?"""
    code = ref.text.strip("`").strip()
    return (in_code_fragment(ref) or "(" in code) and not re.fullmatch(r"[\"'].*[\"']", code)


def _split_arguments(args: str) -> list[str]:
    """A call's arguments in order, split at its top-level commas, spacing and string prefixes (f, b, r)
    aside; prose drops the receiver of an attribute (`salt` for self.salt)."""
    out: list[str] = []
    depth, current = 0, ""
    for ch in args:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(current)
            current = ""
        else:
            current += ch
    out.append(current)
    # a message wrapped for translation (`_("Missing command.")`) is the message
    unwrapped = [re.sub(r"^\s*(?:_|gettext)\((.*)\)\s*$", r"\1", a) for a in out]
    return [re.sub(r"^[fbrFBR]{1,2}(?=[\"'])", "", squash(re.sub(r"\bself\.", "", a))) for a in unwrapped if a.strip()]


def _arguments(args: str) -> set[str]:
    """The arguments a quoted call states; an ellipsis (`f("x", ...)`) stands for the ones it leaves out."""
    return {a for a in _split_arguments(args) if a not in ("...", "…")}


def _run_time_values(code_args: str, quoted_args: str) -> bool:
    """Does a quoted call give literals where the code's call passes variables, and agree elsewhere
    (`InvalidVersion("Invalid version: None")` for `InvalidVersion(msg)`)? Then only a run can tell."""
    code, quoted = _split_arguments(code_args), _split_arguments(quoted_args)
    pairs = list(zip(code, quoted, strict=False))
    given = [(c, q) for c, q in pairs if c != q]
    return len(code) == len(quoted) and bool(given) and all(_VARIABLE.fullmatch(c) and _LITERAL_ARG.match(q) for c, q in given)


def _declares(params: dict[str, str | None], arg: str) -> bool:
    """Does a declared parameter list hold a quoted argument: a bare name as a parameter, `p=v` as a default?"""
    name, sep, value = arg.partition("=")
    if not sep:
        return bool(_VARIABLE.fullmatch(arg)) and arg in params
    default = params.get(name)
    return default is not None and _split_arguments(default) == [value]


def _balanced(text: str, start: int) -> str | None:
    """The text from start up to the parenthesis that closes the one just before it; None when it does not
    close within text."""
    depth = 1
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i]
    return None


# A value a template fills in: printf and Go verbs, Python format and f-string fields, JavaScript ${...}
_FORMAT_PLACEHOLDER = re.compile(r"%[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[sdifgeExXvqrcu]|\$?\{[^{}]*\}")
# What a writer puts for a value they leave out: "...", "…", `<path>`
_QUOTE_PLACEHOLDER = re.compile(r"\.\.\.|…|<[\w .-]+>")


def renders(template: str, quoted: str) -> bool:
    """Does a code string with placeholders render the quoted message (`"%d Byte"` renders "1 Byte"), or a
    quote with placeholders stand for part of it ("Run '<path> --help'" in `"Run '%v --help' for usage."`)?
    Each side keeps four or more letters of its own: `"%s %s"` renders anything and says nothing."""
    literal = _FORMAT_PLACEHOLDER.split(template)
    if len(literal) > 1 and sum(len(re.sub(r"\W", "", part)) for part in literal) >= 4:
        # a value of the quote's own placeholders may stand where the template has text
        quote = _QUOTE_PLACEHOLDER.sub("\0", quoted)
        if re.fullmatch("(?:.+?|\0)".join(re.escape(part) for part in literal), quote, re.S):
            return True
    parts = _QUOTE_PLACEHOLDER.split(quoted)
    if len(parts) > 1 and sum(len(re.sub(r"\W", "", part)) for part in parts) >= 4:
        return re.search(".+?".join(re.escape(part) for part in parts), template, re.S) is not None
    return False


# "`K` is mapped to `V`", "maps `K` to `V`": an entry of a table in the code
_MAPPED = Stemmed(
    r"`(?P<key>[^`\s]+)`\s+(?:is|are)\s+mapped\s+(?:on)?to\s+`(?P<value>[^`]+)`|"
    r"\bmaps?\s+`(?P<key2>[^`\s]+)`\s+(?:on)?to\s+`(?P<value2>[^`]+)`",
    ("map",),
)


def _squash_code(text: str) -> str:
    return re.sub(r"\s+", "", text).rstrip(",").strip("'\"")


def _is_keyword(name: str) -> bool:
    """A reserved word written in capitals (`COPY`, `INPUT`): a word of a language, not a name of the code."""
    return name.isupper() and name in keywords()


def _longest_word(line: str) -> str:
    return max(re.findall(r"[\w-]+", line) or [line], key=len)
