"""Issue E round 18 (from held-out set 27's first run): a file with no extension is cited by its lines
(`README:5-6`, `compileall:1-3`), and a file named by its full name is no name that another file's cited lines
must hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import extract_refs
from groundjudge.grounding.models import Verdict

S, P, U = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED

SERVER = """\
def serve(host, port):
    \"\"\"Answer one client at a time.\"\"\"
    return (host, port)
"""

README = """\
# Sockets

Start the server first:

    ./server localhost 8000
    ./client localhost 8000 get
"""

BUILD = """\
cc -o server server.c
cc -o client client.c
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round18")
    return fixture_grounder(root, {"server.py": SERVER, "README": README, "compileall": BUILD})


def test_a_file_with_no_extension_cited_by_its_lines_is_a_path():
    refs = extract_refs("The `README` runs it (`server.py:1-3`, `README:5-6`).")
    cited = [(r.kind, r.value, r.start_line, r.end_line, r.strict) for r in refs if r.kind == "path"]
    assert cited == [("path", "server.py", 1, 3, True), ("path", "README", 5, 6, False)]
    # an extension no language lists (Meson's `meson.build`) is cited the same way
    [meson] = [r for r in extract_refs("Options map onto macros (`meson.build:34-52`).") if r.kind == "path"]
    assert (meson.value, meson.start_line, meson.end_line, meson.strict) == ("meson.build", 34, 52, False)


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        # README is the cited file, not a name server.py's cited lines must hold
        (
            "`server.py` answers one client at a time, and the `README` starts it as `./server localhost 8000` (`server.py:1-3`, `README:5-6`).",
            S,
        ),
        ("`compileall` builds the server with `cc` (`compileall:1`).", S),
        # lines past the end of the cited file are still a wrong cite
        ("`serve` answers one client at a time (`server.py:1-3`, `README:50-56`).", P),
        # a host and port has the shape of such a cite: no file of that name is no made-up file
        ("`serve` answers one client at a time, for instance on `localhost:8000` (`server.py:1-3`).", S),
    ],
)
def test_files_with_no_extension(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


def test_a_made_up_name_beside_the_cite_is_still_made_up(grounder):
    expect_verdict(grounder, "`serve_forever` answers one client at a time (`server.py:1-3`, `README:5-6`).", U)
