"""Building, caching and querying the index through the public API, the time limit, and the CLI."""

from __future__ import annotations

import shutil
import time

import pytest
from _index_helpers import FIXTURES, FREE_FORMAT, parse_hanging_on_hang_files, raw_cobol_parse, snapshot_of
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.grounding.index import load_index
from groundjudge.grounding.index.build import build_index, default_workers, index_path, open_cached
from groundjudge.grounding.index.pool import TimedOut, run_timed
from groundjudge.grounding.index.store import SCHEMA_VERSION


@pytest.fixture(scope="module")
def idx(tmp_path_factory):
    snap = snapshot_of(
        tmp_path_factory.mktemp("idx"),
        "cobol",
        "langs",
        "jcl",
        extra={
            "data/EBCDIC.DAT": "ÄÖÜ".encode("cp500"),
            "data/blob.bin": b"\x00\x01\x02",
            "docs/notes.md": b"# Notes\nThe ACCTUPD program updates accounts.\n",
        },
    )
    index = load_index(snap)
    yield index
    index.close()


def test_files_sorted_with_language_and_status(idx):
    files = {f.path: (f.language, f.lines, f.status) for f in idx.files()}
    assert [f.path for f in idx.files()] == sorted(files)
    assert files["cobol/ACCTUPD.cbl"] == ("cobol", 75, "errors")
    assert files["cobol/CUSTREC.cpy"] == ("cobol", 16, "ok")
    assert files["jcl/ACCTJOB.jcl"] == ("jcl", 10, "lexical")
    assert files["docs/notes.md"] == ("text", 2, "lexical")
    assert files["data/EBCDIC.DAT"][2] == "skipped" and files["data/blob.bin"][2] == "skipped"
    assert idx.file_info("data/blob.bin").note == "binary file"
    assert idx.file_info("../etc/passwd") is None


def test_definitions_case_rules(idx):
    assert [(s.path, s.start_line) for s in idx.definitions("2100-read-trans")] == [("cobol/ACCTUPD.cbl", 51)]
    assert [s.path for s in idx.definitions("acctjob", kind="job")] == ["jcl/ACCTJOB.jcl"]
    assert [s.name for s in idx.definitions("Ledger")] == ["Ledger"]
    assert idx.definitions("ledger") == []  # Python names match exactly
    paras = idx.definitions(kind="paragraph", path="cobol/ACCTUPD.cbl")
    assert [s.start_line for s in paras] == [34, 43, 47, 51, 70, 74]


def test_references(idx):
    hits = idx.references("acctdat")
    assert [(r.kind, r.line, r.detail) for r in hits] == [("cics_read", 56, {}), ("cics_rewrite", 60, {"via": "WS-ACCTFILE"})]
    assert [(r.path, r.line) for r in idx.references(kind="exec_pgm")] == [("jcl/ACCTJOB.jcl", 3), ("jcl/SORTPROC.proc", 2)]
    assert [r.context for r in idx.references("parse_amount", kind="call")] == ["post"]


def test_enclosing(idx):
    assert idx.enclosing("cobol/ACCTUPD.cbl", 60).name == "2100-READ-TRANS"
    assert idx.enclosing("cobol/ACCTUPD.cbl", 60, kinds=("section",)).name == "2000-PROCESS"
    assert idx.enclosing("cobol/ACCTUPD.cbl", 20).name == "ACCTUPD"  # only the program holds a data line
    assert idx.enclosing("langs/ledger.py", 16).name == "post"
    assert idx.enclosing("langs/ledger.py", 16, kinds=("class",)).name == "Ledger"
    assert idx.enclosing("langs/ledger.py", 4) is None


def test_lines_are_clipped(idx):
    assert idx.lines("cobol/ACCTUPD.cbl", 74, 500) == [
        "007400 2900-DONE.                                                       ACCTUPD ",
        "007500     EXIT.                                                        ACCTUPD ",
    ]
    assert idx.lines("langs/ledger.py", 0, 1) == ["import os"]
    assert idx.lines("langs/ledger.py", 5, 4) == []
    assert idx.lines("no/such.py", 1, 3) == []


