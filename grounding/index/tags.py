"""Functions, classes, methods, calls and imports of general-purpose languages (and Python's module-level
UPPER_CASE constants), from per-language tag queries.

Optional captures add what the grounding checks need: `@bases` on a class (its base classes, detail
"bases"), `@value` on a constant (detail "value") and on a parameter's default (detail "defaults" of the function,
`name=value` pairs joined by ";"), `@receiver` on a call (`self.post()`, `ledger.post()`: detail "receiver"),
and raise / except references (a raise inside an except block records what that block catches, detail
"caught", so "maps KeyError to BadData" can be checked).

One query file per language under queries/ (`<grammar>-tags.scm`; the tsx grammar shares TypeScript's, whose
node types it extends), in the manner of aider's repomap, but keeping each definition's full line range so
range questions can be answered.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import cast

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
    }
)
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]*$")
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
_FUNCTION_NODES = frozenset({"function_definition", "method_declaration", "function_declaration", "method_definition"})
_NAME_NODES = frozenset({"identifier", "attribute", "type_identifier", "scoped_identifier", "member_expression"})
_MAX_VALUE = 200
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
            name = n.child_by_field_name("name")
            return _text(name) if name is not None else None
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
    """Source text of a value, white space squashed and capped (a long literal table is not a checkable value)."""
    return " ".join(_text(node).split())[:_MAX_VALUE]


def _names_in(node) -> list[str]:
    """The class names a bases list or an except clause spells (keyword arguments and `as` targets aside)."""
    if node.type in _NAME_NODES:
        return [_text(node).rsplit(".", 1)[-1]]
    if node.type in ("keyword_argument", "as_pattern_target"):
        return []
    return [n for child in node.named_children for n in _names_in(child)]


def _enclosing(node, types: frozenset[str] | set[str]):
    n = node.parent
    while n is not None and n.type not in types:
        n = n.parent
    return n


def _caught(node) -> str | None:
    """What the except block around a raise catches, if the raise is inside one."""
    clause = _enclosing(node, {"except_clause", "catch_clause"})
    if clause is None:
        return None
    types = [c for c in clause.named_children if c.type != "block"]
    names = [n for c in types[:1] for n in _names_in(c)]
    return ",".join(names) if names else "*"


def extract(path: str, language: str, text: str, grammar: str) -> tuple[list[SymbolRow], list[RefRow], bool]:
    """(symbols, refs, has_errors) for one file."""
    from tree_sitter import QueryCursor

    parser, query = tools(grammar)
    tree = parser.parse(text.encode("utf-8"))
    symbols: list[SymbolRow] = []
    spans: list[tuple[int, int, int, str]] = []  # functions and methods, for the context of each ref
    raw_refs: list[tuple[str, str, int, dict[str, str]]] = []
    # Symbols are made into rows only at the end: a function's defaults arrive in later matches.
    defined: list[tuple[str, str, int, int, dict[str, str]]] = []
    defaults: dict[int, list[str]] = {}  # function node start byte -> "name=value"
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
        kind = role.split(".")[1]
        if role.startswith("definition"):
            name = _text(name_node)
            if kind == "constant" and not _CONSTANT.match(name):
                continue  # module-level assignments count as constants only when named like one
            detail: dict[str, str] = {}
            parent = _go_receiver(node) if node.type == "method_declaration" and grammar == "go" else _enclosing_class(node)
            if "::" in name:
                parent, name = name.rsplit("::", 1)
            if parent and kind in ("function", "method"):
                kind, detail = "method", {"parent": parent}
            elif parent and kind == "class":
                detail = {"parent": parent}
            if kind == "class" and "bases" in caps:
                detail["bases"] = ",".join(_names_in(caps["bases"][0]))
            if kind == "constant" and "value" in caps:
                detail["value"] = _value(caps["value"][0])
            if kind == "default":
                function = _enclosing(node, _FUNCTION_NODES)
                if function is not None and "value" in caps:
                    defaults.setdefault(function.start_byte, []).append(f"{name}={_value(caps['value'][0])}")
                continue
            if kind in ("function", "method"):
                detail["_node"] = str(node.start_byte)
            key = (kind, name, node.start_point.row)
            if key in seen:
                continue
            seen.add(key)
            start, end = node.start_point.row + 1, node.end_point.row + 1
            defined.append((kind, name, start, end, detail))
            if kind in ("function", "method"):
                spans.append((start, -end, end, name))
        else:
            target = _import_target(_text(name_node)) if kind == "import" else _text(name_node)
            key = (kind, target, name_node.start_point.row)
            if key in seen:
                continue
            seen.add(key)
            detail = {}
            if "receiver" in caps:
                detail["receiver"] = _value(caps["receiver"][0])
            if kind == "raise" and (caught := _caught(node)) is not None:
                detail["caught"] = caught
            raw_refs.append((kind, target, name_node.start_point.row + 1, detail))
    for kind, name, start, end, detail in defined:
        node_at = detail.pop("_node", None)
        if node_at is not None and int(node_at) in defaults:
            detail["defaults"] = ";".join(defaults[int(node_at)])
        symbols.append(symbol_row(kind, name, path, start, end, language, "tree-sitter", detail))
    spans.sort()
    refs = [ref_row(k, t, path, line, _innermost(spans, line), language, d) for k, t, line, d in raw_refs]
    return symbols, refs, tree.root_node.has_error


def _innermost(spans: list[tuple[int, int, int, str]], line: int) -> str | None:
    best = None
    for start, _, end, name in spans:
        if start > line:
            break
        if end >= line:
            best = name  # later starts are nested deeper
    return best
