"""Issue E round 10: a cite that ends a sentence must reach the code of the paragraph, function, method, class or
constant the sentence opens with; a call of the subject at the cited lines does not (only a subject its callers
run, "`X` is called when ...", "`X` runs after `Y`", may be shown where it is used), and another class's method
of the same name is not `Owner.method`. A relative clause right after a name states its value ("`X`, which is
80"), even inside a condition; a value given in a unit of time holds when the code has the same span in another
unit; a literal under a table's value or default column is the row name's value. A size written as an adjective
("a 79-byte `WS-TEXT`", "`MSG` is a 60-byte field") is the name's length; the item and the value checked are
those of the claim's own program, or of the paragraph's it opens with. A program sharing its file with others
calls only what its own lines call; "hands X to `P`" calls P. A quoted value of the claim's program that no line
of the snapshot holds is a wrong value (contradicted), not a misplaced one; a passive whose subject is a noun of
the prose ("after the card is read") reads none of the names before it. Purpose, choice, reliability and cost
are judgements ("exists mainly so that", "was chosen", "a tidy" or "questionable" choice, "nearly free",
"constant-time"), though not "choice" alone. Each on a small fixture."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

CACHE_PY = """\
class LruCache:
    def popitem(self):
        if not self.order:
            raise KeyError("LruCache is empty")
        return self.order.pop()


class LfuCache:
    def popitem(self):
        if not self.counts:
            raise KeyError("LfuCache is empty")
        return self.counts.pop()


def _fail(hook):
    raise RuntimeError(f"wrap_controller at {hook!r} did not yield")


def run_wrapper(hook, gen):
    try:
        next(gen)
    except StopIteration:
        _fail(hook)
    return gen


RETRY_AFTER_MS = 30_000


class Stamper:
    def __init__(self, key):
        self.key = key

    def __call__(self, event):
        if self.key not in event:
            event[self.key] = 0
        return event
"""

REPORT_CBL = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. REPORT1.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-COUNT      PIC 9(4) VALUE 0.
       01  WS-TOTAL      PIC 9(4) VALUE 10.
       PROCEDURE DIVISION.
       0000-MAIN.
           PERFORM 2000-PRINT-ALL
           PERFORM 3000-RESET
           GOBACK.
       2000-PRINT-ALL.
           PERFORM VARYING WS-COUNT FROM 1 BY 1
                   UNTIL WS-COUNT > WS-TOTAL
               DISPLAY 'LINE ' WS-COUNT
           END-PERFORM.
       3000-RESET.
           MOVE 0 TO WS-COUNT
           DISPLAY 'RESET ' WS-COUNT.
"""


# a second program with items of the same names and other sizes and values
CARDS_CBL = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. CARDS1.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CARD.
           05  WS-CTRL   PIC X.
           05  WS-TEXT   PIC X(79).
       01  WS-TOTAL      PIC 9(4) VALUE 20.
       01  WS-COUNT      PIC S9(4) COMP.
       PROCEDURE DIVISION.
           ACCEPT WS-CARD
           GOBACK.
"""


# a menu holding the names of the programs it links to in items of the same names
MENU_CBL = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. MENU1.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  PROGRAM-NAMES.
           05  CARDS1    PIC X(8) VALUE 'CARDS1'.
           05  REPORT1   PIC X(8) VALUE 'REPORT1'.
       PROCEDURE DIVISION.
           GOBACK.
"""

# two sibling programs in one file (GnuCOBOL), and the programs they call in another
CHUNKS_CBL = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. Chunk-Generate.
       PROCEDURE DIVISION.
           CALL "Chunk-Fill"
           GOBACK.
       END PROGRAM Chunk-Generate.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. Chunk-Load.
       PROCEDURE DIVISION.
           CALL "Chunk-Save"
           GOBACK.
       END PROGRAM Chunk-Load.
