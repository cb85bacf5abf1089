"""Which Python names a corpus defines for itself, and which it only borrows.

The grounding index lists every definition; a definition whose name is fixed elsewhere must keep it,
or the renamed tree stops importing or behaving: a name imported from another library (``from json
import JSONDecodeError``, ``from setuptools import setup``), a method overriding one of a base class
defined outside the corpus (``set_cookie`` of ``http.cookiejar.CookieJar``), a method of a builtin
type the code may call on plain values (``get``, ``items``), and the module names tools look for
(``setup``, ``conftest``), and any attribute name of an imported outside module and its classes
(duck-typed protocols). Test names keep the prefix pytest collects by (``generate.fixed_prefix``).
"""

from __future__ import annotations

import ast
import builtins
import configparser
import importlib
import inspect
import re
import tomllib
from collections.abc import Iterable, Iterator
from contextlib import suppress
from functools import cache

from groundjudge.grounding.snapshot import Snapshot
from groundjudge.rename.pystrings import python_sources, top_level

TOOL_MODULES = frozenset({"setup", "conftest", "noxfile", "tasks", "manage", "wsgi", "asgi", "fabfile"})
_BUILTIN_TYPES = (dict, list, str, set, frozenset, bytes, int, float, tuple, object, BaseException)
BUILTIN_METHODS = frozenset(n for t in _BUILTIN_TYPES for n in dir(t))


def corpus_modules(paths: Iterable[str]) -> set[str]:
    """Top-level module and package names of the corpus's Python files (a package is a directory
    holding ``__init__.py``; a file elsewhere is importable by its stem from its directory)."""
    names: set[str] = set()
    for path in paths:
        parts = path[:-3].split("/")
        names.update(parts)
    return names


def borrowed_names(snapshot: Snapshot) -> dict[str, str]:
    """Python names the corpus uses but does not own -> why. Only ``.py`` files are read."""
    sources = python_sources(snapshot)
    ours = corpus_modules(sources)
    kept: dict[str, str] = {n: "a module name tools look for" for n in TOOL_MODULES}
    kept.update({n: "a method of a builtin type, callable on plain values" for n in BUILTIN_METHODS if not n.startswith("__")})
    modules: set[str] = set()
    wraps: dict[str, bool] = {}  # fixture name -> every corpus fixture of that name requests itself
    for text in sources.values():
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for name, requests_itself in _fixtures(tree):
            wraps[name] = wraps.get(name, True) and requests_itself
        imported: dict[str, str] = {}  # local name -> module it came from, for outside imports
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.split(".")[0] not in ours:
                    modules.add(node.module)
                    for alias in node.names:
                        kept[alias.name] = f"imported from {node.module}, outside the corpus"
                        imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    top = alias.name.split(".")[0]
                    if top not in ours:
                        imported[alias.asname or top] = alias.name if alias.asname else top
                        modules.add(alias.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                _overrides(node, imported, kept)
        modules.update(imported.values())
    # def httpbin(httpbin): a fixture requesting its own name receives the one of an outer scope; when
    # no corpus fixture of that name is the outer one, a plugin (pytest-httpbin) defines it
    for name, outside in wraps.items():
        if outside:
            kept[name] = "a pytest fixture wrapping the plugin's fixture of the same name, defined outside the corpus"
    # duck typing: http.cookiejar calls request.get_full_url() on requests' own MockRequest, and the
    # code reads err.doc off json's JSONDecodeError; a name an imported module's classes use is kept
    for module in sorted(modules):
        for name in _api_names(module):
            kept.setdefault(name, f"a name of {module}'s classes and functions, which may call or be called by it")
    return kept


def _fixtures(tree: ast.Module) -> Iterator[tuple[str, bool]]:
    """(name, requests its own name) of every function decorated ``@pytest.fixture`` / ``@fixture(...)``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if ast.unparse(target).split(".")[-1] == "fixture":
                    params = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                    yield node.name, any(a.arg == node.name for a in params)


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


@cache
def _api_names(module: str) -> frozenset[str]:
    """Attribute names of an importable module outside the corpus and of the classes it defines."""
    obj = _resolve(module)
    if obj is None:
        return frozenset()
    names = {n for n in dir(obj) if not n.startswith("__")}
    for value in [obj] + [getattr(obj, n, None) for n in list(names)]:
        if isinstance(value, type):
            names.update(a for a in dir(value) if not a.startswith("__"))
            # instance attributes are set from the constructor's parameters (JSONDecodeError.doc)
            with suppress(TypeError, ValueError):
                names.update(inspect.signature(value).parameters)
    return frozenset(names)


def _overrides(cls: ast.ClassDef, imported: dict[str, str], kept: dict[str, str]) -> None:
    """Methods of ``cls`` that override a method of a base class from outside the corpus. A base that
    cannot be imported here counts as having every method: keeping a name is safe, renaming it is not."""
    methods = [n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for base in cls.bases:
        dotted = ast.unparse(base)
        head = dotted.split(".")[0]
        if head in imported:
            where = imported[head] + dotted[len(head) :]
        elif hasattr(builtins, head):  # class Error(Exception), class Table(dict)
            where = dotted
        else:
            continue
        obj = _resolve(where)
        for name in methods:
            if obj is None or hasattr(obj, name):
                kept[name] = f"overrides {where}.{name}, defined outside the corpus"


def _resolve(dotted: str):
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except Exception:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return getattr(builtins, dotted, None)