def test_search(idx):
    assert idx.search("ACCTUPD program") == [("docs/notes.md", 2, "The ACCTUPD program updates accounts.")]
    hits = idx.search("parse_amount")
    assert [(p, n) for p, n, _ in hits] == [("langs/ledger.py", 6), ("langs/ledger.py", 15)]
    assert len(idx.search("PERFORM", limit=2)) == 2
    assert idx.search('"; DROP TABLE files; --') == [] and idx.search("  ") == []


def _card(seq: int, code: str, tag: str) -> str:
    return f"{seq:06d}{code:<66s}{tag}"


def test_search_reads_cobol_code_not_the_sequence_and_identification_areas(tmp_path):
    # IBM-style programs carry their own name in columns 73-80 of every line: searched over whole lines,
    # a program's name would find its first 50 lines and crowd out the program that calls it.
    body = [" IDENTIFICATION DIVISION.", " PROGRAM-ID. PGMA.", " PROCEDURE DIVISION.", " 0000-MAIN."]
    body += ["     DISPLAY 'STEP'"] * 60 + ["     GOBACK."]
    caller = [" IDENTIFICATION DIVISION.", " PROGRAM-ID. PGMB.", " PROCEDURE DIVISION.", "     CALL 'PGMA'.", "     GOBACK."]
    files = {
        "cbl/PGMA.cbl": "\n".join(_card(10 * (k + 1), line, "PGMA") for k, line in enumerate(body)) + "\n",
        "cbl/PGMB.cbl": "\n".join(_card(10 * (k + 1), line, "PGMB") for k, line in enumerate(caller)) + "\n",
    }
    snap = snapshot_of(tmp_path, extra={p: t.encode() for p, t in files.items()})
    with load_index(snap) as index:
        assert [(p, n) for p, n, _ in index.search("PGMA", limit=50)] == [("cbl/PGMA.cbl", 2), ("cbl/PGMB.cbl", 4)]
        assert index.search("PGMB") == [("cbl/PGMB.cbl", 2, files["cbl/PGMB.cbl"].splitlines()[1])]  # the whole line comes back
        assert index.search("000010") == []  # sequence numbers are not text to look up
        assert [n for _, n, _ in index.search("STEP", limit=100)] == list(range(5, 65))


def test_paths_matching(idx):
    assert idx.paths_matching("cobol/ACCTUPD.cbl") == ["cobol/ACCTUPD.cbl"]
    assert idx.paths_matching("ACCTUPD.cbl") == ["cobol/ACCTUPD.cbl"]
    assert idx.paths_matching("acctupd") == ["cobol/ACCTUPD.cbl"]
    assert idx.paths_matching("custrec") == ["cobol/CUSTREC.cpy"]
    assert idx.paths_matching("../../etc/passwd") == [] and idx.paths_matching("/etc/passwd") == []


def test_counts(idx):
    c = idx.counts()
    assert c["files"] == len(idx.files()) == 17  # 4 COBOL, 7 langs, 3 JCL/BMS, 3 extra
    assert c["definitions"] == len(idx.definitions()) and c["references"] == len(idx.references())
    assert c["timeouts"] == 0 and c["skipped"] == 2
    assert c["lexical_only"] == 4  # two JCL files, one BMS file, one Markdown file