"""
CHUNK_IO_CBL = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. Chunk-Fill.
       PROCEDURE DIVISION.
           GOBACK.
       END PROGRAM Chunk-Fill.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. Chunk-Save.
       PROCEDURE DIVISION.
           GOBACK.
       END PROGRAM Chunk-Save.
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round10")
    return fixture_grounder(
        root,
        {
            "pkg/cache.py": CACHE_PY,
            "cbl/REPORT1.cbl": REPORT_CBL,
            "cbl/CARDS1.cbl": CARDS_CBL,
            "cbl/MENU1.cbl": MENU_CBL,
            "src/chunks.cob": CHUNKS_CBL,
            "src/chunk-io.cob": CHUNK_IO_CBL,
        },
    )


CITES = [
    # the subject's own lines, and lines that only call it or hold another class's method of its name
    ("`LfuCache.popitem` raises `KeyError` when nothing is cached (`pkg/cache.py:9-12`).", S, None),
    ("`LfuCache.popitem` raises `KeyError` when nothing is cached (`pkg/cache.py:2-5`).", P, "popitem is at pkg/cache.py:9-12"),
    ("`_fail` raises a `RuntimeError` naming the hook (`pkg/cache.py:15-16`).", S, None),
    ("`_fail` raises a `RuntimeError` naming the hook (`pkg/cache.py:19-24`).", P, "_fail is at pkg/cache.py:15-16"),
    ("`_fail` is called when the generator stops without yielding (`pkg/cache.py:19-24`).", S, None),
    ("`_fail` runs when the generator stops without yielding (`pkg/cache.py:19-24`).", S, None),
    # a constant's cite must reach its line, whatever else the cited lines mention
    ("`RETRY_AFTER_MS` is how long a caller waits after `StopIteration` (`pkg/cache.py:27`).", S, None),
    ("`RETRY_AFTER_MS` is how long a caller waits after `StopIteration` (`pkg/cache.py:21-23`).", P, "RETRY_AFTER_MS is at"),
    ("`Stamper` only sets `self.key` when the event lacks it (`pkg/cache.py:30-37`).", S, None),
    ("`Stamper` only sets `self.key` when the event lacks it (`pkg/cache.py:1-5`).", P, "Stamper is at pkg/cache.py:30-37"),
    ("`2000-PRINT-ALL` loops `WS-COUNT` from 1 up to `WS-TOTAL` (`cbl/REPORT1.cbl:12-16`).", S, None),
    ("`2000-PRINT-ALL` loops `WS-COUNT` from 1 up to `WS-TOTAL` (`cbl/REPORT1.cbl:17-19`).", P, "2000-PRINT-ALL is at"),
]


VALUES = [
    ("`2000-PRINT-ALL` stops when `WS-COUNT` passes `WS-TOTAL`, which is 10.", S, None),
    ("`2000-PRINT-ALL` stops when `WS-COUNT` passes `WS-TOTAL`, which is 12.", U, "WS-TOTAL is 10"),
    ("The retry delay is `RETRY_AFTER_MS`, which is `30 * 1000`.", S, None),
    ("The retry delay is `RETRY_AFTER_MS`, which is `20 * 1000`.", U, "RETRY_AFTER_MS is 30_000"),
    ("`RETRY_AFTER_MS` is 30 seconds.", S, None),
    ("`RETRY_AFTER_MS` is 30000 milliseconds.", S, None),
    ("`RETRY_AFTER_MS` is half a minute, 20 seconds.", S, None),
    ("`RETRY_AFTER_MS` is 20 seconds.", U, "RETRY_AFTER_MS is 30_000"),
]


SIZES = [
    ("`CARDS1` reads each card into a one-byte flag `WS-CTRL` and a 79-byte text `WS-TEXT`.", S, None),
    ("`CARDS1` reads each card into a one-byte flag `WS-CTRL` and an 80-byte text `WS-TEXT`.", P, "WS-TEXT is 79 characters"),
    ("In `cbl/CARDS1.cbl`, `WS-TEXT` is a 79-byte field.", S, None),
    ("In `cbl/CARDS1.cbl`, `WS-TEXT` is a 72-byte field.", P, "WS-TEXT is 79 characters"),
    # a binary item's bytes are not its picture's digits: left to the other checks
    ("In `cbl/CARDS1.cbl`, `WS-COUNT` is a 2-byte counter.", S, None),
    # the claim's program's item, not the other program's item of the same name
    ("In `cbl/CARDS1.cbl`, `WS-TOTAL` starts at 20.", S, None),
    ("In `cbl/CARDS1.cbl`, `WS-TOTAL` starts at 10.", U, "WS-TOTAL is 20"),
]


CALLS = [
    # a program whose own file is among the cited ones is placed there, though another file has an item of its name
    ("`CARDS1` and `REPORT1` both declare `WS-TOTAL` (`cbl/CARDS1.cbl:8`, `cbl/REPORT1.cbl:6`).", S, None),
    # a program that shares its file with another calls only what its own lines call
    ("`Chunk-Generate` calls `Chunk-Fill`.", S, None),
    ("`Chunk-Generate` calls `Chunk-Save`.", U, "Chunk-Generate does not call or perform Chunk-Save"),
    # ", then calls": the sentence's subject calls, not the name the verb before acted on
    ("`Chunk-Load` fills a `Chunk-Generate` record with the chunk, then calls `Chunk-Save`.", S, None),
    # "hands X to `P`": P is called, X is what it is given
    ("`Chunk-Load` hands the loaded chunk to `Chunk-Save`.", S, None),
    ("`Chunk-Generate` hands the new chunk to `Chunk-Save`.", U, "Chunk-Generate does not call or perform Chunk-Save"),
]


JUDGEMENTS = [
    "The `Stamper` class exists mainly so that a key is never stamped twice.",
    "`_fail` exists mainly for wrappers that forget to yield.",
    "Raising from `_fail` was chosen so that a broken wrapper stops the run.",
    "Keeping `LruCache.popitem` apart from `LfuCache.popitem` is a tidy choice.",
    "Keeping `self.order` a list is a questionable choice for large caches.",
    "Popping from `self.order` makes `LruCache.popitem` nearly free.",
    "`LfuCache.popitem` is effectively constant-time.",
    "Checking `self.key` first is the most reliable way to keep an existing stamp, as users expect.",
]


@pytest.mark.parametrize("text", JUDGEMENTS)
def test_purpose_choice_and_cost_are_judgements(grounder, text):
    claim = grounder.one(text)
    assert claim.verdict is N, claim.reason


LITERALS = [
    ("`REPORT1` displays `'LINE '` before each count.", S, None),
    # "choice" is a menu's as often as a judgement's word
    ("`REPORT1` displays `'LINE '` for the user's choice of count.", S, None),
    # in another program only: a value of the snapshot, misplaced ("the card is read": the card is what is read,
    # not `CARDS1`, which stays the program the claim is about)
    ("`CARDS1` displays `'RESET '` after the card is read.", P, "'RESET ' does not appear in cbl/CARDS1.cbl"),
    # in no file at all: a wrong value
    ("`REPORT1` displays `'ROW '` before each count.", U, "'ROW ' appears nowhere in cbl/REPORT1.cbl nor anywhere else"),
]


# -- what the thirteenth held-out set's first run showed (Rust paths and attributes, scripts, messages) -----

KV_RS = """\
use std::fmt;

