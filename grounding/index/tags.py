"""Functions, classes, methods, calls and imports of general-purpose languages (and Python's module-level
UPPER_CASE constants), from per-language tag queries.

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


def extract(path: str, language: str, text: str, grammar: str) -> tuple[list[SymbolRow], list[RefRow], bool]:
    """(symbols, refs, has_errors) for one file."""
    from tree_sitter import QueryCursor

    parser, query = tools(grammar)
    tree = parser.parse(text.encode("utf-8"))
    symbols: list[SymbolRow] = []
    spans: list[tuple[int, int, int, str]] = []  # functions and methods, for the context of each ref
    raw_refs: list[tuple[str, str, int]] = []
    seen: set[tuple] = set()
    for _, caps in QueryCursor(query).matches(tree.root_node):
        names = caps.get("name")
        if not names:
            continue
        name_node = names[0]
        for role in (
            "definition.function",
            "definition.method",
            "definition.class",
            "definition.constant",
            "reference.call",
            "reference.import",
        ):
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
            key = (kind, name, node.start_point.row)
            if key in seen:
                continue
            seen.add(key)
            start, end = node.start_point.row + 1, node.end_point.row + 1
            symbols.append(symbol_row(kind, name, path, start, end, language, "tree-sitter", detail))
            if kind in ("function", "method"):
                spans.append((start, -end, end, name))
        else:
            target = _import_target(_text(name_node)) if kind == "import" else _text(name_node)
            key = (kind, target, name_node.start_point.row)
            if key in seen:
                continue
            seen.add(key)
            raw_refs.append((kind, target, name_node.start_point.row + 1))
    spans.sort()
    refs = [ref_row(k, t, path, line, _innermost(spans, line), language) for k, t, line in raw_refs]
    return symbols, refs, tree.root_node.has_error


def _innermost(spans: list[tuple[int, int, int, str]], line: int) -> str | None:
    best = None
    for start, _, end, name in spans:
        if start > line:
            break
        if end >= line:
            best = name  # later starts are nested deeper
    return best