def test_rows_hold_what_the_models_hold_in_one_layout():
    """The extractors' rows, the table columns and the query models agree (values worked out by hand)."""
    from groundjudge.grounding.index.model import Ref, Symbol
    from groundjudge.grounding.index.store import (
        KIND,
        LANGUAGE,
        LINE,
        NAME,
        REF_COLUMNS,
        SYMBOL_COLUMNS,
        ref_of,
        ref_row,
        symbol_of,
        symbol_row,
    )

    detail = {"pic": "X(8)", "level": "05"}
    row = symbol_row("data_item", "ws-name", "cbl/A.cbl", 12, 14, "cobol", "lexical", detail)
    detail["pic"] = "changed"  # the row was encoded when made
    columns = dict(zip(SYMBOL_COLUMNS, row, strict=True))
    assert columns == {
        "kind": "data_item",
        "name": "ws-name",
        "start_line": 12,
        "end_line": 14,
        "path": "cbl/A.cbl",
        "language": "cobol",
        "source": "lexical",
        "detail": '{"level": "05", "pic": "X(8)"}',
        "name_key": "WS-NAME",
    }
    assert (row[KIND], row[NAME], row[LINE], row[LANGUAGE]) == ("data_item", "ws-name", 12, "cobol")
    assert symbol_of(row) == Symbol(
        kind="data_item",
        name="ws-name",
        path="cbl/A.cbl",
        start_line=12,
        end_line=14,
        language="cobol",
        source="lexical",
        detail={"level": "05", "pic": "X(8)"},
    )
    ref = ref_row("call", "parseAmount", "py/a.py", 7, "main", "python")
    assert dict(zip(REF_COLUMNS, ref, strict=True)) == {
        "kind": "call",
        "target": "parseAmount",
        "line": 7,
        "path": "py/a.py",
        "context": "main",
        "language": "python",
        "detail": "{}",
        "target_key": "parseAmount",
    }
    assert (ref[KIND], ref[NAME], ref[LINE], ref[LANGUAGE]) == ("call", "parseAmount", 7, "python")
    assert ref_of(ref) == Ref(kind="call", target="parseAmount", path="py/a.py", line=7, context="main", language="python")


def test_cached_by_tree_hash_and_no_temp_left(tmp_path):
    snap = snapshot_of(tmp_path, "jcl")
    first = load_index(snap)
    assert first.cached is False
    first.close()
    again = load_index(snap)
    assert again.cached is True and again.tree_hash == snap.tree_hash
    assert again.path == index_path(snap.tree_hash)
    again.close()
    assert [p.name for p in index_path(snap.tree_hash).parent.iterdir() if p.name.endswith(".tmp")] == []


def test_corrupt_cache_is_rebuilt(tmp_path):
    snap = snapshot_of(tmp_path, "jcl")
    load_index(snap).close()
    index_path(snap.tree_hash).write_bytes(b"not sqlite")
    assert open_cached(snap.tree_hash) is None
    rebuilt = load_index(snap)
    assert rebuilt.cached is False and rebuilt.counts()["files"] == 3
    rebuilt.close()


def test_an_index_of_another_schema_is_rebuilt(tmp_path):
    import sqlite3

    snap = snapshot_of(tmp_path, "jcl")
    load_index(snap).close()
    older = str(SCHEMA_VERSION - 1)
    with sqlite3.connect(index_path(snap.tree_hash)) as conn:  # as an index written before this schema would say
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (older,))
    conn.close()
    assert open_cached(snap.tree_hash) is None
    rebuilt = load_index(snap)
    assert rebuilt.cached is False and rebuilt.meta["schema_version"] == str(SCHEMA_VERSION)
    assert rebuilt.lines("jcl/ACCTJOB.jcl", 1, 1) and rebuilt.search("EXEC")
    rebuilt.close()


def test_one_parse_worker_per_cpu_by_default():
    import os

    assert default_workers() == len(os.sched_getaffinity(0)) >= 1


def test_the_worker_pool_kills_a_hanging_parse_and_goes_on():
    # an unpadded `x` sends the COBOL grammar into an endless loop in C code
    started = time.monotonic()
    results = dict(
        run_timed(
            raw_cobol_parse,
            [("hang", ("x",), 1.0), ("fine", ("x\n        \n",), 10.0), ("also", ("y\n        \n",), 10.0)],
            workers=1,
        )
    )
    assert isinstance(results["hang"], TimedOut) and results["hang"].seconds == 1.0
    assert results["fine"] == "start" and results["also"] == "start"
    assert time.monotonic() - started < 30  # generous: the point is that it returns at all


