"""Checkers for the predicates the reference checks of verify.py do not cover: inherits, has-value, raises,
catches and maps-exception, and unknown (a judgement nothing in the code can settle).

Each answers one fact with an outcome (held, contradicted, or unchecked) and evidence at the fact's own
location: the class line for inherits, the constant, parameter or data item for has-value, the raise or
except statement for raises. A fact whose subject the index cannot place (a name of another language,
a dotted name of a module) gets no outcome: the name checks of verify.py still judge it.
"""

from __future__ import annotations

import ast
import bisect
import math
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from groundjudge.grounding.facts import EXPRESSION, SECONDS_PER, Fact, Measure, Predicate
from groundjudge.grounding.index.model import DATA_KINDS, FUNCTION_KINDS, Ref, RefKind, Symbol, SymbolKind
from groundjudge.grounding.index.registry import language
from groundjudge.grounding.lookup import FULL_SEARCH_LIMIT, Lookup, last_part
from groundjudge.grounding.models import Evidence

MAX_ANCESTRY = 8
MAX_CALL_DEPTH = 3  # raises: how many calls deep a raise in a callee still counts as the subject's
# what a claim about code can be about (the verifier adds JCL's jobs, steps and PROCs)
CODE_ACTOR_KINDS = frozenset(
    {SymbolKind.PARAGRAPH, SymbolKind.SECTION, SymbolKind.PROGRAM, SymbolKind.FUNCTION, SymbolKind.METHOD, SymbolKind.CLASS}
)

Outcome = Literal["ok", "missing", "mismatch", "contradicted", "unchecked"]


@dataclass
class FactOutcome:
    outcome: Outcome
    message: str
    evidence: list[Evidence] = field(default_factory=list)


def _defs(lk: Lookup, name: str, kinds: Collection[SymbolKind]) -> list[Symbol]:
    """Definitions of a (possibly dotted) name of the given kinds; `Owner.attr` keeps those whose parent is Owner."""
    owner = name.rsplit(".", 2)[-2] if "." in name else None
    defs = [d for d in lk.definitions(last_part(name)) if d.kind in kinds]
    if owner is not None:
        defs = [d for d in defs if d.detail.get("parent") in (owner, None)] or defs
    return defs


def preferred_in(defs: list[Symbol], scope: Collection[str]) -> list[Symbol]:
    """The definitions in the files the claim is about, when some are; else all (a name shared by several
    programs is the one the claim's program holds)."""
    about = set(scope)
    return [d for d in defs if d.path in about] or defs


def _sym_evidence(lk: Lookup, sym: Symbol, note: str) -> Evidence:
    return lk.snippet(sym.path, sym.start_line, sym.start_line, note=note)


def _ref_evidence(lk: Lookup, ref: Ref, note: str) -> Evidence:
    return lk.snippet(ref.path, ref.line, ref.line, note=note)


# COBOL figurative constants and their English: "sets it to zero" is MOVE ZEROS / MOVE 0.
_FIGURATIVE = {
    "ZERO": "0",
    "ZEROS": "0",
    "ZEROES": "0",
    "SPACE": "SPACES",
    "HIGH-VALUE": "HIGH-VALUES",
    "LOW-VALUE": "LOW-VALUES",
}


def _list_items(value: str) -> list[str] | None:
    """The items of a list or tuple literal as written (`as const` and a trailing comma aside), or None."""
    v = re.sub(r"\s+as\s+const\s*$", "", value.strip().rstrip(";"))
    if not re.fullmatch(r"\[.*\]|\(.*,.*\)", v, re.S):
        return None
    return [i.strip() for i in v[1:-1].split(",") if i.strip()]


def _literal_list(value: str) -> str | None:
    """A list or tuple literal compared by its items: quotes, spaces, a trailing comma and `as const` aside."""
    items = _list_items(value)
    return None if items is None else ",".join(i.strip("\"'") for i in items)


def normalize_value(value: str) -> str:
    """Values compare without quotes, a COBOL VALUE keyword, digit separators, a numeric type suffix or case:
    `VALUE 1` == 1, 10_000_000_00 == 1000000000, 100L == 100, 1'000 == 1000, 2.5f == 2.5, 'E' == "e",
    b"." == "."."""
    listed = _literal_list(value)
    if listed is not None:
        return listed
    v = value.strip().rstrip(".")
    v = re.sub(r"^VALUE\s+(?:IS\s+)?", "", v, flags=re.I)
    v = re.sub(r"^[bBrRuU]{1,2}(?=[\"'])", "", v)
    v = v.strip("\"'`")
    v = _FIGURATIVE.get(v.upper(), v)
    number = _NUMBER.fullmatch(v)
    if number:
        v = re.sub(r"[_,']", "", number.group("digits")).lstrip("+")
        v = v.split(".")[0] if re.fullmatch(r"-?\d+\.0+", v) else v
    return v.upper()


# A number as code writes it: digit separators (_ in Python, Java, JS, C#, Kotlin, Go, Rust; ' in C++; the
# , of prose) and a type suffix (100L, 2.5f, 10m, 7u, 10ULL, Rust's 100u32 / 2.5f64).
_NUMBER = re.compile(r"(?P<digits>[-+]?\d[\d_,']*(?:\.\d+)?)(?:[uU]?[lL]{0,2}|[fFdDmM]|[uUiI](?:8|16|32|64|128|size)|f32|f64)")
# What a value that is no literal is made of when it is still one: numbers and arithmetic on them.
_ARITHMETIC = re.compile(r"[\w\s.+\-*/()<>']+")
_LITERAL_WORDS = {"TRUE", "FALSE", "NONE", "NULL", "NIL"}
MAX_ALIAS = 3  # has-value: how many constants deep `A = B` is followed to B's value


def literal_value(value: str) -> str | None:
    """The normalised value of code that states one: a number, a quoted string, true / false / null, or
    arithmetic on numbers (`10 * 60`, `(1 << 10)`, evaluated); None for anything computed otherwise
    (a call, a name, a collection of anything but literals), whose value the source does not state."""
    v = value.strip()
    items = _list_items(v)
    if items is not None and all(literal_value(i) is not None for i in items):
        return _literal_list(v)  # a list or tuple of literals states its value too
    if re.fullmatch(r"[bBrRuU]{0,2}(\"[^\"]*\"|'[^']*')", v) or normalize_value(v) in _LITERAL_WORDS:
        return normalize_value(v)
    if _NUMBER.fullmatch(v):
        return normalize_value(v)
    if _ARITHMETIC.fullmatch(v) and re.search(r"\d", v):
        return _evaluate(v)
    return None


