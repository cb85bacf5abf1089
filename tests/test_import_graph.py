"""The stage packages import each other one way only, read from the source with ``ast`` (every import
statement, those inside functions included: a lazy import is still a dependency)."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("grounding", "judging", "rename", "validation", "rubrics", "questions")
BASE = "groundjudge-base"
# The command line and the demo sit on top of every stage: they may import anything, nothing imports them.
ENTRY_MODULES = frozenset({"cli", "demo", "__main__"})
ENTRY = "groundjudge-entry"


def _node_of_file(path: Path) -> str:
    top = path.relative_to(ROOT).parts[0]
    if top != "groundjudge":
        return top
    return ENTRY if path.stem in ENTRY_MODULES else BASE


def _node_of_module(dotted: str) -> str | None:
    """The graph node of an absolute module name, or None outside groundjudge."""
    parts = dotted.split(".")
    if parts[0] != "groundjudge":
        return None
    if len(parts) == 1:
        return BASE  # `from groundjudge import __version__`
    if parts[1] in STAGES:
        return parts[1]
    return ENTRY if parts[1] in ENTRY_MODULES else BASE


def _package_of(path: Path) -> list[str]:
    """The absolute package of a source file, as installed (``grounding/index/x.py`` -> groundjudge.grounding.index)."""
    parts = list(path.relative_to(ROOT).parent.parts)
    return parts if parts[0] == "groundjudge" else ["groundjudge", *parts]


def imported_modules(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = _package_of(path)
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from groundjudge import judging` names a package, not an attribute of the base.
            out.update(f"{module}.{alias.name}" if module == "groundjudge" else module for alias in node.names)
    return out


def source_files() -> list[Path]:
    return [p for top in ("groundjudge", *STAGES) for p in sorted((ROOT / top).rglob("*.py"))]


def import_graph() -> dict[str, dict[str, set[str]]]:
    """node -> imported node -> the files that make the edge (edges inside one node left out)."""
    graph: dict[str, dict[str, set[str]]] = {n: {} for n in (*STAGES, BASE, ENTRY)}
    for path in source_files():
        src = _node_of_file(path)
        for module in imported_modules(path):
            dst = _node_of_module(module)
            if dst is not None and dst != src:
                graph[src].setdefault(dst, set()).add(path.relative_to(ROOT).as_posix())
    return graph


def find_cycle(graph: dict[str, dict[str, set[str]]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_graph_is_read_from_every_package():
    graph = import_graph()
    assert "rubrics" in graph["judging"]  # the runner loads rubrics: a known edge, so the reader works
    assert all(p.is_dir() for p in (ROOT / s for s in STAGES))


def test_stage_packages_import_each_other_without_a_cycle():
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, (
        " -> ".join(f"{a} ({', '.join(sorted(graph[a][b]))})" for a, b in itertools.pairwise(cycle)) + f" -> {cycle[-1]}"
    )


def test_the_shared_base_imports_no_stage_and_nothing_imports_the_entry_points():
    graph = import_graph()
    assert graph[BASE] == {}
    assert {node: edges[ENTRY] for node, edges in graph.items() if ENTRY in edges} == {}


def test_find_cycle_names_the_loop():
    assert find_cycle({"a": {"b": set()}, "b": {"c": set()}, "c": {"a": set()}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": set()}, "b": {}}) is None
