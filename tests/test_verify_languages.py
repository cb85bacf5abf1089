"""The inherits, has-value, raises and catches checkers on the tag languages other than Python, on the small
hand-written project in tests/fixtures/langs_corpus (Java, TypeScript, JavaScript, Go, C++, C#, Kotlin, Rust): each
predicate held (SUPPORTED, evidence at the deciding line) and contradicted (UNSUPPORTED, the reason says
what the code has), as for Python."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundjudge.grounding.models import Verdict

S, U, N = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY
CORPUS = Path(__file__).parent / "fixtures" / "langs_corpus"


@pytest.fixture(scope="module")
def langs_grounder():
    from _grounding_helpers import Grounder

    return Grounder(CORPUS)


CASES = [
    # Java
    ("`Vault` extends `Store`.", S, "java/bank/Vault.java:5", "Vault inherits from Store"),
    ("`Vault` extends `VaultError`.", U, "java/bank/Vault.java:5", "inherits from Store, Auditable"),
    ("`Vault` implements `Auditable`.", S, "java/bank/Vault.java:5", "Vault inherits from Auditable"),
    ("`VaultError` is a subclass of `RuntimeException`.", S, "java/bank/VaultError.java:3", "inherits from RuntimeException"),
    ("`MAX_SLOTS` is 64.", S, "java/bank/Vault.java:6", "MAX_SLOTS is 64"),
    ("`MAX_SLOTS` is 32.", U, "java/bank/Vault.java:6", "MAX_SLOTS is 64"),
    ("`TIMEOUT_MS` is 30000.", S, "java/bank/Vault.java:7", "30_000L"),  # separators and a long suffix
    ("`WINDOW` is 600.", S, "java/bank/Vault.java:8", "10 * 60"),  # arithmetic on literals
    ("`WINDOW` is 60.", U, "java/bank/Vault.java:8", "10 * 60"),
    ("`check` throws `VaultError`.", S, "java/bank/Vault.java:23", "check raises VaultError"),
    ("`check` throws `IOException`.", U, "java/bank/Vault.java:23", "check raises VaultError"),
    ("`open` throws `IOException`.", S, "java/bank/Vault.java:12", "open raises IOException"),  # its throws clause
    ("`retry` throws `IOException`.", S, "java/bank/Vault.java:31", "retry raises IOException"),  # rethrows what it caught
    ("`open` catches `IllegalStateException`.", S, "java/bank/Vault.java:16", "open catches IllegalStateException"),
    ("`open` catches `IOException`.", U, "java/bank/Vault.java:16", "IllegalArgumentException, IllegalStateException"),
    ("`reset` sets `attempts` to 0.", S, "java/bank/Vault.java:38", "reset sets attempts to 0"),  # `;` and `//` aside
    ("`reset` sets `attempts` to 5.", U, "java/bank/Vault.java:38", "never to 5"),
    # TypeScript
    ("`Cache` extends `Backend`.", S, "ts/cache.ts:10", "Cache inherits from Backend"),
    ("`Cache` extends `CacheError`.", U, "ts/cache.ts:10", "inherits from Backend, Disposable"),
    ("`Cache` implements `Disposable`.", S, "ts/cache.ts:10", "Cache inherits from Disposable"),
    ("`MAX_ENTRIES` is 500.", S, "ts/cache.ts:3", "MAX_ENTRIES is 500"),
    ("`MAX_ENTRIES` is 100.", U, "ts/cache.ts:3", "MAX_ENTRIES is 500"),
    ("`DEFAULT_TTL` is 60000.", S, "ts/cache.ts:4", "60 * 1000"),
    ("`MODE` is 'lru'.", S, "ts/cache.ts:5", 'MODE is "lru"'),  # `as const` asserts a type, not a value
    ('`fallback` defaults to "none" in `get`.', S, "ts/cache.ts:15", "fallback of get defaults to"),
    ('`fallback` defaults to "lru" in `get`.', U, "ts/cache.ts:15", "fallback of get defaults to"),
    ("`limit` defaults to 500.", S, "ts/cache.ts:11", "defaults to MAX_ENTRIES"),  # a default naming a constant
    ("`lookup` throws `CacheError`.", S, "ts/cache.ts:28", "lookup raises CacheError"),
    ("`lookup` throws `RangeError`.", U, "ts/cache.ts:28", "lookup raises CacheError"),
    ("`get` catches `RangeError`.", S, "ts/cache.ts:19", "get catches RangeError"),  # an instanceof test in the catch
    ("`get` catches `TypeError`.", U, "ts/cache.ts:19", "get catches RangeError"),
    # JavaScript
    ("`Cart` extends `Base`.", S, "js/cart.js:8", "Cart inherits from Base"),
    ("`Cart` extends `CartError`.", U, "js/cart.js:8", "Cart inherits from Base"),
    ("`TAX_RATE` is 0.2.", S, "js/cart.js:3", "TAX_RATE is 0.2"),
    ("`TAX_RATE` is 0.25.", U, "js/cart.js:3", "TAX_RATE is 0.2"),
    ("`discount` defaults to 0.", S, "js/cart.js:9", "discount of total defaults to 0"),
    ("`discount` defaults to 1.", U, "js/cart.js:9", "discount of total defaults to 0"),
    ("`total` throws `CartError`.", S, "js/cart.js:14", "total raises CartError"),
    ("`total` catches `TypeError`.", S, "js/cart.js:13", "total catches TypeError"),
    ("`total` catches `RangeError`.", U, "js/cart.js:13", "total catches TypeError"),
    # Go: embedding is its inheritance; no exceptions
    ("`Server` embeds `Logger`.", S, "go/server.go:17", "Server inherits from Logger"),
    ("`Server` embeds `Cart`.", U, "go/server.go:17", "inherits from Logger, Client"),
    ("`DefaultPort` is 8080.", S, "go/server.go:5", "DefaultPort is 8080"),
    ("`DefaultPort` is 80.", U, "go/server.go:5", "DefaultPort is 8080"),
    ("`BufferSize` is 4096.", S, "go/server.go:6", "4 << 10"),
    ("`StateBusy` is 1.", N, "go/server.go:10", "states no value"),  # an iota constant
    # C++
    ("`Engine` inherits from `Component`.", S, "cpp/engine.cpp:12", "Engine inherits from Component"),
    ("`Engine` inherits from `EngineError`.", U, "cpp/engine.cpp:12", "Engine inherits from Component"),
    ("`QUEUE_DEPTH` is 128.", S, "cpp/engine.cpp:4", "QUEUE_DEPTH is 128"),
    ("`QUEUE_DEPTH` is 64.", U, "cpp/engine.cpp:4", "QUEUE_DEPTH is 128"),
    ("`MAX_THREADS` is 16.", S, "cpp/engine.cpp:3", "MAX_THREADS is 16"),  # a #define, its comment aside
    ("`workers` defaults to 4.", S, "cpp/engine.cpp:16", "workers of run defaults to 4"),
    ("`workers` defaults to 2.", U, "cpp/engine.cpp:16", "workers of run defaults to 4"),
    ("`run` throws `EngineError`.", S, "cpp/engine.cpp:20", "run raises EngineError"),
    ("`run` catches `out_of_range`.", S, "cpp/engine.cpp:19", "run catches out_of_range"),
    ("`run` catches `EngineError`.", U, "cpp/engine.cpp:19", "run catches out_of_range"),
    # C#
    ("`Ledger` inherits from `Journal`.", S, "cs/Ledger.cs:12", "Ledger inherits from Journal"),
    ("`Ledger` inherits from `LedgerException`.", U, "cs/Ledger.cs:12", "inherits from Journal, IDisposable"),
    ("`PageSize` is 50.", S, "cs/Ledger.cs:14", "PageSize is 50"),
    ("`PageSize` is 20.", U, "cs/Ledger.cs:14", "PageSize is 50"),
    ('`memo` defaults to "none".', S, "cs/Ledger.cs:17", "memo of Post defaults to"),
    ("`Post` throws `LedgerException`.", S, "cs/Ledger.cs:25", "Post raises LedgerException"),
    ("`Post` catches `FormatException`.", S, "cs/Ledger.cs:23", "Post catches FormatException"),
    ("`Post` catches `LedgerException`.", U, "cs/Ledger.cs:23", "Post catches FormatException"),
    # Kotlin
    ("`Basket` extends `Container`.", S, "kt/Basket.kt:16", "Basket inherits from Container"),
    ("`Basket` implements `Registry`.", U, "kt/Basket.kt:16", "inherits from Container, Priced, Tagged"),
    ("`MAX_ITEMS` is 20.", S, "kt/Basket.kt:6", "MAX_ITEMS is 20"),
    ("`MAX_ITEMS` is 25.", U, "kt/Basket.kt:6", "MAX_ITEMS is 20"),
    ("`FEE` is 10.", S, "kt/Basket.kt:18", "FEE is 2 * 5"),  # a companion object's const
    ("`quantity` defaults to 1.", S, "kt/Basket.kt:21", "quantity of add defaults to 1"),
    ("`quantity` defaults to 20.", U, "kt/Basket.kt:21", "quantity of add defaults to 1"),
    ("`add` throws `BasketException`.", S, "kt/Basket.kt:26", "add raises BasketException"),
    ("`store` throws `BasketException`.", U, "kt/Basket.kt:32", "nor what it calls"),
    ("`add` catches `IOException`.", S, "kt/Basket.kt:25", "add catches IOException"),
    ("`add` catches `BasketException`.", U, "kt/Basket.kt:25", "IOException, IllegalStateException"),
    # Rust: constants; no inheritance the index can see (trait impls live anywhere, derives too)
    ("`MAX_ROWS` is 1000.", S, "rs/table.rs:3", "MAX_ROWS is 1_000"),
    ("`MAX_ROWS` is 100.", U, "rs/table.rs:3", "MAX_ROWS is 1_000"),
    ("`Table` implements `Render`.", N, "rs/table.rs:6", "records no base classes for Table"),
    ("`Table` has a method `render`.", U, "rs/table.rs:6", "has no method render"),  # Render's, not Table's
]


@pytest.mark.parametrize(("md", "verdict", "where", "reason"), CASES, ids=[c[0] for c in CASES])
def test_checkers_on_other_languages(langs_grounder, md, verdict, where, reason):
    c = langs_grounder.one(md)
    assert c.verdict == verdict, c.reason
    assert reason in c.reason.split(";")[0]
    assert f"{c.evidence[0].path}:{c.evidence[0].start_line}" == where


def test_a_computed_constant_is_left_open(tmp_path):
    """`Duration.ofSeconds(30)` states no literal: "is 30" can be neither held nor contradicted."""
    from _grounding_helpers import Grounder

    (tmp_path / "Clock.java").write_text(
        "class Clock {\n    static final java.time.Duration TICK = java.time.Duration.ofSeconds(30);\n}\n"
    )
    c = Grounder(tmp_path).one("`TICK` is 30.")
    assert c.verdict == N, c.reason
    assert "computed" in c.reason


def test_a_rethrown_variable_contradicts_nothing(tmp_path):
    """`throw err` may throw anything: a claim of another exception is left to the other checks."""
    from _grounding_helpers import Grounder

    (tmp_path / "run.ts").write_text(
        "export class JobError extends Error {}\n"
        "export function run(job: () => void): void {\n"
        "  try {\n"
        "    job();\n"
        "  } catch (err) {\n"
        "    throw err;\n"
        "  }\n"
        "}\n"
    )
    c = Grounder(tmp_path).one("`run` throws `JobError`.")
    assert c.verdict != U, c.reason


def test_implements_states_a_base_only_right_before_its_name():
    from groundjudge.grounding.claims import MarkdownClaimExtractor
    from groundjudge.grounding.facts import Predicate

    def inherits(md: str) -> list[tuple[str | None, str | None]]:
        facts = MarkdownClaimExtractor().extract(md)[-1].facts
        return [(f.subject and f.subject.value, f.object and f.object.value) for f in facts if f.predicate is Predicate.INHERITS]

    assert inherits("`Vault` implements the `Auditable` interface.") == [("Vault", "Auditable")]
    assert inherits("`Server` embeds `Logger`.") == [("Server", "Logger")]
    assert inherits("`Vault` implements the retry rule in `check`.") == []


def test_a_function_after_extends_is_no_base(langs_grounder):
    """`check` is a method: "extends `check`" speaks of adding to it, not of a base class."""
    c = langs_grounder.one("`Vault` extends `check` with an audit step.")
    assert "inherits from" not in c.reason, c.reason