def _evaluate(expr: str) -> str | None:
    """Integer or decimal arithmetic of a constant expression (+ - * << >> and exact /), or None."""
    try:
        tree = ast.parse(re.sub(r"(?<=\d)[_'](?=\d)", "", expr), mode="eval")
    except SyntaxError:
        return None
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b}
    shifts = {ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b}

    def ev(node: ast.AST) -> int | float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if type(node.op) in ops:
                return ops[type(node.op)](a, b)
            if type(node.op) in shifts and isinstance(a, int) and isinstance(b, int) and 0 <= b < 64:
                return shifts[type(node.op)](a, b)
            if isinstance(node.op, ast.Div) and b and (a / b == a // b if isinstance(a, int) and isinstance(b, int) else True):
                return a / b
        raise ValueError(expr)

    try:
        return normalize_value(str(ev(tree.body)))
    except (ValueError, ZeroDivisionError, OverflowError):
        return None


_EXPRESSION = re.compile(EXPRESSION)


def _squashed(code: str) -> str:
    return re.sub(r"\s+", "", code.strip("`"))


def _stated_value(lk: Lookup, value: str) -> str | None:
    """The literal a constant's value or a default states, following a name of a constant (`limit =
    MAX_ENTRIES`, `A = B`) to that constant's value."""
    for _ in range(MAX_ALIAS):
        literal = literal_value(value)
        items = _list_items(value.strip())
        if literal is None and items is not None:
            # `(_PRE_RANK_STABLE, 0, 0)`: a tuple of constants states its value through theirs
            stated = [_stated_value(lk, i) for i in items]
            return None if None in stated else ",".join(str(v) for v in stated)
        if literal is not None or not re.fullmatch(r"[A-Za-z_][\w.]*", value):
            return literal
        aliased = [d for d in _defs(lk, value, {SymbolKind.CONSTANT}) if "value" in d.detail]
        if not aliased:
            return None
        value = aliased[0].detail["value"]
    return None


def _bases(lk: Lookup, cls: Symbol) -> list[str]:
    return [b for b in cls.detail.get("bases", "").split(",") if b]


def _ancestors(lk: Lookup, cls: Symbol) -> set[str]:
    """Every base class name up the chain, as far as the snapshot defines the bases."""
    seen: set[str] = set()
    todo = _bases(lk, cls)
    while todo and len(seen) < MAX_ANCESTRY * 4:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for parent in lk.definitions(name, SymbolKind.CLASS):
            todo.extend(_bases(lk, parent))
    return seen


def check_inherits(lk: Lookup, fact: Fact) -> FactOutcome | None:
    if fact.subject is None or fact.object is None:
        return None
    # A language whose index records bases records them for every class, none as "". A class without the
    # detail (a C struct; a Rust struct, whose traits are implemented in impl blocks anywhere and derived)
    # cannot settle the fact either way.
    defined = _defs(lk, fact.subject.value, {SymbolKind.CLASS})
    classes = [d for d in defined if "bases" in d.detail]
    if not classes:
        if not defined:
            return None
        d = defined[0]
        return FactOutcome(
            "unchecked",
            f"the index records no base classes for {d.name} ({d.path}:{d.start_line}, {d.language})",
            [_sym_evidence(lk, d, f"class {d.name}")],
        )
    base = last_part(fact.object.value)
    if lk.definitions(base) and not lk.definitions(base, SymbolKind.CLASS):
        return None  # a function or a constant is no base: "extends `load` with caching" says something else
    for cls in classes:
        if base in _ancestors(lk, cls):
            return FactOutcome(
                "ok",
                f"{cls.name} inherits from {base} ({cls.path}:{cls.start_line})",
                [_sym_evidence(lk, cls, f"class {cls.name}")],
            )
    cls = classes[0]
    if base in language(cls.language).data.get("root_classes", ()):
        # "subclasses nothing but `object`": every Python class does, whether or not it names it
        return FactOutcome(
            "ok",
            f"{cls.name} inherits from {base}, as every {cls.language} class does",
            [_sym_evidence(lk, cls, f"class {cls.name}")],
        )
    has = ", ".join(_bases(lk, cls)) or "no base class"
    return FactOutcome(
        "contradicted",
        f"{cls.name} inherits from {has} ({cls.path}:{cls.start_line}), not {base}",
        [_sym_evidence(lk, cls, f"class {cls.name}")],
    )


_VALUE_KINDS = {SymbolKind.CONSTANT: "value", SymbolKind.DATA_ITEM: "value"}


def _defaults(lk: Lookup, param: str, functions: set[str]) -> list[tuple[Symbol, str]]:
    """(function, default) for each function declaring a default for param: those the claim names, else all."""
    out = []
    for kind in (SymbolKind.FUNCTION, SymbolKind.METHOD):
        for fn in lk.definitions(None, kind):
            for pair in filter(None, fn.detail.get("defaults", "").split(";")):
                name, _, value = pair.partition("=")
                if name == param:
                    out.append((fn, value))
    return [o for o in out if o[0].name in functions] or out


def check_has_value(lk: Lookup, fact: Fact, names: list[str], scope: list[str]) -> FactOutcome | None:
    """A constant's value, a parameter's default (of the function the claim also names, when it names one),
    or a data item's VALUE clause (only when the claim speaks of an initial value: a COBOL item's content
    changes as the program runs); a value code sets ("sets `X` to 12") from the statements that set it; a
    length from the field's or item's size."""
    if fact.subject is None or fact.value is None:
        return None
    if fact.measure is Measure.LENGTH:
        return check_length(lk, fact, scope)
    if fact.assigned:
        assigned = check_assigned(lk, fact, scope)
        if assigned is not None or fact.by is not None:
            return assigned
    holders: list[tuple[Symbol, str, str]] = [
        (d, d.detail["value"], f"{d.name} is")
        for d in preferred_in(_defs(lk, fact.subject.value, set(_VALUE_KINDS)), scope)
        if "value" in d.detail and (fact.initial or d.kind != SymbolKind.DATA_ITEM)
    ]
    if not holders:
        functions = {last_part(n) for n in names if n != fact.subject.value}
        param = last_part(fact.subject.value)
        holders = [(fn, v, f"{param} of {fn.name} defaults to") for fn, v in _defaults(lk, param, functions)]
    if not holders:
        unstated = _defs(lk, fact.subject.value, {SymbolKind.CONSTANT})
        if unstated:  # Go's `B` after `A = iota`: the value comes from the constant's position
            d = unstated[0]
            message = f"{d.name} ({d.path}:{d.start_line}) is a constant whose declaration states no value"
            return FactOutcome("unchecked", message, [_sym_evidence(lk, d, f"constant {d.name}")])
        return None
    # the index keeps a value with its white space squashed (index/tags.py), so the claim's is squashed too
    claimed = normalize_value(" ".join(fact.value.split()))
    stated: list[tuple[Symbol, str, str]] = []
    for d, value, said in holders:
        # A COBOL VALUE clause is a literal already; a constant or a default may be computed.
        actual = normalize_value(value) if d.kind == SymbolKind.DATA_ITEM else _stated_value(lk, value)
        both_computed = _EXPRESSION.fullmatch(fact.value.strip("`")) and _EXPRESSION.fullmatch(value.strip())
        if (
            claimed in (actual, normalize_value(value))
            or (actual is not None and literal_value(fact.value.strip("`")) == actual)  # `30 * 1000` for 30_000
            or (both_computed and _squashed(fact.value) == _squashed(value))
            or _same_time(claimed, actual, fact.measure)
        ):
            return FactOutcome("ok", f"{said} {value} ({d.path}:{d.start_line})", [_sym_evidence(lk, d, f"{d.kind} {d.name}")])
        if actual is not None or both_computed:
            # a computation quoted as the code spells it is compared as written (`5 * 1024` is not `10 * 1024`)
            stated.append((d, value, said))
    if not stated:
        d, value, said = holders[0]
        return FactOutcome(
            "unchecked",
            f"{said} {value} ({d.path}:{d.start_line}): computed, so the source does not state whether it is {fact.value}",
            [_sym_evidence(lk, d, f"{d.kind} {d.name}")],
        )
    d, value, said = stated[0]
    return FactOutcome(
        "contradicted",
        f"{said} {value} ({d.path}:{d.start_line}), not {fact.value}",
        [_sym_evidence(lk, d, f"{d.kind} {d.name}")],
    )


def _same_time(claimed: str, actual: str | None, unit: Measure | None) -> bool:
    """Is the code's number the claimed span of time in some unit ("30 seconds" for 30000, in milliseconds)?"""
    if unit not in SECONDS_PER or actual is None:
        return False
    try:
        seconds, held = float(claimed) * SECONDS_PER[unit], float(actual)
    except ValueError:
        return False
    return any(math.isclose(held * per, seconds) for per in SECONDS_PER.values())


def _body_refs(lk: Lookup, fn: Symbol, kind: RefKind) -> list[Ref]:
    return [r for r in lk.references(None, kind, fn.path) if fn.start_line <= r.line <= fn.end_line]


def _is_a(lk: Lookup, raised: str, wanted: str) -> bool:
    """Is the raised class the wanted one or a subclass of it (BadTimeSignature is a BadSignature)?"""
    return raised == wanted or any(wanted in _ancestors(lk, c) for c in lk.definitions(raised, SymbolKind.CLASS))


def _is_variable(lk: Lookup, name: str) -> bool:
    """A raised name that is no class: lower case, as variables are spelled in every language whose
    exceptions are classes, and no class of the snapshot."""
    return name[:1].islower() and not lk.definitions(name, SymbolKind.CLASS)


def _check_statements(lk: Lookup, fact: Fact, kind: RefKind, verb: str) -> FactOutcome | None:
    """raises / catches: the subject function's own raise or except statements, then those of the
    functions it calls (one level: "`unsign` raises X" holds when a helper it calls raises X)."""
    if fact.subject is None or fact.object is None:
        return None
    functions = _defs(lk, fact.subject.value, FUNCTION_KINDS)
    if not functions:
        return None
    wanted = last_part(fact.object.value)
    statements = [r for fn in functions for r in _body_refs(lk, fn, kind)]
    for r in statements:
        if _is_a(lk, r.target, wanted):
            return FactOutcome(
                "ok", f"{fact.subject.value} {verb} {r.target} ({r.path}:{r.line})", [_ref_evidence(lk, r, f"{kind} {r.target}")]
            )
    reached = _raised_deeper(lk, functions, kind, wanted)
    if reached is not None:
        callee, r = reached
        return FactOutcome(
            "ok",
            f"{fact.subject.value} {verb} {r.target} through {callee} ({r.path}:{r.line})",
            [_ref_evidence(lk, r, f"{kind} {r.target}")],
        )
    if kind == RefKind.RAISE and any(_is_variable(lk, r.target) for r in statements):
        return None  # `throw err`: a variable may hold the exception the claim names
    if not statements:
        # Nothing within reach raises it. Only the snapshot's own exception classes are settled by that:
        # a library or builtin call may raise a ValueError the index never sees.
        if kind != RefKind.RAISE or not lk.definitions(wanted, SymbolKind.CLASS):
            return None
        fn = functions[0]
        return FactOutcome(
            "contradicted",
            f"neither {fact.subject.value} ({fn.path}:{fn.start_line}-{fn.end_line}) nor what it calls "
            f"{MAX_CALL_DEPTH} levels deep raises {wanted}",
            [_sym_evidence(lk, fn, f"{fn.kind} {fn.name}")],
        )
    shown = ", ".join(sorted({r.target for r in statements}))
    first = statements[0]
    return FactOutcome(
        "contradicted",
        f"{fact.subject.value} {verb} {shown} ({first.path}:{first.line}), not {wanted}",
        [_ref_evidence(lk, first, f"{kind} {first.target}")],
    )


def calls_reached(
    lk: Lookup,
    spans: list[tuple[str, int, int]],
    ref_kinds: Iterable[RefKind],
    resolve: Callable[[str], list[Symbol]],
    seen: set[tuple[str, int]] | None = None,
) -> Iterator[tuple[str, Symbol]]:
    """(target, definition) of what the spans call, breadth first up to MAX_CALL_DEPTH calls deep through
    the index's references of ref_kinds; resolve turns a call's target into its definitions. Each
    definition comes once; seen: the (path, start line) of definitions not to visit (the subject's own)."""
    visited = set(seen or ())
    frontier = list(spans)
    for _ in range(MAX_CALL_DEPTH):
        targets = sorted(
            {r.target for p, a, b in frontier for kind in ref_kinds for r in lk.references(None, kind, p) if a <= r.line <= b}
        )
        frontier = []
        for target in targets:
            for d in resolve(target):
                if (d.path, d.start_line) in visited:
                    continue
                visited.add((d.path, d.start_line))
                frontier.append((d.path, d.start_line, d.end_line))
                yield target, d


def _raised_deeper(lk: Lookup, functions: list[Symbol], kind: RefKind, wanted: str) -> tuple[str, Ref] | None:
    """(callee, statement) of the first raise/except of wanted in a function the subject calls, breadth first
    up to MAX_CALL_DEPTH calls deep through the index's call references."""
    spans = [(f.path, f.start_line, f.end_line) for f in functions]
    own = {(f.path, f.start_line) for f in functions}
    for callee, fn in calls_reached(lk, spans, (RefKind.CALL,), lambda t: _defs(lk, t, FUNCTION_KINDS), own):
        hit = next((r for r in _body_refs(lk, fn, kind) if _is_a(lk, r.target, wanted)), None)
        if hit is not None:
            return last_part(callee), hit
    return None


def check_raises(lk: Lookup, fact: Fact) -> FactOutcome | None:
    return _check_statements(lk, fact, RefKind.RAISE, "raises")


def check_catches(lk: Lookup, fact: Fact, scope: list[str]) -> FactOutcome | None:
    if fact.subject is None and fact.object is not None and scope:
        return _file_catches(lk, fact.object.value, scope)
    return _check_statements(lk, fact, RefKind.EXCEPT, "catches")


def _file_catches(lk: Lookup, name: str, scope: list[str]) -> FactOutcome | None:
    """ "The fallback catches `X`" names no function: the except blocks of the files the claim is about
    must catch X (or a subclass of it); files with except blocks, none of them for X, contradict it."""
    wanted = last_part(name)
    statements = [r for path in scope for r in lk.references(None, RefKind.EXCEPT, path)]
    for r in statements:
        if _is_a(lk, r.target, wanted):
            return FactOutcome(
                "ok", f"{r.path} catches {r.target} ({r.path}:{r.line})", [_ref_evidence(lk, r, f"except {r.target}")]
            )
    if not statements:
        return None
    first = statements[0]
    shown = ", ".join(sorted({r.target for r in statements}))
    note = f"the except blocks of {', '.join(scope)} catch {shown} ({first.path}:{first.line}), not {wanted}"
    return FactOutcome("contradicted", note, [_ref_evidence(lk, first, f"except {first.target}")])


def check_maps(lk: Lookup, fact: Fact) -> FactOutcome | None:
    """ "`f` turns `X` into `Y`": a raise inside one of f's except blocks that catch X (the index records what
    the block catches, detail "caught") must raise Y; such raises of other exceptions only contradict it. No
    such block in f leaves the fact unchecked: a helper f calls may do the mapping."""
    if fact.subject is None or fact.object is None or fact.by is None:
        return None
    functions = _defs(lk, fact.subject.value, FUNCTION_KINDS)
    caught, wanted = last_part(fact.by.value), last_part(fact.object.value)
    raises = [
        r
        for fn in functions
        for r in _body_refs(lk, fn, RefKind.RAISE)
        if any(_is_a(lk, c, caught) or c == caught for c in r.detail.get("caught", "").split(","))
    ]
    for r in raises:
        if _is_a(lk, r.target, wanted):
            note = f"{fact.subject.value} raises {r.target} where it catches {caught} ({r.path}:{r.line})"
            return FactOutcome("ok", note, [_ref_evidence(lk, r, f"raise {r.target}")])
    if not raises:
        if not functions:
            return None
        return FactOutcome("unchecked", f"no except block of {fact.subject.value} that catches {caught} raises anything")
    first = raises[0]
    shown = ", ".join(sorted({r.target for r in raises}))
    note = f"{fact.subject.value} turns {caught} into {shown} ({first.path}:{first.line}), not {wanted}"
    return FactOutcome("contradicted", note, [_ref_evidence(lk, first, f"raise {first.target}")])


def check_unknown(lk: Lookup, fact: Fact, text: str) -> FactOutcome:
    word = text[fact.span[0] : fact.span[1]]
    return FactOutcome("unchecked", f'"{word}" states a judgement or a runtime behaviour the code cannot settle')


# -- the subject's own code span ---------------------------------------------------------------------------


def actor_defs(lk: Lookup, name: str, scope: list[str], kinds: Collection[SymbolKind] = CODE_ACTOR_KINDS) -> list[Symbol]:
    """The definitions of a paragraph, program, function or class, in the claim's files when it has any there
    (`0000-MAIN` in a claim about one program is that program's)."""
    defs = _defs(lk, name, kinds)
    return [d for d in defs if d.path in scope] or defs


def _spans(lk: Lookup, fact: Fact, scope: list[str]) -> tuple[str, list[tuple[str, int, int]]]:
    """(who, spans) of the code a fact is about: its actor's definitions, else the claim's files."""
    if fact.by is not None:
        defs = actor_defs(lk, fact.by.value, scope)
        if defs:
            return fact.by.value, [(d.path, d.start_line, d.end_line) for d in defs]
    return ", ".join(scope), [(p, 1, 10**9) for p in scope]


def _code(lk: Lookup, path: str, start: int, end: int) -> tuple[str, int, list[int]]:
    """The upper-case code of lines start..end (comments and COBOL sequence areas dropped), the offset of
    its first character in the file's code text, and the line starts (for line numbers)."""
    text, starts = lk.code_text(path)
    a = starts[start - 1] if 0 < start <= len(starts) else len(text)
    b = starts[end] if end < len(starts) else len(text)
    return text[a:b], a, starts


def _line_of(starts: list[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset)


_COBOL_VERB = (
    r"(?=\s+(?:MOVE|IF|ELSE|END-[\w-]+|PERFORM|SET|COMPUTE|DISPLAY|GO|EXEC|ADD|SUBTRACT|MULTIPLY|DIVIDE|WHEN|STRING|"
    r"INITIALIZE|CALL|READ|WRITE|REWRITE|OPEN|CLOSE|EVALUATE|NOT|ON|CONTINUE|GOBACK|STOP|EXIT)\b|\.(?:\s|$)|$)"
)
_MOVE = re.compile(r"\bMOVE\s+(?P<src>'[^']*'|\"[^\"]*\"|\S+)\s+TO\s+(?P<dst>.*?)" + _COBOL_VERB)
_SET = re.compile(r"\bSET\s+(?P<dst>[\w\s,()-]+?)\s+TO\s+(?P<src>TRUE|FALSE|'[^']*'|[^\s.]+)")
_COMPUTE = re.compile(
    r"\bCOMPUTE\s+(?P<dst>[\w-]+(?:\([^)]*\))?(?:\s+(?:OF|IN)\s+[\w-]+)*)(?:\s+ROUNDED)?\s*=\s*(?P<src>.*?)" + _COBOL_VERB
)


def _targets(dst: str) -> set[str]:
    """The data names a MOVE or SET writes: subscripts, OF/IN qualifiers and commas dropped."""
    dst = re.sub(r"\([^)]*\)", " ", dst)
    dst = re.sub(r"\b(?:OF|IN)\s+[\w-]+", " ", dst)
    return {w for w in re.split(r"[\s,]+", dst) if w}


def _assignment(name: str, kind: str) -> re.Pattern[str]:
    """One line assigning name: `name = v`, `self.name: T = v`, `this.name = v;`, `this->name = v;`. The
    statement's closing `;` and a trailing comment (the language's own marker: `//` divides in Python)
    are not the value."""
    comments = "|".join(re.escape(c) for c in language(kind).line_comments) or "$^"
    return re.compile(
        r"^\s*(?:self\.|this\.|this->)?"
        + re.escape(name)
        + r"\s*(?::[^=]+)?=(?!=)\s*(?P<src>.+?)\s*;?\s*(?:(?:"
        + comments
        + r").*)?$"
    )


def assignments(lk: Lookup, name: str, spans: list[tuple[str, int, int]]) -> list[tuple[str, int, str]]:
    """(path, line, value) of each statement in the spans that sets name: MOVE, SET, COMPUTE in COBOL, an
    assignment to the name (or to self.name, this.name) in the other languages."""
    out: list[tuple[str, int, str]] = []
    last = last_part(name)
    for path, start, end in spans:
        info = lk.file_info(path)
        if info is None:
            continue
        if info.language == "cobol":
            text, base, starts = _code(lk, path, start, end)
            for pattern in (_MOVE, _SET, _COMPUTE):
                for m in pattern.finditer(text):
                    if last.upper() in _targets(m.group("dst")):
                        out.append((path, _line_of(starts, base + m.start()), m.group("src").strip()))
        else:
            assign = _assignment(last, info.language)
            lines = lk.file_lines(path)
            for n in range(max(start, 1), min(end, len(lines)) + 1):
                a = assign.match(lines[n - 1])
                if a:
                    out.append((path, n, a.group("src")))
    return sorted(out)


def check_assigned(lk: Lookup, fact: Fact, scope: list[str]) -> FactOutcome | None:
    """ "`700-OPEN-FILES` sets `RETURN-CODE` to 12": a statement in the actor's own span (else the claim's
    files) must set the name to that value. Statements that set it to something else contradict."""
    assert fact.subject is not None and fact.value is not None
    who, spans = _spans(lk, fact, scope)
    if not spans:
        return None
    found = assignments(lk, fact.subject.value, spans)
    if not found:
        return None
    claimed = normalize_value(fact.value)
    name = fact.subject.value
    for path, line, value in found:
        if normalize_value(value) == claimed or _a_branch(value, fact.value):
            return FactOutcome("ok", f"{who} sets {name} to {value} ({path}:{line})", [lk.snippet(path, line, line)])
    values = ", ".join(dict.fromkeys(v for _, _, v in found))
    path, line, _ = found[0]
    return FactOutcome(
        "contradicted", f"{who} sets {name} to {values} ({path}:{line}), never to {fact.value}", [lk.snippet(path, line, line)]
    )


def _a_branch(assigned: str, claimed: str) -> bool:
    """Is the claimed literal one branch of a conditional assignment (`"*" if args else None`)?"""
    branches = re.fullmatch(r"(.+?)\s+if\s+.+?\s+else\s+(.+)|.+?\?\s*(.+?)\s*:\s*(.+)", assigned.strip())
    if branches is None:
        return False
    return normalize_value(claimed) in {normalize_value(b) for b in branches.groups() if b is not None}


def _pic_length(pic: str) -> int:
    """Characters a PIC occupies in display form: 9(4) is 4, X(31) is 31, S9(5)V99 is 7 (S and V take none)."""
    expanded = re.sub(r"(.)\((\d+)\)", lambda m: m.group(1) * int(m.group(2)), pic.upper())
    return len(re.sub(r"[SVP]", "", expanded))


def check_length(lk: Lookup, fact: Fact, scope: list[str]) -> FactOutcome | None:
    """ "`EPYEARS` is 3 characters long": a map field's LENGTH=, a data item's PIC width. The name being
    right and the size off is a qualifier off (PARTIALLY_SUPPORTED), not a false name."""
    assert fact.subject is not None and fact.value is not None
    for d in preferred_in(_defs(lk, fact.subject.value, {SymbolKind.FIELD, SymbolKind.DATA_ITEM}), scope):
        if d.detail.get("usage", "DISPLAY").upper() != "DISPLAY":
            continue  # a COMP or POINTER item's bytes are not its picture's characters
        if "length" in d.detail:
            actual = int(d.detail["length"])
            shown = f"LENGTH={d.detail['length']}"
        elif d.detail.get("pic"):
            actual = _pic_length(d.detail["pic"])
            shown = f"PIC {d.detail['pic']}"
        else:
            continue
        ev = [_sym_evidence(lk, d, f"{d.kind} {d.name}")]
        if str(actual) == normalize_value(fact.value):
            return FactOutcome("ok", f"{d.name} is {actual} characters ({shown} at {d.path}:{d.start_line})", ev)
        return FactOutcome(
            "mismatch", f"{d.name} is {actual} characters ({shown} at {d.path}:{d.start_line}), not {fact.value}", ev
        )
    return None


# -- returns -----------------------------------------------------------------------------------------------

_RETURN = re.compile(r"^\s*return\b\s*(?P<expr>.*?)\s*(?:#.*)?$")
_ORDINAL = re.compile(r"\b(?P<which>first|last)\s+(?:entry|element|item|one|value|key)\b", re.I)


def _returns(lk: Lookup, fn: Symbol) -> list[tuple[int, str]]:
    """(line, expression) of the function's own return statements; a nested function's are not its own."""
    nested = [
        d
        for kind in (SymbolKind.FUNCTION, SymbolKind.METHOD)
        for d in lk.definitions(None, kind, fn.path)
        if fn.start_line < d.start_line and d.end_line <= fn.end_line
    ]
    lines = lk.file_lines(fn.path)
    out = []
    for n in range(fn.start_line, min(fn.end_line, len(lines)) + 1):
        m = _RETURN.match(lines[n - 1])
        if m and not any(d.start_line <= n <= d.end_line for d in nested):
            out.append((n, m.group("expr") or "None"))
    return out


def _squash(expr: str) -> str:
    return re.sub(r"\s+", "", re.sub(r"\bself\.", "", expr))


def _returned(expr: str, wanted: str, ordinal: str | None) -> bool:
    """Does a return expression return the wanted name or value? A value must be the whole expression; a
    name may be part of it (``return self.x[-1]`` returns x), unless the claim says which entry of it."""
    # "returns its `.stream`": an attribute, returned through it or a name of the same
    e, w = _squash(expr), _squash(wanted).removesuffix("()").removeprefix(".")
    if normalize_value(e) == normalize_value(w):
        return True
    if ordinal is not None:
        return e.endswith(f"{last_part(w)}[{'0' if ordinal == 'first' else '-1'}]")
    if not re.fullmatch(r"[\w.]+", w):
        return False  # a quoted expression (`zlib.compress(json, 9)`) is returned only as written
    return re.search(r"(?<![\w])" + re.escape(w) + r"(?![\w])", e) is not None


_SIMPLE_RETURN = re.compile(r"[\w.]+(?:\(\))?|'[^']*'|\"[^\"]*\"")
_DELEGATE = re.compile(r"(?:(?P<recv>[\w.]+)\.)?(?P<name>\w+)\(.*\)", re.S)


def _followed_returns(lk: Lookup, functions: list[Symbol]) -> tuple[list[tuple[Symbol, int, str]], bool]:
    """The return statements of the functions and, up to MAX_CALL_DEPTH calls deep, of the functions they
    return the result of (`return self._impl(s)`), and whether every such call could be followed (one to
    code outside the snapshot, or deeper, leaves what is returned unknown)."""
    out: list[tuple[Symbol, int, str]] = []
    complete = True
    todo = [(fn, 0) for fn in functions]
    seen: set[tuple[str, int]] = set()
    while todo:
        fn, depth = todo.pop(0)
        if (fn.path, fn.start_line) in seen:
            continue
        seen.add((fn.path, fn.start_line))
        for n, expr in _returns(lk, fn) or [(fn.end_line, "None")]:
            out.append((fn, n, expr))
            if any(expr.count(a) != expr.count(b) for a, b in ("()", "[]", "{}")):
                complete = False  # a return that goes on past its first line is not read whole
            call = _DELEGATE.fullmatch(expr.strip())
            if call is None:
                continue
            recv = call.group("recv")
            callees = [d for d in _defs(lk, call.group("name"), FUNCTION_KINDS) if d.language == fn.language]
            if recv in ("self", "cls"):  # the class's own method, when it has one
                callees = [d for d in callees if d.detail.get("parent") == fn.detail.get("parent")] or callees
            elif recv is not None:  # `json.loads(s)` is json's, not a same-named method of the corpus
                owner = last_part(recv)
                callees = [d for d in callees if d.detail.get("parent") == owner] if lk.definitions(owner) else []
            if callees and depth < MAX_CALL_DEPTH:
                todo.extend((c, depth + 1) for c in callees)
            else:
                complete = False
    return out, complete


def check_returns(lk: Lookup, fact: Fact, scope: list[str]) -> FactOutcome | None:
    """ "`f` returns `X`" against f's own return statements (Python): one returning X holds; a return of the
    value the claim says is not returned ("rather than `True`") or only other values contradict."""
    if fact.subject is None or (fact.object is None and fact.negated is None):
        return None
    functions = [d for d in actor_defs(lk, fact.subject.value, scope, FUNCTION_KINDS) if d.language == "python"]
    if not functions:
        return None
    statements, complete = _followed_returns(lk, functions)
    who = fact.subject.value
    if fact.negated is not None:
        for fn, n, expr in statements:
            if _returned(expr, fact.negated, None):
                return FactOutcome("contradicted", f"{who} returns {expr} ({fn.path}:{n})", [lk.snippet(fn.path, n, n)])
    if fact.object is None:
        return None
    ordinal = _ORDINAL.search(fact.value or "")
    which = ordinal.group("which").lower() if ordinal else None
    # "returns `self.convert or self.strip`": the whole quoted expression, not its first name
    quoted = re.fullmatch(r"`([^`]+)`", (fact.value or "").strip())
    wanted = quoted.group(1) if quoted else fact.object.value
    for fn, n, expr in statements:
        if _returned(expr, wanted, which):
            return FactOutcome("ok", f"{who} returns {expr} ({fn.path}:{n})", [lk.snippet(fn.path, n, n)])
    written = _squash(quoted.group(1) if quoted else fact.object.value)
    if not _SIMPLE_RETURN.fullmatch(written):
        return None  # a compound value (`(False, payload)`) is confirmed only as written: answers paraphrase its parts
    if not complete and not written.endswith(")"):
        # what a call the snapshot cannot follow returns may be the claimed value; a call claimed
        # (`mac.hexdigest()`) is compared with the statements as written
        return FactOutcome("unchecked", f"{who} returns the result of code the snapshot cannot follow")
    fn, n, _ = statements[0]
    shown = ", ".join(dict.fromkeys(e for _, _, e in statements))
    said = f"the {which} entry of {fact.object.value}" if which else fact.object.value
    return FactOutcome("contradicted", f"{who} returns {shown} ({fn.path}:{n}), not {said}", [lk.snippet(fn.path, n, n)])


# -- counts ------------------------------------------------------------------------------------------------

_FILE_WORDS = {"INPUT", "OUTPUT", "I-O", "EXTEND", "WITH", "LOCK", "NO", "REWIND", "REEL", "UNIT", "FOR", "REMOVAL"}
_OPEN_CLOSE = re.compile(r"\b(?P<verb>OPEN|CLOSE)\s+(?P<files>.*?)" + _COBOL_VERB)


def _files_named(lk: Lookup, verb: str, span: tuple[str, int, int]) -> dict[str, int]:
    """The files a span OPENs or CLOSEs, each with the line of its first statement."""
    path, start, end = span
    text, base, starts = _code(lk, path, start, end)
    out: dict[str, int] = {}
    for m in _OPEN_CLOSE.finditer(text):
        if m.group("verb") == verb:
            for word in re.split(r"[\s,]+", m.group("files")):
                if word and word not in _FILE_WORDS:
                    out.setdefault(word, _line_of(starts, base + m.start()))
    return out


def _members(lk: Lookup, owner: Symbol, noun: str) -> list[Symbol]:
    """What a definition has, by the counted noun: a record's fields, a class's methods, a program's paragraphs."""
    if owner.kind == SymbolKind.DATA_ITEM:
        return [d for d in lk.definitions(None, SymbolKind.DATA_ITEM, owner.path) if d.detail.get("parent") == owner.name]
    if owner.kind == SymbolKind.CLASS:
        return [d for d in lk.definitions(None, SymbolKind.METHOD, owner.path) if d.detail.get("parent") == owner.name]
    kind = {
        "paragraph": SymbolKind.PARAGRAPH,
        "section": SymbolKind.SECTION,
        "method": SymbolKind.METHOD,
        "function": SymbolKind.FUNCTION,
    }.get(noun.rstrip("s"))
    if kind is None:
        return []
    return [d for d in lk.definitions(None, kind, owner.path) if owner.start_line <= d.start_line <= owner.end_line]


def check_counts(lk: Lookup, fact: Fact, scope: list[str]) -> FactOutcome | None:
    """ "`790-CLOSE-FILES` closes all four files", "`R` has three fields": count the subject's own statements
    or members. The right subject with a count off is a qualifier off (PARTIALLY_SUPPORTED)."""
    if fact.subject is None or fact.noun is None or fact.value is None:
        return None
    verb, noun = fact.noun.split(" ", 1)
    defs = actor_defs(lk, fact.subject.value, scope, CODE_ACTOR_KINDS | {SymbolKind.DATA_ITEM})
    if not defs:
        return None
    d = defs[0]
    if verb in ("closes", "opens") and noun.startswith("file") and d.language == "cobol":
        named = _files_named(lk, verb.upper()[:-1], (d.path, d.start_line, d.end_line))
        counted = sorted(named, key=named.__getitem__)
        line = min(named.values(), default=d.start_line)
    elif verb == "performs" and noun.startswith(("paragraph", "section")):
        counted = sorted({r.target for r in _body_refs(lk, d, RefKind.PERFORM)})
        line = d.start_line
    elif verb in ("has", "defines", "declares", "contains", "holds"):
        counted = [m.name for m in _members(lk, d, noun)]
        line = d.start_line
    else:
        return None
    if not counted:
        return None
    ev = [lk.snippet(d.path, line, line)]
    shown = f"{fact.subject.value} {verb} {len(counted)} {noun} ({', '.join(counted[:6])}; {d.path}:{d.start_line})"
    if str(len(counted)) == fact.value:
        return FactOutcome("ok", shown, ev)
    return FactOutcome("mismatch", f"{shown}, not {fact.value}", ev)


# -- has-member --------------------------------------------------------------------------------------------


def _exported(lk: Lookup, path: str, name: str) -> int | None:
    """Line where a module makes name public: defines it, imports it, or lists it in __all__."""
    pattern = re.compile(r"(?<![\w.])" + re.escape(name) + r"(?![\w])")
    lines = lk.file_lines(path)
    for n, line in enumerate(lines, 1):
        if pattern.search(line) and not line.lstrip().startswith("#"):
            return n
    return None


def check_member(lk: Lookup, fact: Fact, scope: list[str]) -> FactOutcome | None:
    """ "exports `X` from `pkg/__init__.py`": the module's code (not a comment) names X; "`C` has a method
    `m`": C's own methods or fields; "`R` has a field `F`": F is under R. A member the owner does not have
    contradicts, even when a same-named one exists elsewhere."""
    if fact.subject is None or fact.object is None:
        return None
    member = last_part(fact.object.value)
    if fact.noun == "export":
        files = lk.resolve_files(fact.subject.value)
        if not files:
            return None
        for path in files:
            line = _exported(lk, path, member)
            if line is not None:
                return FactOutcome("ok", f"{path} exports {member} ({path}:{line})", [lk.snippet(path, line, line)])
        return FactOutcome("contradicted", f"{files[0]} does not export {member}", [lk.snippet(files[0], 1, 1)])
    owners = actor_defs(lk, fact.subject.value, scope, {SymbolKind.CLASS, SymbolKind.DATA_ITEM})
    if not owners:
        return None
    for owner in owners:
        if owner.kind == SymbolKind.CLASS:
            found = [(d.path, d.start_line) for d in lk.definitions(member) if d.detail.get("parent") == owner.name]
            found += lk.field_lines(owner.name, member)
        else:
            found = [
                (d.path, d.start_line)
                for d in lk.definitions(member, SymbolKind.DATA_ITEM, owner.path)
                if owner.start_line < d.start_line <= owner.end_line
            ]
        if found:
            path, line = found[0]
            return FactOutcome("ok", f"{owner.name} has {member} ({path}:{line})", [lk.snippet(path, line, line)])
    owner = owners[0]
    return FactOutcome(
        "contradicted",
        f"{owner.name} ({owner.path}:{owner.start_line}-{owner.end_line}) has no {fact.noun} {member}",
        [_sym_evidence(lk, owner, f"{owner.kind} {owner.name}")],
    )


# the statements that call, perform or pass control to a name; any other mention of it may be one too (a
# callback passed on), which "never called" cannot be held against
_CALL_KINDS = frozenset({RefKind.CALL, RefKind.PERFORM, RefKind.GOTO, RefKind.XCTL, RefKind.LINK, RefKind.EXEC_PGM})
_OWN_UNIT = re.compile(
    r"\s*\S*\s*(?:\w+\s+){0,6}?\bin\s+(?:its|the|this|that)\s+(?:own\s+)?(?:procedure\s+division|program|file|module)\b", re.I
)


def _in_procedure_code(lk: Lookup, path: str, line: int) -> bool:
    """Is a COBOL line procedure code: past its PROCEDURE DIVISION header, or in a paragraph or section (of a
    copybook of procedure code)? A data item named in another's clause or a function in the REPOSITORY
    paragraph is declared there, not used."""
    header = lk.procedure_division_line(path)
    if header is not None:
        return line > header
    return lk.index.enclosing(path, line, (SymbolKind.PARAGRAPH, SymbolKind.SECTION)) is not None


def check_unused(lk: Lookup, fact: Fact, text: str, scope: list[str]) -> FactOutcome | None:
    """ "`X` is never called", "declared but never referenced", "`P` never performs `X`": the first line of code
    using X outside its definitions (within P's code, when the claim names P) contradicts it; for "called", a
    statement calling or performing it, while a mere mention leaves it unchecked, since X may be passed on and
    called. No such line, when every line naming X was read, holds it. "in its procedure division", "in the
    program", and of a data item: only the claim's own files count."""
    if fact.subject is None:
        return None
    owner, _, name = fact.subject.value.rpartition(".")
    defined = lk.definitions(name)
    defs = [d for d in defined if not owner or d.detail.get("parent") in (None, last_part(owner))]
    actors = actor_defs(lk, fact.by.value, scope) if fact.by is not None else []
    if not defs or (fact.by is not None and not actors):
        return None
    within = [(d.path, d.start_line, d.end_line) for d in actors]
    # a data item is its program's own (another program's namesake is another item): only the claim's files count
    own = scope and (_OWN_UNIT.match(text, fact.span[1]) or all(d.kind in DATA_KINDS for d in defs))
    files = set(scope) if own else None
    # its definitions, and the lines that import it (an import names what a file may use, and is no use)
    inside = [(d.path, d.start_line, d.end_line) for d in defined]
    inside += [(r.path, r.line, r.line) for r in lk.references(name) if r.kind is RefKind.IMPORT]

    def used_at(path: str, line: int) -> bool:
        return (
            (files is None or path in files)
            and (not within or any(p == path and a <= line <= b for p, a, b in within))
            and not any(p == path and a <= line <= b for p, a, b in inside)
            and (language(lk.language(path)).case_sensitive or _in_procedure_code(lk, path, line))
        )

    hits = lk.search(name, FULL_SEARCH_LIMIT)
    mentions = [
        (p, n) for p, n, _ in hits if not lk.is_prose(p) and lk.first_code_mention(p, name, n, n) is not None and used_at(p, n)
    ]
    calls = [(r.path, r.line, f"{r.kind} at ") for r in lk.references(name) if r.kind in _CALL_KINDS and used_at(r.path, r.line)]
    said = fact.value or "used"
    who = f" by {fact.by.value}" if fact.by is not None else ""
    # a mention shows a use, but not a read or a test (a MOVE to it is neither): only no mention at all settles those
    found = calls if said == "called" else [(p, n, "") for p, n in mentions] if said == "used" else []
    if found:
        path, line, kind = found[0]
        return FactOutcome("contradicted", f"{name} is {said}{who} ({kind}{path}:{line})", [lk.snippet(path, line, line)])
    if len(hits) >= FULL_SEARCH_LIMIT:
        return FactOutcome("unchecked", f"{name} is named on too many lines to read them all")
    if mentions:
        path, line = mentions[0]
        return FactOutcome(
            "unchecked",
            f"no statement calls {name}{who}, but code names it at {path}:{line}"
            if said == "called"
            else f"code names {name}{who} at {path}:{line}, which may or may not read it",
            [lk.snippet(path, line, line)],
        )
    where = f"of {fact.by.value}" if fact.by is not None else "of its own files" if files is not None else "of the snapshot"
    d = actors[0] if actors else defs[0]
    verb = {"called": "calls", "read": "reads or tests"}.get(said, "uses")
    return FactOutcome(
        "ok", f"no code {where} {verb} {name} outside its definition", [_sym_evidence(lk, d, f"{d.kind} {d.name}")]
    )


CHECKERS: dict[Predicate, Callable[..., FactOutcome | None]] = {
    Predicate.INHERITS: lambda lk, fact, scope: check_inherits(lk, fact),
    Predicate.RAISES: lambda lk, fact, scope: check_raises(lk, fact),
    Predicate.CATCHES: check_catches,
    Predicate.MAPS_EXCEPTION: lambda lk, fact, scope: check_maps(lk, fact),
    Predicate.RETURNS: check_returns,
    Predicate.COUNTS: check_counts,
    Predicate.HAS_MEMBER: check_member,
}


def check_fact(lk: Lookup, fact: Fact, text: str, names: list[str], scope: list[str]) -> FactOutcome | None:
    """The outcome of one fact with a checker here; None when this module has nothing to say about it
    (its relation is checked by verify.py's reference checks, or its subject is not indexed). scope: the
    files the claim is about, which pick among same-named subjects."""
    if fact.predicate is Predicate.UNKNOWN:
        return check_unknown(lk, fact, text)
    if fact.predicate is Predicate.HAS_VALUE:
        return check_has_value(lk, fact, names, scope)
    if fact.predicate is Predicate.UNUSED:
        return check_unused(lk, fact, text, scope)
    checker = CHECKERS.get(fact.predicate)
    return checker(lk, fact, scope) if checker is not None else None