/// A key in a key-value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    key: String,
}

enum Inner {
    Boxed(String),
    Msg(&'static str),
}

impl Key {
    fn inner(&self) -> Inner {
        Inner::Msg("key")
    }
}

pub trait VisitSource {
    fn visit_pair(&mut self, key: Key);
}

impl VisitSource for fmt::DebugMap<'_, '_> {
    fn visit_pair(&mut self, key: Key) {}
}

pub enum LevelFilter {
    Off,
    Info,
}

impl LevelFilter {
    pub fn max() -> LevelFilter {
        LevelFilter::Info
    }
}
"""

# an error class raised from more lines than a first page of search hits holds, the last one quoted
PARSER_PY = (
    "class ParseError(ValueError):\n    pass\n\n\n"
    + "".join(
        f"def rule_{i}(src, pos):\n    if src[pos] == '{i}':\n        raise ParseError('Bad rule {i}', src, pos)\n    return pos\n\n\n"
        for i in range(60)
    )
    + "def skip_until(src, pos, expect, error_on, error_on_eof):\n    return pos\n\n\n"
    + "def skip_comment(src, pos):\n    return skip_until(src, pos, '#', error_on=ILLEGAL, error_on_eof=False)\n\n\n"
    + "def loads(text, parse_float=float):\n    parse_float = make_safe(parse_float)\n    return to_number(text, parse_float)\n\n\n"
    + "def make_safe(parse_float):\n    return parse_float\n\n\n"
    + "def to_number(text, parse_float):\n    if '.' in text:\n        return parse_float(text)\n    return int(text, 0)\n\n\n"
    + 'def parse_literal(src, pos):\n    pos = skip_until(\n        src, pos, "\'", error_on=ILLEGAL, error_on_eof=True\n    )\n'
    + '    if pos < 0:\n        raise ParseError("Unterminated string", src, pos)\n    return pos\n'
)

BUILD_BAT = "@echo off\ncobol %1,,%1.lst;\nif errorlevel 12 kedit %1.lst\n"


@pytest.fixture(scope="module")
def heldout(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round10-heldout")
    return fixture_grounder(
        root, {"src/kv.rs": KV_RS, "pkg/parser.py": PARSER_PY, "co.bat": BUILD_BAT, "cbl/CARDS1.cbl": CARDS_CBL}
    )


HELDOUT = [
    # a Rust path is a dotted name, found as the code writes it; a made-up one is still made up
    ("`LevelFilter::Info` is a variant of `LevelFilter`.", S, None),
    ("`LevelFilter::Max` is a variant of `LevelFilter`.", U, "LevelFilter.Max appears nowhere in the snapshot"),
    ("`LevelFilter::max` returns `LevelFilter::Info`.", S, None),
    # a type's derive attribute is part of its definition
    ("`Key` derives `PartialOrd` and `Ord`.", S, None),
    # what is done to a trait names the types it is implemented for, which its own definition need not name
    ("`VisitSource` is implemented for `fmt::DebugMap`.", S, None),
    # a Rust type's code is in its impl blocks: what is said of the type need not be in its definition
    ("`Key` hands out an `Inner` value, `Boxed` or `Msg`.", S, None),
    # a Windows script is a file an answer cites by name, with its lines
    ("`co.bat` opens the listing when `errorlevel` is 12 or more (`co.bat:2-3`).", S, None),
    # the message after "raises" is what is raised, not a name quoted later
    ('`parse_literal` raises `"Unterminated string"` when `skip_until` returns a negative `pos`.', S, None),
    # a quoted call with "..." leaves arguments out; every call site is looked at
    ('`parse_literal` raises `ParseError("Unterminated string", ...)`.', S, None),
    ("`parse_literal` calls `skip_until(..., error_on=ILLEGAL, error_on_eof=True)`.", S, None),
    # "`g` calls `f` with `k=v`": g's own call of f must pass it
    ("`skip_comment` calls `skip_until` with `error_on_eof=False`.", S, None),
    ("`skip_comment` calls `skip_until` with `error_on_eof=True`.", P, "skip_until is called as skip_until(src, pos, '#',"),
    # "and otherwise ..." starts a step of its own, which the condition of the step before does not govern
    ("`to_number` passes the text to `parse_float` when it holds a dot and otherwise returns `int(text, 0)`.", S, None),
    # a word of the language quoted in the cite's own clause is what the cited lines show
    (
        "`CARDS1` keeps the card in `WS-CARD`, which works because its `WORKING-STORAGE` declares it (`cbl/CARDS1.cbl:4`).",
        S,
        None,
    ),
    # "only when": the statement must be governed by some condition
    ("`to_number` calls `parse_float` only when the text holds a `'.'`.", S, None),
    ("`loads` calls `make_safe` only when the caller passes its own `parse_float`.", P, "loads calls/performs make_safe at"),
    # "the `X` fields": a part several names share
    ("`CARDS1` reads the card into the `CARD` fields.", S, None),
    ("`CARDS1` reads the card into the `CARDX` fields.", U, "CARDX appears nowhere in the snapshot"),
]


ROWS = [
    # a literal under a value or default column is the row name's value
    ("| Item | Initial value |\n|---|---|\n| `WS-COUNT` | 0 |", S, None),
    ("| Item | Initial value |\n|---|---|\n| `WS-COUNT` | 5 |", U, "WS-COUNT is 0"),
    ("| Constant | Default |\n|---|---|\n| `RETRY_AFTER_MS` | `30_000` |", S, None),
    ("| Constant | Default |\n|---|---|\n| `RETRY_AFTER_MS` | `0` |", U, "RETRY_AFTER_MS is 30_000"),
]


@pytest.mark.parametrize(("text", "verdict", "reason"), [*CITES, *VALUES, *SIZES, *CALLS, *LITERALS, *ROWS])
def test_round10_readings(grounder, text, verdict, reason):
    expect_verdict(grounder, text, verdict, reason)


@pytest.mark.parametrize(("text", "verdict", "reason"), HELDOUT)
def test_what_the_thirteenth_held_out_set_showed(heldout, text, verdict, reason):
    expect_verdict(heldout, text, verdict, reason)
