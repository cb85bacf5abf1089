"""Functions, classes, methods, calls and imports of general-purpose languages, from per-language tag queries.

Optional captures add what the grounding checks need, in every tag language whose code has the construct:

- `@bases` on a class: its base classes, detail "bases" (Python superclasses, Java extends / implements,
  JS/TS extends and implements, C# base list, C++ base_class_clause, Kotlin delegation specifiers, Go
  embedded struct fields and interfaces: Go's only inheritance; none for C structs or Rust types, whose
  traits are implemented in impl blocks anywhere). A class matched by several patterns, one per base,
  gathers them all; a language whose query captures bases records "" for a class without any, so a
  claim of a base it does not have can be contradicted.
- `definition.constant` with `@value`: a constant and its value (detail "value"; "parent" when a class
  holds it). Python's module-level assignments count only when named like a constant; the other
  languages say it: Java `static final` and interface fields, JS/TS top-level `const`, Go `const`
  (never an `iota` value, which depends on the position), C# `const` and `static readonly`, C/C++
  `#define` and namespace-level or member `const` / `constexpr`, Kotlin `const val` (and a top-level `val`
  named like a constant), Rust `const` and `static`. A `const` bound to a function is the function's
  definition, not a constant.
- `definition.default`: a parameter's default (detail "defaults" of the function, `name=value` pairs
  joined by ";"), in Python, JS/TS, C++, C# and Kotlin; a default of an anonymous function is nobody's.
- `@receiver` on a call (`self.post()`, `this.run()`, `ledger.post()`, `s->m()`: detail "receiver").
- `reference.raise` and `reference.except` (raise / throw / a Java `throws` clause; except / catch, and in
  JS/TS, whose catch is untyped, an `instanceof` test directly inside the catch block). The except
  reference's node is its clause: a raise inside the clause records what the clause catches (detail
  "caught", "*" for a clause that names no type), so "maps KeyError to BadData" can be checked, and a
  rethrow of the clause's own variable (`@bound`: `catch (IOException e) { throw e; }`) raises the caught
  types. Names are kept without qualifier or type arguments (`java.io.IOException` is IOException).

One query file per language under queries/ (`<grammar>-tags.scm`; the tsx grammar shares TypeScript's, whose
node types it extends), in the manner of aider's repomap, but keeping each definition's full line range so
range questions can be answered.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, cast

from groundjudge.grounding.index.model import FUNCTION_KINDS, RefKind, SymbolKind
from groundjudge.grounding.index.store import RefRow, SymbolRow, ref_row, symbol_row

_QUERIES = Path(__file__).parent / "queries"
# Nodes whose functions are methods of the class they name.
_CLASS_NODES = frozenset(
    {
        "class_definition",
        "class_declaration",
        "class",
        "abstract_class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "class_specifier",
        "struct_specifier",
        "struct_declaration",
        "object_declaration",
        "impl_item",
        "trait_item",
    }
)
_ROLES = (
    "definition.function",
    "definition.method",
    "definition.class",
    "definition.constant",
    "definition.default",
    "reference.call",
    "reference.import",
    "reference.raise",
    "reference.except",
)
# Nodes that open a function of their own: a parameter default inside one belongs to it (or to the
# declaration naming it).
_FUNCTION_NODES = frozenset(
    {
        "function_definition",
        "function_declaration",
        "method_declaration",
        "method_definition",
        "constructor_declaration",
        "generator_function_declaration",
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
        "lambda",
        "lambda_expression",
        "func_literal",
        "local_function_statement",
    }
)
_CATCH_NODES = frozenset({"except_clause", "catch_clause", "catch_block"})
# Name-like nodes of a bases list or a caught type, spelled with a qualifier at most; type arguments and
# the names an except clause or a keyword argument binds are not base or exception names.
_NAME_NODES = frozenset(
    {
        "identifier",
        "attribute",
        "type_identifier",
        "scoped_identifier",
        "scoped_type_identifier",
        "member_expression",
        "nested_type_identifier",
        "qualified_identifier",
        "qualified_name",
        "qualified_type",
        "user_type",
    }
)
_NOT_NAMES = frozenset(
    {
        "keyword_argument",
        "as_pattern_target",
        "type_arguments",
        "type_argument_list",
        "template_argument_list",
    }
)
_MAX_VALUE = 200
_TYPE_ASSERTIONS = frozenset({"as_expression", "satisfies_expression", "non_null_expression"})
_QUERY_OF = {"tsx": "typescript"}


@cache
def tools(grammar: str):
    """Parser and tag query of one grammar, made once per process (and inherited by forked workers)."""
    from tree_sitter import Parser, Query
    from tree_sitter_language_pack import SupportedLanguage, get_language

    lang = get_language(cast(SupportedLanguage, grammar))  # an unknown name raises LookupError at run time
    query_file = _QUERIES / f"{_QUERY_OF.get(grammar, grammar)}-tags.scm"
    return Parser(lang), Query(lang, query_file.read_text())


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _enclosing_class(node) -> str | None:
    n = node.parent
    while n is not None:
        if n.type in _CLASS_NODES:
            # A Rust impl block names its type (`impl<T> Table<T>`, `impl Display for Table`); Kotlin's grammar
            # has no field names: its class name is the declaration's own type_identifier.
            name = (
                n.child_by_field_name("name")
                or n.child_by_field_name("type")
                or next((c for c in n.named_children if c.type == "type_identifier"), None)
            )
            return _last_name(_text(name)) if name is not None else None
        n = n.parent
    return None


def _go_receiver(node) -> str | None:
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return None
    stack = [receiver]
    while stack:
        n = stack.pop()
        if n.type == "type_identifier":
            return _text(n)
        stack.extend(reversed(n.children))
    return None


def _import_target(text: str) -> str:
    return text.strip().strip("\"'`<>")


def _value(node) -> str:
    """Source text of a value, white space squashed and capped (a long literal table is not a checkable value).
    A type assertion (`10 as const`) is its value; a macro's text ends where a comment starts."""
    while node.type in _TYPE_ASSERTIONS and node.named_children:
        node = node.named_children[0]
    text = _text(node)
    if node.type == "preproc_arg":
        text = re.split(r"//|/\*", text, maxsplit=1)[0]
    return " ".join(text.split())[:_MAX_VALUE]


