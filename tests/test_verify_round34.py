"""Round 34: a claim whose one statement is where its names are (a file, lines) is told apart from one that
states what they do, so a wrong place in it is read as the qualifier it is."""

from __future__ import annotations

import pytest

from groundjudge.grounding.claims import states_only_place


@pytest.mark.parametrize(
    ("text", "only_place"),
    [
        ("`erase_line` is defined at `colorama/winterm.py:117-147`.", True),
        ("- `TimedSerializer.loads` is at `src/itsdangerous/timed.py:160-167`.", True),
        ("The `receivers_for` generator is at `src/blinker/base.py:280-300`.", True),
        ("3. The procedure division of `GETSCODE` is at `cobol_src/GETSCODE.cbl:8-20`.", True),
        ("`Symbol` is defined in `src/blinker/base.py:29-56` next to the `Signal` class.", True),
        ("`SEARCH-RECORD` in `SRCHBIN` is at `SRCHBIN.cobol:47-56`.", True),
        ("The motor fields, `CA-M-MAKE` through `CA-M-FILLER`, are at `lgcmarea.cpy:56-63`.", True),
        ("`A` and `B`, the header and dash lines of that table, are declared in the copybook (`i#c.cpy:94-103`).", True),
        ("`SignatureExpired` is defined in `src/itsdangerous/timed.py`.", True),
        ("`0000-MAIN` performs `1000-INIT` (`a.cbl:10-12`).", False),
        ("`WS-COUNT` is `PIC 9(4)` at `a.cbl:5`.", False),
        ("`build_response` is at `adapters.py:403-454` and returns a `Response`.", False),
        ("`run` is called in `main.py:3`.", False),
        ("The loop is written in `a.py:3-9` because it is faster.", False),
    ],
)
def test_a_claim_that_says_only_where_its_names_are(text, only_place):
    assert states_only_place(text) is only_place
