"""Round 36 (from held-out set 50): a Go name qualified by the package its file declares (`xidb.ID`, where
b/id.go says `package xidb`) is that file's name, wherever the file sits; and a platform or hash written as
prose (`macOS`, `SHA-256`) is no name of the code. Before, each came out UNSUPPORTED as found nowhere."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import extract_refs
from groundjudge.grounding.models import Verdict

U = Verdict.UNSUPPORTED

ROOT_ID = """\
package xid

// ID is a unique id.
type ID [12]byte

func (id ID) IsNil() bool {
\treturn id == ID{}
}
"""

XIDB = """\
package xidb

import (
\t"database/sql/driver"
\t"fmt"

\t"github.com/rs/xid"
)

// ID wraps xid.ID for binary storage.
type ID struct {
\txid.ID
}

func (id ID) Value() []byte {
\treturn id.ID[:]
}
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round36"), {"id.go": ROOT_ID, "b/id.go": XIDB})


def test_a_name_qualified_by_its_files_package_clause_is_found(grounder):
    claim = grounder.one("`xidb.ID` embeds `xid.ID` (`b/id.go:11-13`).")
    assert "appears nowhere" not in claim.reason, claim.reason
    assert claim.verdict is not U, claim.reason


def test_a_package_that_declares_no_such_name_still_finds_nothing(grounder):
    expect_verdict(grounder, "`xidb.Bytes` returns the raw bytes.", U, "xidb.Bytes appears nowhere")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Hashing the host identifier with SHA-256 is a sound design choice.", []),
        ("On macOS it runs `ioreg`, and SHA-1, SHA-512 and CRC32 are computed elsewhere.", ["ioreg"]),
        ("On macOS it calls `readPlatformMachineID`.", ["readPlatformMachineID"]),
    ],
)
def test_a_platform_or_a_hash_in_prose_is_no_name(text, names):
    assert [r.value for r in extract_refs(text)] == names
