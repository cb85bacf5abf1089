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
import importlib
import inspect
from collections.abc import Iterable, Iterator
from contextlib import suppress
from functools import cache

from groundjudge.grounding.snapshot import Snapshot
from groundjudge.rename.pystrings import python_sources

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