def test_a_file_that_hangs_the_grammar_is_indexed_lexically_and_marked(tmp_path):
    hang = b"000100 IDENTIFICATION DIVISION.\n000200 PROGRAM-ID. HANGER.\n000300 PROCEDURE DIVISION.\n000400 MAIN-PARA.\n000500     PERFORM SUB-PARA.\n000600 SUB-PARA.\n000700     STOP RUN.\nx"
    snap = snapshot_of(tmp_path, "cobol", extra={"cobol/HANG2.cbl": hang})
    started = time.monotonic()
    build_index(snap, time_limit=lambda text: 1.5, parse=parse_hanging_on_hang_files)
    idx = open_cached(snap.tree_hash)
    assert time.monotonic() - started < 30
    status = {f.path: (f.status, f.note) for f in idx.files()}
    assert status["cobol/HANG1.cbl"] == ("timeout", "parse exceeded 1.5 s; indexed lexically")
    assert status["cobol/HANG2.cbl"][0] == "timeout"
    assert status["cobol/ACCTUPD.cbl"][0] == "errors"  # the other files are unaffected
    paras = [(s.name, s.start_line, s.end_line, s.source) for s in idx.definitions(kind="paragraph", path="cobol/HANG2.cbl")]
    assert paras == [("MAIN-PARA", 4, 5, "lexical"), ("SUB-PARA", 6, 8, "lexical")]
    assert idx.counts()["timeouts"] == 2
    idx.close()


def test_one_byte_and_short_last_line_files_index_with_the_real_parser(tmp_path):
    # padding plus pre-processing keep the grammar out of its loop; the time limit is the backstop
    snap = snapshot_of(tmp_path, "cobol")
    started = time.monotonic()
    idx = load_index(snap)
    assert time.monotonic() - started < 60
    status = {f.path: f.status for f in idx.files()}
    assert status["cobol/HANG1.cbl"] in ("ok", "errors", "timeout")
    assert status["cobol/SHORTEND.cbl"] in ("ok", "errors", "timeout")
    assert [s.name for s in idx.definitions(kind="paragraph", path="cobol/SHORTEND.cbl")] == ["MAIN-PARA"]
    idx.close()


