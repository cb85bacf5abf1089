"""Which string literals of a Python file name code, and which hold data.

A renamed name must be renamed wherever Python resolves it by name, strings included: ``getattr(obj,
"name")``, ``__all__``, ``mock.patch("pkg.mod.func")``, a forward-reference annotation ``"Session"``,
pytest's ``parametrize("arg")``, the keys of ``**{"arg": v}``. Anywhere else a string is data that
meets the world outside the corpus (an environment variable ``"no_proxy"``, an HTTP header, a JSON key,
a file path): renaming it there changes what the program reads or sends, so it is kept. Docstrings and
other bare string statements are prose (and may be doctests, which run code), so they are renamed like
comments. A file that does not parse has no data spans: every string in it is renamed, as code.
"""

from __future__ import annotations

import ast
import re
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from io import StringIO

from groundjudge.grounding.snapshot import Snapshot

Span = tuple[int, int]

# call name -> which positional arguments are names (None: every one). setattr/delattr's first
# argument is a string only in monkeypatch's dotted form ("pkg.mod.attr"), never for the builtins.
NAME_ARGUMENTS: dict[str, tuple[int, ...] | None] = {
    "getattr": (1,),
    "hasattr": (1,),
    "setattr": (0, 1),
    "delattr": (0, 1),
    "import_module": (0,),
    "__import__": (0,),
    "patch": (0,),
    "attrgetter": None,
    "methodcaller": (0,),
    "getfixturevalue": (0,),
    "usefixtures": None,
    "parametrize": (0,),
    "cast": (0,),
    "ForwardRef": (0,),
    # object.__setattr__(self, "name", v) in frozen dataclasses, super().__getattribute__("name")
    "__getattribute__": (0, 1),
    "__getattr__": (0, 1),
    "__setattr__": (0, 1),
    "__delattr__": (0, 1),
    "getattr_static": (1,),
    # the field names become attributes (Pair("a", "b").first)
    "namedtuple": (0, 1),
    "NamedTuple": (0, 1),
    "make_dataclass": (0, 1),
}
# patch.object(target, "attr")
PATCH_MEMBER_ARGUMENTS = {"object": (1,)}
NAME_COLLECTIONS = frozenset({"__all__", "__slots__"})
COLLECTION_ADDERS = frozenset({"append", "extend", "insert", "add", "update"})
# the keys read from a mapping of names (**kwargs, obj.__dict__, vars(obj)) are names
NAME_MAPPING_READERS = frozenset({"get", "pop", "setdefault"})
# Python 3.12+ tokenises an f-string's literal stretches on their own; 3.11 gives the f-string whole
FSTRING_MIDDLE = getattr(tokenize, "FSTRING_MIDDLE", -1)
# a module path (pkg.mod, "pkg.sub." to build on), an object reference (pkg.mod:func) and an entry
# point (cmd = pkg.mod:func), the forms importlib, mock and packaging tools resolve
_DOTTED = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
MODULE_PATH_RE = re.compile(rf"(?:[\w.-]+\s*=\s*)?(?P<path>{_DOTTED}(?::{_DOTTED})?\.?)")
# a relative path to a Python file: its directories and stem are renamed with the file
PY_FILE_RE = re.compile(r"(?:[\w.-]+/)*[A-Za-z_]\w*\.py")


@dataclass(frozen=True)
class PyCorpus:
    """Facts about the whole corpus that decide a string in one file."""

    tops: frozenset[str]  # top-level module and package names ("pkg.mod" strings start with one)
    packages: frozenset[str]  # top-level package names (a string that is exactly one names the package)
    holders: frozenset[str]  # names whose literal collections some loop feeds to getattr/setattr


def corpus_facts(sources: dict[str, str]) -> PyCorpus:
    """``sources``: path -> text of every ``.py`` file of the corpus."""
    tops, packages = top_level(sources)
    holders: set[str] = set()
    for text in sources.values():
        tree = _parse(text)
        if tree is not None:
            holders.update(_holders(tree))
    return PyCorpus(tops, packages, frozenset(holders))


def python_sources(snapshot: Snapshot) -> dict[str, str]:
    return {e.path: snapshot.read_text(e.path) for e in snapshot.files if e.kind == "text" and e.path.endswith(".py")}


class StringData:
    """``spans(path, text)``: the data spans of a corpus file (none outside Python files)."""

    def __init__(self, snapshot: Snapshot):
        self.facts = corpus_facts(python_sources(snapshot))

    def spans(self, path: str, text: str) -> list[Span]:
        return data_spans(text, self.facts) if path.endswith(".py") else []


