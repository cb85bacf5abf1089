"""Round 34: a claim whose one statement is where its names are (a file, lines) is told apart from one that
states what they do, so a wrong place in it is read as the qualifier it is."""

from __future__ import annotations

import pytest

from groundjudge.grounding.claims import MarkdownClaimExtractor, given_as_example, states_only_place


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


@pytest.mark.parametrize(
    ("md", "contrasted"),
    [
        ("Keeping the CLI as a script instead of a `console_scripts` entry point avoids setuptools.", {"console_scripts"}),
        ("Exit code 2 follows the convention that tools like `getopt` use.", {"getopt"}),
        ("`NullUUID` is clearly modelled on `database/sql`'s `NullString`.", {"NullString"}),
        ("Testing `errno` instead of comparing the result with `MAP_FAILED` is fragile.", {"MAP_FAILED"}),
        ("`run_job` calls `new_runner` rather than `old_runner`.", {"old_runner"}),
        # what the code does with a name is no contrast: a comparison in the code names a thing it has
        ("`WS-OUTPUT-SUB` is compared with the constant `WS-BYTES-PER-ROW`.", set()),
        ("`run_job` returns more than `MAX_JOBS` results.", set()),
    ],
)
def test_a_name_the_claim_sets_the_code_against_is_given_as_an_example(md, contrasted):
    (claim,) = MarkdownClaimExtractor().extract(md + "\n")
    names = {r.value for r in claim.refs if r.kind == "identifier" and given_as_example(claim.text, r)}
    assert names == contrasted


@pytest.mark.parametrize(
    ("md", "paths", "values"),
    [
        ("A peer on HTTP/1.1 then gets `Transfer-Encoding: chunked`.", [], []),
        ("When the framing is `http/1.0`, it removes the length.", [], ["http/1.0"]),
        ('It refuses with "can\'t send trailers to HTTP/1.0 client".', [], ["can't send trailers to HTTP/1.0 client"]),
        ("It reads `conf/http/1.0/x.txt` and docs/http/1.0.md.", ["conf/http/1.0/x.txt", "docs/http/1.0.md"], []),
    ],
)
def test_a_protocol_and_its_version_is_no_file_in_any_case_or_in_prose(md, paths, values):
    (claim,) = MarkdownClaimExtractor().extract(md + "\n")
    assert [r.value for r in claim.refs if r.kind == "path"] == paths
    assert [r.value for r in claim.refs if r.kind == "value"] == values
