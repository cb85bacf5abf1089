"""What a Python corpus calls its own beyond its definitions: the package named as the distribution,
renamed even when it is an English word, and every identifier its code spells, which ``--scrub-prose``
must leave to the name classes (a prose word renamed in code could be a borrowed name)."""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from collections.abc import Iterator
from contextlib import suppress

from groundjudge.grounding.snapshot import Snapshot
from groundjudge.rename.pystrings import python_sources, top_level


def own_packages(snapshot: Snapshot) -> frozenset[str]:
    """The corpus's top-level packages named as its distribution (``[project] name`` in
    pyproject.toml, ``name`` in setup.cfg or in setup.py's ``setup(name=...)``): the name a reader
    knows the project by, renamed even when it is an English word (``requests``)."""
    paths = [e.path for e in snapshot.files if e.kind == "text" and e.path.endswith(".py")]
    declared = {_normalised(n) for n in _project_names(snapshot)}
    return frozenset(p for p in top_level(paths)[1] if _normalised(p) in declared)


def code_words(snapshot: Snapshot) -> frozenset[str]:
    """Every identifier Python code spells (names, attributes, imports, parameters, keywords).
    ``--scrub-prose`` renames its words case-insensitively wherever they occur; in code
    that would rename what the corpus only borrows (``import urllib3`` when the docs mention urllib3),
    so a word the code spells is no prose word. The corpus's own names are renamed by their classes."""
    words: set[str] = set()
    for text in python_sources(snapshot).values():
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                words.add(node.id)
            elif isinstance(node, ast.Attribute):
                words.add(node.attr)
            elif isinstance(node, ast.alias):
                words.update(node.name.split("."))
                words.add(node.asname or "")
            elif isinstance(node, ast.ImportFrom):
                words.update((node.module or "").split("."))
            elif isinstance(node, ast.arg):
                words.add(node.arg)
            elif isinstance(node, ast.keyword):
                words.add(node.arg or "")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                words.add(node.name)
    return frozenset(w for w in words if w)


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _project_names(snapshot: Snapshot) -> Iterator[str]:
    for entry in snapshot.files:
        if entry.kind != "text" or "/" in entry.path:
            continue
        text = snapshot.read_text(entry.path)
        if entry.path == "pyproject.toml":
            with suppress(tomllib.TOMLDecodeError):
                name = tomllib.loads(text).get("project", {}).get("name")
                if isinstance(name, str):
                    yield name
        elif entry.path == "setup.cfg":
            parser = configparser.ConfigParser(interpolation=None)
            with suppress(configparser.Error):
                parser.read_string(text)
                if parser.has_option("metadata", "name"):
                    yield parser.get("metadata", "name")
        elif entry.path == "setup.py":
            with suppress(SyntaxError, ValueError):
                for node in ast.walk(ast.parse(text)):
                    if isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "setup":
                        for kw in node.keywords:
                            if kw.arg == "name" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                                yield kw.value.value