def top_level(paths: Iterable[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Top-level module and package names of these ``.py`` paths, and the package names among them:
    the outermost directory of a chain of directories holding ``__init__.py``, which imports spell."""
    paths = list(paths)
    inits = {p.rsplit("/", 1)[0] for p in paths if p.endswith("/__init__.py")}
    tops: set[str] = set()
    packages: set[str] = set()
    for path in paths:
        parts = path[:-3].split("/")
        i = len(parts) - 1
        while i > 0 and "/".join(parts[:i]) in inits:
            i -= 1
        tops.add(parts[i])
        if i < len(parts) - 1:
            packages.add(parts[i])
    return frozenset(tops), frozenset(packages)


def data_spans(text: str, facts: PyCorpus) -> list[Span]:
    """Sorted character spans of ``text`` whose tokens are data and must not be renamed."""
    tree = _parse(text)
    if tree is None:
        return []
    names = _NameStrings(facts)
    names.visit(tree)
    offsets = _LineOffsets(text)
    pieces = _string_pieces(text)
    spans: list[Span] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant | ast.JoinedStr) or id(node) in names.found:
            continue
        if isinstance(node, ast.Constant) and not isinstance(node.value, str | bytes):
            continue  # a bytes literal is always data: no name lookup takes bytes
        if names.inside_fstring(node):
            continue  # the f-string's own span decides
        start, end = offsets.span(node)
        spans += [(a, b) for a, b in pieces if start <= a and b <= end]
    return sorted(set(spans))


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def _holders(tree: ast.AST) -> Iterator[str]:
    """Names a loop reads attribute names from: ``for a in self.__attrs__: getattr(self, a)`` and
    ``{a: getattr(self, a) for a in FIELDS}`` make ``__attrs__`` and ``FIELDS`` holders."""
    for node in ast.walk(tree):
        loops: list[tuple[ast.expr, ast.expr, list[ast.AST]]]
        if isinstance(node, ast.For):
            loops = [(node.target, node.iter, list(node.body))]
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            body: list[ast.AST] = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            loops = [(g.target, g.iter, body) for g in node.generators]
        else:
            continue
        for target, source, body_nodes in loops:
            var = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
            if not isinstance(var, ast.Name):
                continue
            if any(_feeds_attribute_call(n, var.id) for b in body_nodes for n in ast.walk(b)):
                if (
                    isinstance(source, ast.Call)
                    and isinstance(source.func, ast.Attribute)
                    and source.func.attr in ("items", "keys")
                ):
                    source = source.func.value
                if name := _last_name(source):
                    yield name


def _feeds_attribute_call(node: ast.AST, var: str) -> bool:
    if not (isinstance(node, ast.Call) and _call_name(node) in ("getattr", "setattr", "hasattr", "delattr")):
        return False
    return len(node.args) > 1 and isinstance(node.args[1], ast.Name) and node.args[1].id == var


def _is_option(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("-")


def _last_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _call_name(call: ast.Call) -> str | None:
    return _last_name(call.func)


class _NameStrings(ast.NodeVisitor):
    """Collects the string nodes Python resolves as names (and docstrings, which are prose)."""

    def __init__(self, facts: PyCorpus):
        self.facts = facts
        self.found: set[int] = set()
        self.fstring_parts: set[int] = set()
        self.kwargs: list[str] = []  # names of the **kwargs parameters of the enclosing functions

    def inside_fstring(self, node: ast.AST) -> bool:
        return id(node) in self.fstring_parts

    def mark(self, node: ast.AST | None) -> None:
        """Every string in ``node``'s subtree names code."""
        if node is None:
            return
        for n in ast.walk(node):
            if isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str)):
                self.found.add(id(n))

    def mark_elements(self, node: ast.AST | None) -> None:
        """The strings a literal collection holds (a dict: its keys)."""
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            for e in node.elts:
                self.mark(e) if isinstance(e, ast.Constant | ast.JoinedStr) else self.mark_elements(e)
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                self.mark(k)
        elif isinstance(node, ast.BinOp):  # __all__ = [...] + [...]
            self.mark_elements(node.left)
            self.mark_elements(node.right)

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant | ast.JoinedStr):
            self.mark(node.value)  # docstrings and bare string statements: prose, maybe doctests
        self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        for part in node.values:
            if isinstance(part, ast.Constant):
                self.fstring_parts.add(id(part))
        head = node.values[0] if node.values else None
        if isinstance(head, ast.Constant) and isinstance(head.value, str) and self._module_path(head.value):
            self.mark(node)  # f"pkg.sub.{name}": a module path built at run time
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and self._module_path(node.value):
            self.found.add(id(node))

    def _module_path(self, value: str) -> bool:
        if PY_FILE_RE.fullmatch(value):
            return True
        if not (m := MODULE_PATH_RE.fullmatch(value.strip())):
            return False
        path = m.group("path")
        head = re.split("[.:]", path)[0]
        return (head in self.facts.tops and path != head) or path in self.facts.packages

    def visit_Call(self, node: ast.Call) -> None:
        name = _call_name(node)
        positions: Iterable[int] | None = ()
        if name in NAME_ARGUMENTS:
            positions = NAME_ARGUMENTS[name]
        elif name in PATCH_MEMBER_ARGUMENTS and isinstance(node.func, ast.Attribute) and _last_name(node.func.value) == "patch":
            positions = PATCH_MEMBER_ARGUMENTS[name]
        for i, arg in enumerate(node.args):
            if positions is None or i in positions:
                self.mark(arg)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in COLLECTION_ADDERS and self._names_collection(func.value):
            for arg in node.args:  # __all__.append("name"), __all__.extend([...])
                self.mark(arg) if isinstance(arg, ast.Constant | ast.JoinedStr) else self.mark_elements(arg)
        for kw in node.keywords:
            if kw.arg is None:
                self.mark_elements(kw.value)  # f(**{"name": value})
            elif name == "fixture" and kw.arg == "name":
                self.mark(kw.value)
        if name == "add_argument":
            # argparse: a positional argument's name, and dest=, are attributes of the parsed namespace
            self.mark(next((a for a in node.args if not _is_option(a)), None))
            self.mark(next((kw.value for kw in node.keywords if kw.arg == "dest"), None))
        if isinstance(func, ast.Attribute) and func.attr in NAME_MAPPING_READERS and node.args and self._of_names(func.value):
            self.mark(node.args[0])  # kwargs.get("name"), self.__dict__.pop("name", None)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if self._of_names(node.value):
            self.mark(node.slice)  # kwargs["name"], vars(obj)["name"]
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, ast.In | ast.NotIn) and self._of_names(right):
                self.mark(node.left)  # "name" in kwargs, "name" in obj.__dict__
        self.generic_visit(node)

    def _of_names(self, node: ast.AST) -> bool:
        """A mapping keyed by names: the **kwargs of the enclosing function, ``obj.__dict__``, ``vars(obj)``."""
        if isinstance(node, ast.Name):
            return node.id in self.kwargs
        if isinstance(node, ast.Attribute):
            return node.attr == "__dict__"
        return isinstance(node, ast.Call) and _call_name(node) == "vars" and len(node.args) == 1

    def _names_collection(self, node: ast.AST) -> bool:
        name = _last_name(node)
        return name in NAME_COLLECTIONS or name in self.facts.holders

    def _assigned(self, targets: list[ast.expr], value: ast.AST | None) -> None:
        for t in targets:
            if self._names_collection(t):
                self.mark_elements(value)

    def visit_Assign(self, node: ast.Assign) -> None:
        self._assigned(node.targets, node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._assigned([node.target], node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.mark(node.annotation)  # "Session" as a forward reference
        self._assigned([node.target], node.value)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self.mark(node.annotation)
        self.generic_visit(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.mark(node.returns)
        self.kwargs.append(node.args.kwarg.arg if node.args.kwarg else "")
        self.generic_visit(node)
        self.kwargs.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function


class _LineOffsets:
    """ast positions (line, UTF-8 byte column) as character offsets into the text."""

    def __init__(self, text: str):
        # lines end at \n only, as the tokenizer's readline splits them: str.splitlines would also
        # split at a form feed or \x1c, which Python source may hold and the parser does not count
        self.lines = [line + "\n" for line in text.split("\n")]
        self.lines[-1] = self.lines[-1][:-1]
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + len(self.lines[line - 1].encode("utf-8")[:col].decode("utf-8", "ignore"))

    def span(self, node: ast.AST) -> Span:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno or node.lineno, node.end_col_offset or 0)  # type: ignore[attr-defined]


def _string_pieces(text: str) -> list[Span]:
    """Character spans of the literal text of every string token: a whole plain string (prefix and
    quotes included), and an f-string without its ``{...}`` expressions, which are code."""
    offsets = _LineOffsets(text)
    pieces: list[Span] = []
    try:
        for tok in tokenize.generate_tokens(StringIO(text).readline):
            start = offsets.starts[tok.start[0] - 1] + tok.start[1]
            end = offsets.starts[tok.end[0] - 1] + tok.end[1]
            if tok.type == tokenize.STRING:
                pieces += _fstring_literals(tok.string, start) if _is_fstring(tok.string) else [(start, end)]
            elif tok.type == FSTRING_MIDDLE:
                pieces.append((start, end))
    except (tokenize.TokenError, SyntaxError):
        return []
    return pieces


def _is_fstring(token: str) -> bool:
    prefix = token[: len(token) - len(token.lstrip("rRbBuUfF"))]
    return "f" in prefix.lower()


def _fstring_literals(token: str, base: int) -> list[Span]:
    """The literal stretches of one f-string token (Python 3.11 tokenises it whole)."""
    pieces: list[Span] = []
    i, n, last = 0, len(token), 0
    while i < n:
        c = token[i]
        if c in "{}" and token[i : i + 2] in ("{{", "}}"):
            i += 2
            continue
        if c == "{":
            pieces.append((base + last, base + i))
            i = _expression_end(token, i + 1)
            last = i
            continue
        i += 1
    pieces.append((base + last, base + n))
    return [(a, b) for a, b in pieces if a < b]


def _expression_end(token: str, i: int) -> int:
    """Index just past the ``}`` closing the replacement field that starts before ``i``."""
    depth, quote = 0, ""
    while i < len(token):
        c = token[i]
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "}":
            if depth == 0:
                return i + 1
            depth -= 1
        i += 1
    return i
