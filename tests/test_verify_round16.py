"""Issue E round 16 (from held-out set 24's first run): free-format GnuCOBOL is often written in lower case,
and a statement quoted as written (`copy checkfilestatus.`, `perform write-report-line`) must be in the
code like an upper-case one; a lower-case command of another language (`set -e`, `start server`) is no
COBOL statement."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor, extract_refs
from groundjudge.grounding.models import Verdict

S, P = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED

CITIES = """\
>>SOURCE FORMAT IS FREE
identification division.
program-id. cities1.
procedure division.
main-para.
    perform write-report-line
    goback.
write-report-line.
    move spaces to report-line.
copy checkfilestatus.
"""

OTHER = """\
>>SOURCE FORMAT IS FREE
identification division.
program-id. cities2.
procedure division.
main-para.
    call "checkfilestatus"
    goback.
"""

STATUS = """\
check-file-status.
    display "status".
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round16")
    return fixture_grounder(root, {"cities1.cbl": CITIES, "cities2.cbl": OTHER, "checkfilestatus.cpy": STATUS})


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("with `copy checkfilestatus.` at its end", "copy checkfilestatus"),
        ("it runs `perform write-report-line` first", "perform write-report-line"),
        ("the script starts with `set -e`", None),
        ("run `start server` to begin", None),
    ],
)
def test_a_lower_case_cobol_statement(text, statement):
    found = [r.value for r in extract_refs(text) if r.kind == "value" and r.value_kind == "code"]
    assert found == ([statement] if statement else [])


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`cities1` includes the copybook with `copy checkfilestatus.` (`cities1.cbl:10`).", S),
        # cities2 calls the routine; the quoted COPY is in cities1 only
        ("`cities2` includes the copybook with `copy checkfilestatus.` (`cities2.cbl:6`).", P),
    ],
)
def test_a_lower_case_statement_must_be_where_the_claim_puts_it(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


RUNNER = """\\
>>SOURCE FORMAT IS FREE
identification division.
program-id. cities5.
procedure division.
main-para.
    display "cat $FILES/CA.txt $FILES/US.txt > $FILES/CAUS.txt"
    goback.
"""


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        # a data file the code names at the end of a path: an input of a run, not a file of the snapshot
        ("On `CAUS.txt` the whole run should finish in well under a minute.", Verdict.UNABLE_TO_VERIFY),
        ("On `CAUSA.txt` the whole run should finish in well under a minute.", Verdict.UNSUPPORTED),
    ],
)
def test_a_file_the_code_names_at_the_end_of_a_path(tmp_path, md, verdict):
    expect_verdict(fixture_grounder(tmp_path, {"cities5.cbl": RUNNER}), md, verdict)


def test_a_cited_document_is_not_what_the_next_units_are_about():
    md = (
        "1. The console script points at `cli:_main` (`pyproject.toml:32-33`).\n"
        '2. An unknown format prints "is not a supported output format" and exits with status 2.\n'
        "3. The program `tabulate/cli.py` reads its options with `getopt`.\n"
        "4. It exits with status 2 on an unknown option.\n"
    )
    claims = MarkdownClaimExtractor().extract(md)
    assert [c.context for c in claims] == [None, None, None, "tabulate/cli.py"]


TEMPLATE = """\
>>SOURCE FORMAT IS FREE
identification division.
program-id. cowtemplate.
procedure division.
main-para.
    move function concatenate("views/",function trim(template-filename)) to readfile-name
    goback.
"""


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ('It builds the name with `function concatenate("views/", function trim(template-filename))`.', S),
        ('It builds the name with `function concatenate( "views/" , function trim( template-filename ) )`.', S),
        ('It builds the name with `function concatenate("templates/", function trim(template-filename))`.', Verdict.UNSUPPORTED),
    ],
)
def test_spacing_next_to_parentheses_and_commas_is_the_writers(tmp_path, md, verdict):
    expect_verdict(fixture_grounder(tmp_path, {"cowtemplate.cbl": TEMPLATE}), md, verdict)
