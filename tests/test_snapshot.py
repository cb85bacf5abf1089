"""Frozen corpus snapshots: content addressing, tree hashes, flags, and refusal when the store changed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from groundjudge.errors import UserError
from groundjudge.grounding.snapshot import (
    _object_path,
    load_snapshot,
    normalize_relpath,
    open_corpus,
    snapshot_directory,
)
from groundjudge.hashing import sha256_text


def _make_tree(root: Path) -> None:
    (root / "cbl").mkdir(parents=True)
    (root / "cbl" / "PROG1.cbl").write_text("       IDENTIFICATION DIVISION.\n       PROGRAM-ID. PROG1.\n")
    (root / "notes.md").write_text("hello\n")
    (root / "data.bin").write_bytes(b"\x00\x01\x02")
    (root / "ebcdic.dat").write_bytes("HELLO".encode("cp037"))
    # a Latin-1 source with an accented comment, as mainframe code often arrives
    (root / "cbl" / "PROG2.cbl").write_bytes("      * Código de acceso\n       PROGRAM-ID. PROG2.\n".encode("latin-1"))


def test_tree_hash_is_content_only(tmp_path):
    a, b = tmp_path / "a", tmp_path / "elsewhere" / "b"
    _make_tree(a)
    _make_tree(b)
    os.utime(b / "notes.md", (1, 1))
    sa, sb = snapshot_directory(a, "a"), snapshot_directory(b, "b")
    assert sa.tree_hash == sb.tree_hash
    # The tree hash is sha256 over sorted "path\0sha256\n" lines: recompute it by hand.
    lines = "".join(f"{e.path}\0{e.sha256}\n" for e in sorted(sa.files, key=lambda e: e.path))
    assert sa.tree_hash == sha256_text(lines)
    (b / "notes.md").write_text("hello!\n")
    assert snapshot_directory(b, "b2").tree_hash != sa.tree_hash


def test_manifest_lists_and_flags_files(tmp_path):
    _make_tree(tmp_path / "c")
    snap = snapshot_directory(tmp_path / "c", "c")
    kinds = {e.path: (e.kind, e.lines, e.size, e.encoding) for e in snap.files}
    assert kinds == {
        "cbl/PROG1.cbl": ("text", 2, 58, "utf-8"),
        "cbl/PROG2.cbl": ("text", 2, 51, "cp1252"),
        "data.bin": ("binary", 0, 3, "utf-8"),
        "ebcdic.dat": ("non_utf8", 0, 5, "utf-8"),
        "notes.md": ("text", 1, 6, "utf-8"),
    }
    assert snap.read_text("cbl/PROG1.cbl").startswith("       IDENTIFICATION")
    assert snap.read_text("cbl/PROG2.cbl").startswith("      * Código de acceso")
    with pytest.raises(UserError, match="not a text file"):
        snap.read_text("ebcdic.dat")


def test_symlinks_never_leave_the_root(tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("secret\n")
    root = tmp_path / "corpus"
    _make_tree(root)
    (root / "escape.txt").symlink_to(outside)
    (root / "inside.md").symlink_to(root / "notes.md")
    (root / "loop").symlink_to(root, target_is_directory=True)
    snap = snapshot_directory(root, "links")
    paths = {e.path for e in snap.files}
    assert "escape.txt" not in paths and "inside.md" in paths
    assert {s.path: s.reason for s in snap.manifest.skipped} == {
        "escape.txt": "symlink out of the corpus root",
        "loop": "symlinked directory",
    }


def test_loading_refuses_a_changed_store(tmp_path):
    _make_tree(tmp_path / "d")
    (tmp_path / "d" / "unique.md").write_text("only in this test\n")
    snap = snapshot_directory(tmp_path / "d", "d")
    assert load_snapshot("d").tree_hash == snap.tree_hash
    entry = next(e for e in snap.files if e.path == "unique.md")
    obj = _object_path(entry.sha256)
    os.chmod(obj, 0o644)
    obj.write_text("tampered\n")
    with pytest.raises(UserError, match=r"\(unique.md in snapshot d\) is damaged \(sha256 mismatch\)"):
        load_snapshot("d")
    # Snapshotting the same content again repairs the damaged object.
    snapshot_directory(tmp_path / "d", "d")
    assert load_snapshot("d").tree_hash == snap.tree_hash


def test_open_corpus_accepts_directory_or_name(tmp_path):
    _make_tree(tmp_path / "e")
    by_dir = open_corpus(tmp_path / "e")
    snapshot_directory(tmp_path / "e", "named")
    assert open_corpus("named").tree_hash == by_dir.tree_hash
    with pytest.raises(UserError, match="no stored snapshot named 'missing'"):
        open_corpus("missing")
    with pytest.raises(UserError, match="corpus directory does not exist"):
        open_corpus(str(tmp_path / "nope"))


def test_open_corpus_names_a_file_given_as_corpus(tmp_path, monkeypatch):
    """`--corpus README.md` is a file, not a missing snapshot; a stored name still wins over a
    same-named file in the working directory."""
    _make_tree(tmp_path / "e")
    (tmp_path / "notes.md").write_text("not a corpus\n")
    with pytest.raises(UserError) as err:
        open_corpus(str(tmp_path / "notes.md"))
    assert str(err.value) == f"{tmp_path / 'notes.md'}: corpus is not a directory"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match=r"^notes\.md: corpus is not a directory$"):
        open_corpus("notes.md")
    stored = snapshot_directory(tmp_path / "e", "notes.md")
    assert open_corpus("notes.md").tree_hash == stored.tree_hash


@pytest.mark.parametrize(
    "cited, expected",
    [
        ("cbl/PROG1.cbl", "cbl/PROG1.cbl"),
        ("./cbl//PROG1.cbl", "cbl/PROG1.cbl"),
        ("cbl/../notes.md", "notes.md"),
        ("../../etc/passwd", None),
        ("/etc/passwd", None),
        ("C:\\Windows\\win.ini", None),
        ("~/x", None),
        ("", None),
    ],
)
def test_cited_paths_stay_inside_the_root(cited, expected):
    assert normalize_relpath(cited) == expected


def test_escaping_path_reads_nothing(tmp_path):
    _make_tree(tmp_path / "f")
    snap = snapshot_directory(tmp_path / "f", "f")
    assert snap.entry("../../etc/passwd") is None
    with pytest.raises(UserError):
        snap.read_bytes("/etc/passwd")


def test_invalid_snapshot_name(tmp_path):
    _make_tree(tmp_path / "g")
    with pytest.raises(UserError, match="invalid snapshot name"):
        snapshot_directory(tmp_path / "g", "../evil")


def test_snapshot_of_a_copy_reuses_objects(tmp_path):
    _make_tree(tmp_path / "h")
    shutil.copytree(tmp_path / "h", tmp_path / "h2")
    assert snapshot_directory(tmp_path / "h").tree_hash == snapshot_directory(tmp_path / "h2").tree_hash
