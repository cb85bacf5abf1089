"""What the tag queries capture for the grounding checks, per language, on tests/fixtures/langs_corpus:
class bases, constants and their values, parameter defaults, raise / except references (with what an
enclosing catch clause catches) and call receivers. Expectations read off the fixture files."""

from __future__ import annotations

from pathlib import Path

import pytest
from _index_helpers import as_models

from groundjudge.grounding.index.extract import extract_file
from groundjudge.grounding.index.registry import kind_of

CORPUS = Path(__file__).parent / "fixtures" / "langs_corpus"


def rows(rel: str):
    text = (CORPUS / rel).read_text()
    result = extract_file(rel, kind_of(rel, text), text)
    assert result.status == "ok"
    return as_models(result)


def details(rel: str, kind: str, key: str) -> dict[str, str]:
    return {s.name: s.detail[key] for s in rows(rel).symbols if s.kind == kind and key in s.detail}


def refs(rel: str, kind: str) -> list[tuple[str, int, str | None]]:
    return [(r.target, r.line, r.detail.get("caught")) for r in rows(rel).refs if r.kind == kind]


@pytest.mark.parametrize(
    ("rel", "bases"),
    [
        ("java/bank/Vault.java", {"Vault": "Store,Auditable"}),  # extends, then implements
        ("java/bank/Store.java", {"Store": ""}),  # none: a claimed base can be contradicted
        ("ts/cache.ts", {"CacheError": "Error", "Cache": "Backend,Disposable"}),
        ("js/cart.js", {"CartError": "Error", "Cart": "Base"}),
        ("go/server.go", {"Logger": "", "Server": "Logger,Client"}),  # embedded fields, *http.Client unqualified
        ("cpp/engine.cpp", {"Component": "", "Engine": "Component", "EngineError": "runtime_error"}),
        ("cs/Ledger.cs", {"LedgerException": "Exception", "Journal": "", "Ledger": "Journal,IDisposable"}),
        (
            "kt/Basket.kt",  # delegation specifiers; an object declaration is a class too
            {
                "Container": "",
                "Priced": "",
                "Registry": "Priced",
                "Basket": "Container,Priced,Tagged",
                "BasketException": "Exception",
            },
        ),
    ],
)
def test_class_bases(rel, bases):
    assert details(rel, "class", "bases") == bases


@pytest.mark.parametrize(
    ("rel", "values"),
    [
        # static final fields (not the instance's `private final`) and an interface's implicit constants
        ("java/bank/Vault.java", {"MAX_SLOTS": "64", "TIMEOUT_MS": "30_000L", "WINDOW": "10 * 60", "LABEL": '"vault"'}),
        ("java/bank/Auditable.java", {"LEVEL": "3"}),
        # top-level const (exported or not); `as const` dropped; an arrow function is no constant
        ("ts/cache.ts", {"MAX_ENTRIES": "500", "DEFAULT_TTL": "60 * 1000", "MODE": '"lru"'}),
        ("js/cart.js", {"TAX_RATE": "0.2", "CURRENCY": '"EUR"'}),  # a require() binding is an import
        ("go/server.go", {"DefaultPort": "8080", "BufferSize": "4 << 10"}),
        ("cpp/engine.cpp", {"MAX_THREADS": "16", "QUEUE_DEPTH": "128", "RATIO": "0.75", "PRIORITY": "5"}),
        ("cs/Ledger.cs", {"PageSize": "50", "Owner": '"books"'}),
        # const val anywhere; a top-level val only when named like a constant (Kotlin's style guide)
        ("kt/Basket.kt", {"MAX_ITEMS": "20", "DEFAULT_LABEL": '"basket"', "FEE": "2 * 5"}),
        ("rs/table.rs", {"MAX_ROWS": "1_000", "GREETING": '"hello"'}),  # const and static
    ],
)
def test_constant_values(rel, values):
    assert details(rel, "constant", "value") == values


def test_go_iota_constants_are_defined_without_a_value():
    constants = {s.name: s.detail for s in rows("go/server.go").symbols if s.kind == "constant"}
    assert constants["StateIdle"] == {} and constants["StateBusy"] == {}


def test_class_constants_name_their_class():
    assert details("java/bank/Vault.java", "constant", "parent")["MAX_SLOTS"] == "Vault"
    assert details("cpp/engine.cpp", "constant", "parent") == {"PRIORITY": "Engine"}
    assert details("kt/Basket.kt", "constant", "parent") == {"FEE": "Basket"}  # in its companion object


