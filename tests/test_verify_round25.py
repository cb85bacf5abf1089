"""Issue E round 25 (from held-out sets 36 and 29, and set 31's `1500ns`): an absolute path the code itself spells (a makefile's
`cgibin=/usr/share/www/cgi-bin`, a loader's `"/usr/share/lib"`) is a path of the machine the code runs on, not a
file of the snapshot. Before, every absolute path "left the corpus root" and made the claim UNSUPPORTED. A path
no code spells still does, and nothing outside the snapshot is ever read. A number with a unit of time or
size (`1500ns`, `64KB`) is that number's value, not a name."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Verdict

S, U = Verdict.SUPPORTED, Verdict.UNSUPPORTED

MAKEFILE = """\
cgibin=/usr/share/www/cgi-bin

install:
\tcp form.exe $(cgibin)/form
"""

LOADER = """\
import glob


def candidates():
    return ["/usr/share/lib", "/usr/lib"] + glob.glob("/etc/magic.d/*")


def wait(timeout_ms=1500):
    return timeout_ms
"""


README = """\
# magic

Install the database under `/etc/magic-db`.
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round25"), {"makefile": MAKEFILE, "loader.py": LOADER, "README.md": README})


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("The `makefile` sets `cgibin` to `/usr/share/www/cgi-bin`.", S, None),
        ("`candidates` looks in `/usr/share/lib` first.", S, None),
        # the code spells it, but a cited line of it is a file of the snapshot, which it is not
        ("`candidates` looks in `/usr/share/lib:3`.", U, "/usr/share/lib leaves the corpus root"),
        # a path no code of the snapshot spells, and one that only starts like a spelled one
        ("`candidates` reads `/etc/passwd`.", U, "/etc/passwd leaves the corpus root; nothing was read"),
        ("`candidates` looks in `/usr/share`.", U, "/usr/share leaves the corpus root"),
        # a document that spells a path describes the code; it does not use the path
        ("`candidates` looks in `/etc/magic-db`.", U, "/etc/magic-db leaves the corpus root"),
        # a file of the run a build file names is no more a made-up file than one the code opens
        ("The `install` target copies `form.exe`.", S, None),
    ],
)
def test_an_absolute_path_the_code_spells(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


def test_the_evidence_is_the_line_that_spells_it(grounder):
    claim = grounder.one("The `makefile` sets `cgibin` to `/usr/share/www/cgi-bin`.")
    assert (
        "/usr/share/www/cgi-bin is named by the code at makefile:1 (a path of the machine it runs on, not of the snapshot)"
        in claim.reason
    )
    assert any(e.path == "makefile" and e.start_line == 1 for e in claim.evidence)


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        # a number with a unit is the number's value, written as a duration or a size prints
        ("`wait` defaults `timeout_ms` to `1500ms`.", S, None),
        ("`wait` defaults `timeout_ms` to `2500ms`.", U, None),
    ],
)
def test_a_quantity_is_its_number(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


@pytest.mark.parametrize(("token", "value"), [("1500ns", "1500"), ("2.5s", "2.5"), ("64KB", "64")])
def test_a_quantity_is_read_as_a_number(token, value):
    (claim,) = MarkdownClaimExtractor().extract(f"The limit is `{token}`.\n")
    assert [(r.kind, r.value, r.value_kind) for r in claim.refs] == [("value", value, "number")]