def _last_name(text: str) -> str:
    """`java.io.IOException` -> IOException, `std::runtime_error` -> runtime_error, `List<T>` -> List."""
    return re.split(r"\.|::", text.split("<", 1)[0].strip())[-1]


def _names_in(node) -> list[str]:
    """The class names a bases list or an except clause spells (keyword arguments and `as` targets aside)."""
    if node.type in _NAME_NODES:
        return [_last_name(_text(node))]
    if node.type in _NOT_NAMES:
        return []
    return [n for child in node.named_children for n in _names_in(child)]


def _enclosing(node, types: frozenset[str]):
    n = node.parent
    while n is not None and n.type not in types:
        n = n.parent
    return n


@cache
def _captures(grammar: str) -> frozenset[str]:
    query = tools(grammar)[1]
    return frozenset(query.capture_name(i) for i in range(query.capture_count))


def _default_owner(node, functions: set[int]) -> int | None:
    """Start byte of the recorded function a parameter default belongs to: the innermost function around
    it, or the declaration naming it (`const f = (a = 1) => a`); None for an anonymous function's."""
    fn = _enclosing(node, _FUNCTION_NODES)
    for candidate in (fn, fn.parent if fn is not None else None):
        if candidate is not None and candidate.start_byte in functions:
            return candidate.start_byte
    return None


class _Raises:
    """The except clauses of a file (what each catches, the variable it binds) and the raises inside them."""

    def __init__(self) -> None:
        self.caught: dict[int, list[str]] = {}  # clause start byte -> caught names, in source order
        self.bound: dict[int, str] = {}  # clause start byte -> the variable holding the exception

    def add_clause(self, clause, name: str, caps: dict) -> None:
        names = self.caught.setdefault(clause.start_byte, [])
        if name not in names:
            names.append(name)
        if "bound" in caps:
            self.bound[clause.start_byte] = _text(caps["bound"][0])

    def refs(self, target: str, node, detail: dict[str, str]) -> list[tuple[str, dict[str, str]]]:
        """(target, detail) of one raise: inside a clause it records what the clause catches, and a rethrow
        of the clause's own variable raises each caught type."""
        clause = _enclosing(node, _CATCH_NODES)
        if clause is None:
            return [(target, detail)]
        names = self.caught.get(clause.start_byte, [])
        detail = {**detail, "caught": ",".join(names) or "*"}
        if names and self.bound.get(clause.start_byte) == target:
            return [(name, detail) for name in names]
        return [(target, detail)]