@pytest.mark.parametrize(
    ("rel", "defaults"),
    [
        ("ts/cache.ts", {"makeKey": 'sep=":"', "constructor": "limit=MAX_ENTRIES", "get": 'fallback="none"'}),
        ("js/cart.js", {"total": "discount=0"}),
        ("cpp/engine.cpp", {"run": "workers=4"}),
        ("cs/Ledger.cs", {"Post": 'memo="none"'}),
        ("kt/Basket.kt", {"add": "quantity=1"}),  # the parameter after it is no default
    ],
)
def test_parameter_defaults(rel, defaults):
    assert {**details(rel, "function", "defaults"), **details(rel, "method", "defaults")} == defaults


@pytest.mark.parametrize(
    ("rel", "raises", "excepts"),
    [
        (
            "java/bank/Vault.java",
            # the throws clause; a throw inside a catch records what it catches; `throw e` rethrows the caught type
            [
                ("IOException", 12, None),
                ("VaultError", 17, "IllegalArgumentException,IllegalStateException"),
                ("VaultError", 23, None),
                ("IOException", 31, "IOException"),
            ],
            [("IllegalArgumentException", 16, None), ("IllegalStateException", 16, None), ("IOException", 30, None)],
        ),
        (
            "ts/cache.ts",
            # JS/TS catch is untyped: the instanceof test is what it catches; `throw err` is no known type
            [("CacheError", 20, "RangeError"), ("err", 22, "RangeError"), ("CacheError", 28, None)],
            [("RangeError", 19, None)],
        ),
        ("js/cart.js", [("CartError", 14, "TypeError"), ("e", 16, "TypeError")], [("TypeError", 13, None)]),
        ("cpp/engine.cpp", [("EngineError", 20, "out_of_range"), ("logic_error", 22, None)], [("out_of_range", 19, None)]),
        (
            "cs/Ledger.cs",
            [("LedgerException", 25, "FormatException"), ("InvalidOperationException", 27, None)],
            [("FormatException", 23, None)],
        ),
        (
            "kt/Basket.kt",
            [("BasketException", 26, "IOException"), ("IllegalStateException", 28, "IllegalStateException")],
            [("IOException", 25, None), ("IllegalStateException", 27, None)],
        ),
    ],
)
def test_raise_and_except(rel, raises, excepts):
    assert sorted(refs(rel, "raise"), key=lambda r: r[1]) == raises
    assert sorted(refs(rel, "except"), key=lambda r: r[1]) == excepts


def test_the_throws_clause_is_marked_declared():
    declared = [(r.target, r.line) for r in rows("java/bank/Vault.java").refs if r.detail.get("declared")]
    assert declared == [("IOException", 12)]


@pytest.mark.parametrize(
    ("rel", "calls"),
    [
        ("java/bank/Vault.java", {("check", "this"), ("load", "Loader"), ("isEmpty", "key")}),
        ("ts/cache.ts", {("lookup", "this")}),
        ("js/cart.js", {("sum", "this")}),
        ("go/server.go", {("listen", "s")}),
        ("cpp/engine.cpp", {("spin", "this")}),
        ("cs/Ledger.cs", {("Append", "this")}),
        ("kt/Basket.kt", {("store", "this"), ("check", "helper")}),
        ("rs/table.rs", {("push", "self.rows")}),
    ],
)
def test_call_receivers(rel, calls):
    assert {(r.target, r.detail["receiver"]) for r in rows(rel).refs if "receiver" in r.detail} == calls


def test_rust_methods_belong_to_the_type_of_their_impl_block():
    methods = {(s.name, s.detail["parent"]) for s in rows("rs/table.rs").symbols if s.kind == "method"}
    # `impl<T> Table<T>`, `impl fmt::Display for Table<u8>`, a trait's default method
    assert methods == {("new", "Table"), ("push", "Table"), ("fmt", "Table"), ("render", "Render")}
    assert all("bases" not in s.detail for s in rows("rs/table.rs").symbols)


def test_python_rethrow_of_the_bound_name_raises_the_caught_types():
    text = "def f():\n    try:\n        g()\n    except (KeyError, ValueError) as e:\n        raise e\n"
    found = as_models(extract_file("m.py", "python", text))
    assert [(r.target, r.detail) for r in found.refs if r.kind == "raise"] == [
        ("KeyError", {"caught": "KeyError,ValueError"}),
        ("ValueError", {"caught": "KeyError,ValueError"}),
    ]


def test_python_constants_still_need_a_constant_name():
    found = as_models(extract_file("m.py", "python", "LIMIT = 5\nlimit = 6\nHANDLER = lambda x: x\n"))
    assert {s.name: s.detail.get("value") for s in found.symbols if s.kind == "constant"} == {
        "LIMIT": "5",
        "HANDLER": "lambda x: x",
    }