def test_cli_index_prints_counts_then_cached(tmp_path, monkeypatch):
    runner = CliRunner()
    corpus = FIXTURES / "jcl"
    first = runner.invoke(app, ["corpus", "index", str(corpus)])
    assert first.exit_code == 0, first.output
    assert "(built): 3 files, 16 definitions, 7 references, 0 timeouts, 3 lexical only" in first.output
    second = runner.invoke(app, ["corpus", "index", str(corpus)])
    assert "(cached): 3 files, 16 definitions, 7 references" in second.output
    missing = runner.invoke(app, ["corpus", "index", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "Traceback" not in missing.output


def test_an_interrupted_build_leaves_nothing_behind(tmp_path):
    snap = snapshot_of(tmp_path, "jcl", "cobol")

    def interrupt(text: str) -> float:
        raise KeyboardInterrupt  # as if the user pressed Ctrl-C while the build was under way

    with pytest.raises(KeyboardInterrupt):
        build_index(snap, time_limit=interrupt)
    folder = index_path(snap.tree_hash).parent
    assert not index_path(snap.tree_hash).exists()
    assert [p.name for p in folder.iterdir() if snap.tree_hash in p.name] == []
    assert open_cached(snap.tree_hash) is None


def test_a_changed_extractor_means_a_rebuild(tmp_path, monkeypatch):
    snap = snapshot_of(tmp_path, "jcl")
    load_index(snap).close()
    import groundjudge.grounding.index.build as build

    monkeypatch.setattr(build, "extractor_fingerprint", lambda: "another extractor")
    assert open_cached(snap.tree_hash) is None
    again = load_index(snap)
    assert again.cached is False and again.meta["extractor"] == "another extractor"
    again.close()


@pytest.mark.parametrize(
    ("cached", "changed", "moved"),
    [
        (False, "ACCTUPD.cbl", b"changed"),
        (True, "ACCTUPD.cbl", b"changed"),
        # no longer UTF-8: the worker parsing it fails before the main process re-hashes it
        (False, "ACCTUPD.cbl", b"\xff\xfe changed"),
        (False, "data.bin", b"\x00 other bytes"),  # a binary file is never parsed, but is verified all the same
    ],
)
def test_index_by_name_refuses_a_moved_corpus_built_or_cached(tmp_path, cached, changed, moved):
    # the CLI loads a stored snapshot unverified and lets load_index re-hash it (during a build, as the main
    # process reads each file while the workers parse); a changed object must still stop it, naming the
    # file, and a stopped build leaves no index behind
    from groundjudge.grounding.snapshot import _object_path, snapshot_directory

    shutil.copytree(FIXTURES / "cobol", tmp_path / "src" / "cobol")
    (tmp_path / "src" / "note.txt").write_text(f"a tree of its own ({cached} {moved!r})\n")  # no other test's index fits it
    (tmp_path / "src" / "data.bin").write_bytes(b"\x00\x01 binary")
    snap = snapshot_directory(tmp_path / "src", name="moving")
    assert open_cached(snap.tree_hash) is None
    if cached:
        load_index(snap).close()
    entry = next(e for e in snap.files if e.path.endswith(changed))
    _object_path(entry.sha256).write_bytes(moved)
    result = CliRunner().invoke(app, ["corpus", "index", "moving"])
    assert result.exit_code == 2, result.output
    assert f"({entry.path} in snapshot moving) is damaged (sha256 mismatch)" in result.output
    assert index_path(snap.tree_hash).exists() is cached
    assert [p.name for p in index_path(snap.tree_hash).parent.iterdir() if p.name.endswith(".tmp")] == []


def test_the_pool_runs_the_callers_work_while_the_workers_parse():
    # idle() is called only while no result is ready, one step per call, until it says it has nothing left
    steps = []

    def idle() -> bool:
        if len(steps) == 3:
            return False
        steps.append(len(steps))
        return True

    tasks = [(k, (f"x{k}\n        \n",), 10.0) for k in range(4)]
    results = dict(run_timed(raw_cobol_parse, tasks, workers=2, idle=idle))
    assert results == {0: "start", 1: "start", 2: "start", 3: "start"}
    assert steps == [0, 1, 2]


def test_a_manifest_whose_line_counts_are_wrong_is_refused(tmp_path):
    from groundjudge.errors import UserError
    from groundjudge.grounding.snapshot import Snapshot

    snap = snapshot_of(tmp_path, "jcl", extra={"own.txt": b"a tree no other test indexes\n"})
    manifest = snap.manifest.model_copy(deep=True)
    manifest.files[0].lines += 1
    with pytest.raises(UserError, match=f"lists {manifest.files[0].lines} lines for this file") as err:
        build_index(Snapshot(manifest))
    assert manifest.files[0].path in str(err.value)
    assert not index_path(snap.tree_hash).exists()


def test_free_format_cobol_is_searched_on_whole_lines_and_noted(tmp_path):
    snap = snapshot_of(tmp_path, extra={"src/FREEPGM.cob": FREE_FORMAT.encode()})
    with load_index(snap) as index:
        assert [(p, n) for p, n, _ in index.search("FIXED FORMAT STOPS")] == [("src/FREEPGM.cob", 13)]
        assert index.file_info("src/FREEPGM.cob").note == "free-format source: paragraph names are read from columns 1-4"