def extract(path: str, language: str, text: str, grammar: str) -> tuple[list[SymbolRow], list[RefRow], bool]:
    """(symbols, refs, has_errors) for one file."""
    from tree_sitter import QueryCursor

    parser, query = tools(grammar)
    tree = parser.parse(text.encode("utf-8"))
    symbols: list[SymbolRow] = []
    spans: list[tuple[int, int, int, str]] = []  # functions and methods, for the context of each ref
    raw_refs: list[tuple[RefKind, str, int, dict[str, str], Any]] = []  # ..., the node
    # Symbols are made into rows only at the end: a function's defaults and a class's further bases
    # arrive in later matches.
    defined: list[tuple[SymbolKind, str, int, int, dict[str, str], int]] = []
    defaults: list[tuple[Any, str]] = []  # (default's node, "name=value")
    bases: dict[tuple[int, str], list[str]] = {}  # (class node start byte, name) -> bases from every match
    raises = _Raises()
    seen: set[tuple] = set()
    for _, caps in QueryCursor(query).matches(tree.root_node):
        names = caps.get("name")
        if not names:
            continue
        name_node = names[0]
        for role in _ROLES:
            if role in caps:
                node = caps[role][0]
                break
        else:
            continue
        capture = role.split(".")[1]
        if role.startswith("definition"):
            name = _text(name_node)
            detail: dict[str, str] = {}
            if capture == "default":  # no symbol: a detail of the function it belongs to
                if "value" in caps:
                    defaults.append((node, f"{name}={_value(caps['value'][0])}"))
                continue
            kind = SymbolKind(capture)
            if kind == SymbolKind.CLASS:  # keyed by name too: one Go `type (...)` declaration holds several
                found = bases.setdefault((node.start_byte, name), [])
                found.extend(b for n in caps.get("bases", []) for b in _names_in(n) if b not in found)
            parent = _go_receiver(node) if node.type == "method_declaration" and grammar == "go" else _enclosing_class(node)
            if "::" in name:
                parent, name = name.rsplit("::", 1)
            if parent and kind in FUNCTION_KINDS:
                kind, detail = SymbolKind.METHOD, {"parent": parent}
            elif parent and kind in (SymbolKind.CLASS, SymbolKind.CONSTANT):
                detail = {"parent": parent}
            if kind == SymbolKind.CONSTANT and "value" in caps:
                detail["value"] = _value(caps["value"][0])
            key: tuple = (kind, name, node.start_point.row)
            if key in seen:
                continue
            seen.add(key)
            start, end = node.start_point.row + 1, node.end_point.row + 1
            defined.append((kind, name, start, end, detail, node.start_byte))
            if kind in FUNCTION_KINDS:
                spans.append((start, -end, end, name))
        else:
            ref_kind = RefKind(capture)
            target = _import_target(_text(name_node)) if ref_kind == RefKind.IMPORT else _text(name_node)
            if ref_kind in (RefKind.RAISE, RefKind.EXCEPT):
                target = _last_name(target)
            key = (ref_kind, target, name_node.start_point.row)
            if key in seen:
                continue
            seen.add(key)
            detail = {}
            if "receiver" in caps:
                detail["receiver"] = _value(caps["receiver"][0])
            if "declared" in caps:
                detail["declared"] = "yes"
            if ref_kind == RefKind.EXCEPT:
                raises.add_clause(node, target, caps)
            raw_refs.append((ref_kind, target, name_node.start_point.row + 1, detail, node))
    functions = {at for kind, *_, at in defined if kind in FUNCTION_KINDS}
    owned: dict[int, list[str]] = {}
    for default, pair in defaults:
        owner = _default_owner(default, functions)
        if owner is not None:
            owned.setdefault(owner, []).append(pair)
    with_bases = "bases" in _captures(grammar)
    for kind, name, start, end, detail, at in defined:
        if kind == SymbolKind.CONSTANT and at in functions:
            continue  # `const f = () => ...`: a declaration the query defines as a function is that function
        if at in owned and kind in FUNCTION_KINDS:
            detail["defaults"] = ";".join(owned[at])
        if kind == SymbolKind.CLASS and with_bases:
            detail["bases"] = ",".join(bases.get((at, name), []))
        symbols.append(symbol_row(kind, name, path, start, end, language, "tree-sitter", detail))
    spans.sort()
    refs = []
    for ref_kind, target, line, detail, ref_node in raw_refs:
        made = raises.refs(target, ref_node, detail) if ref_kind == RefKind.RAISE else [(target, detail)]
        refs += [ref_row(ref_kind, t, path, line, _innermost(spans, line), language, d) for t, d in made]
    return symbols, refs, tree.root_node.has_error


def _innermost(spans: list[tuple[int, int, int, str]], line: int) -> str | None:
    best = None
    for start, _, end, name in spans:
        if start > line:
            break
        if end >= line:
            best = name  # later starts are nested deeper
    return best
