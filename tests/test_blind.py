"""Blind-cell verification against hand-written event streams in the three formats."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _analysis_helpers import THREE_MEANS_CELL, write_run
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.errors import UserError
from groundjudge.storage import read_model
from groundjudge.validation.blind import BlindFile, check_answer, read_void_list, verify_run
from groundjudge.validation.events import classify_tool, parse_events

EVENTS = Path(__file__).parent / "fixtures" / "validation" / "events"


@pytest.mark.parametrize(
    "name, category",
    [
        ("Read", "file"),
        ("Grep", "search"),
        ("Glob", "search"),
        ("Bash", "shell"),
        ("WebFetch", "web"),
        ("WebSearch", "web"),
        ("TodoWrite", "other"),
        ("Task", "agent"),
        ("mcp__filesystem__read_text_file", "file"),
        ("web_search", "web"),
        ("list_directory", "file"),
        ("run_shell_command", "shell"),
        ("search_code", "search"),
        ("recall_notes", "other"),
        ("lookup_glossary", "other"),
    ],
)
def test_tools_are_classified_by_name(name, category):
    assert classify_tool(name) == category


def test_claude_stream_counts_tool_use_blocks_and_honours_denials():
    s = parse_events(EVENTS / "claude_void.jsonl")
    assert s.format == "claude-code" and s.problems == [] and s.complete
    assert [(c.name, c.kind, c.line, c.denied) for c in s.calls] == [
        ("Grep", "search", 2, False),
        ("Read", "file", 4, False),
        ("Bash", "shell", 4, True),
        ("TodoWrite", "other", 6, False),
    ]
    check = check_answer("nosrc", "Q1", s, blind=True)
    assert check.status == "void"
    assert (check.tool_calls, check.forbidden_calls, check.denied_calls) == (4, 3, 1)
    assert check.tools == "Bash=1;Grep=1;Read=1;TodoWrite=1"
    # The denied Bash call never ran, so it does not void the answer; the Grep and Read calls do.
    assert check.reason == "tool calls: Grep (search) x1, Read (file) x1"
    # Eight forbidden tools were left available in the init event: each is a violation.
    assert check.violations.count("was available, not denied") == 7 + 1


def test_claude_clean_stream_is_clean():
    s = parse_events(EVENTS / "claude_clean.jsonl")
    check = check_answer("nosrc", "Q1", s, blind=True)
    assert (check.status, check.tool_calls, check.violations, check.problems) == ("clean", 0, "", "")


def test_corrupt_and_unknown_lines_are_reported_with_file_and_line():
    path = EVENTS / "claude_truncated.jsonl"
    s = parse_events(path)
    assert s.problems == [
        f"{path}:3: not JSON (Unterminated string starting at: column 70)",
        f"{path}:1: the turn starting here has no result event (the agent stopped before finishing)",
    ]
    # An event type nobody knows is a warning: it is not what makes this stream unverified.
    assert s.warnings == [f"{path}:4: event type 'progress' ignored (not known to this parser)"]
    check = check_answer("nosrc", "Q1", s, blind=True)
    assert check.status == "unverified" and "2 problems" in check.reason


def test_codex_stream_counts_each_item_once():
    s = parse_events(EVENTS / "codex_void.jsonl")
    assert s.format == "codex" and s.problems == []
    assert [(c.name, c.kind, c.line) for c in s.calls] == [
        ("command_execution", "shell", 4),
        ("mcp:docs/lookup_glossary", "other", 6),
        ("web_search", "web", 7),
    ]
    check = check_answer("nosrc", "Q2", s, blind=True)
    assert check.status == "void" and check.reason == "tool calls: command_execution (shell) x1, web_search (web) x1"
    assert check_answer("nosrc", "Q2", parse_events(EVENTS / "codex_clean.jsonl"), blind=True).status == "clean"


def test_generic_stream_checks_workdir_and_denials():
    clean = check_answer("nosrc", "Q3", parse_events(EVENTS / "generic_clean.jsonl"), blind=True)
    assert (clean.status, clean.tool_calls, clean.violations) == ("clean", 1, "")
    bad = check_answer("nosrc", "Q3", parse_events(EVENTS / "generic_violation.jsonl"), blind=True)
    assert bad.status == "void" and bad.reason == "tool calls: list_directory (file) x1"
    assert bad.violations == (
        "working directory not empty (2 entries: CBACT01C.cbl, README.md); "
        "denied-tool list has no search tool; denied-tool list has no web tool"
    )


def test_no_stream_in_a_blind_cell_is_unverified_not_clean():
    assert check_answer("nosrc", "Q9", None, blind=True).status == "unverified"
    assert check_answer("src", "Q9", None, blind=False).status == "not_blind"


def test_mixed_formats_in_one_file_are_problems(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_text('{"type":"tool_call","name":"Read","args":{}}\n{"type":"turn.started"}\n')
    s = parse_events(path)
    assert s.format == "generic" and s.problems == [f"{path}:2: 'turn.started' is not a generic event"]


def _blind_run(root: Path) -> Path:
    write_run(root, {"src": THREE_MEANS_CELL, "nosrc": THREE_MEANS_CELL})
    for qid, fixture in (("Q1", "claude_void"), ("Q2", "codex_clean")):
        (root / "nosrc" / "events").mkdir(parents=True, exist_ok=True)
        shutil.copy(EVENTS / f"{fixture}.jsonl", root / "nosrc" / "events" / f"{qid}.jsonl")
    (root / "src" / "events").mkdir(parents=True)
    shutil.copy(EVENTS / "claude_void.jsonl", root / "src" / "events" / "Q1.jsonl")
    return root


def test_verify_run_voids_only_in_blind_cells(tmp_path):
    checks, blind = verify_run(_blind_run(tmp_path), ["nosrc*"])
    status = {(c.cell, c.qid): c.status for c in checks}
    assert status == {
        ("nosrc", "Q1"): "void",
        ("nosrc", "Q2"): "clean",
        ("nosrc", "Q3"): "unverified",
        ("src", "Q1"): "not_blind",
        ("src", "Q2"): "not_blind",
        ("src", "Q3"): "not_blind",
    }
    assert blind.blind_cells == ["nosrc"]
    assert [(v.cell, v.qid) for v in blind.void] == [("nosrc", "Q1")]
    assert [(v.cell, v.qid, v.reason) for v in blind.unverified] == [("nosrc", "Q3", "no event stream")]
    assert sorted(blind.event_files) == ["nosrc/events/Q1.jsonl", "nosrc/events/Q2.jsonl", "src/events/Q1.jsonl"]


def test_pattern_matching_no_cell_is_refused(tmp_path):
    with pytest.raises(UserError, match="matches no cell"):
        verify_run(_blind_run(tmp_path), ["blind-*"])


def test_blind_command_writes_csv_and_void_list_and_report_refuses_stale_streams(tmp_path):
    run = _blind_run(tmp_path)
    result = CliRunner().invoke(app, ["blind", str(run), "--blind-cells", "nosrc"])
    assert result.exit_code == 0, result.output
    assert "nosrc" in result.output
    lines = (run / "blind.csv").read_text().splitlines()
    assert (
        lines[0]
        == "cell,qid,blind,format,status,tool_calls,forbidden_calls,denied_calls,tools,violations,problems,reason,warnings"
    )
    assert lines[1].startswith("nosrc,Q1,True,claude-code,void,4,3,1,Bash=1;Grep=1;Read=1;TodoWrite=1,")
    cells = (run / "blind_cells.csv").read_text().splitlines()
    assert cells == [
        "cell,blind,answers,with_stream,tool_calls,violations,void,unverified,clean,tools",
        "nosrc,True,3,2,4,1,1,1,1,Bash=1;Grep=1;Read=1;TodoWrite=1",
        "src,False,3,1,4,0,0,0,0,Bash=1;Grep=1;Read=1;TodoWrite=1",
    ]
    blind = read_model(run / "blind.json", BlindFile)
    assert read_void_list(run)[0] == blind
    (run / "nosrc" / "events" / "Q2.jsonl").write_text('{"type":"tool_call","name":"Read","args":{}}\n')
    with pytest.raises(UserError, match="changed after the blind check"):
        read_void_list(run)


def test_empty_stream_and_repeated_tool_use_blocks(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    s = parse_events(empty)
    assert s.problems == [f"{empty}: empty event stream"]
    assert check_answer("nosrc", "Q1", s, blind=True).status == "unverified"
    repeated = tmp_path / "repeated.jsonl"
    block = (
        '{"type":"assistant","message":{"id":"msg_1","content":[{"type":"tool_use","id":"toolu_9","name":"Read","input":{}}]}}'
    )
    repeated.write_text(block + "\n" + block + '\n{"type":"result","subtype":"success","permission_denials":[]}\n')
    s = parse_events(repeated)
    assert [(c.name, c.line) for c in s.calls] == [("Read", 1)] and s.problems == []


def test_a_blind_file_made_by_another_checker_is_refused_not_reused(tmp_path):
    run = _blind_run(tmp_path)
    assert CliRunner().invoke(app, ["blind", str(run), "--blind-cells", "nosrc"]).exit_code == 0
    path = run / "blind.json"
    blind = read_model(path, BlindFile)
    assert blind.checker_sha256 and read_void_list(run)[0] == blind
    for stale in ("0" * 64, None):  # another parser version, and a file from before it was recorded
        path.write_text(blind.model_copy(update={"checker_sha256": stale}).model_dump_json())
        with pytest.raises(UserError, match="made by another version of the blind checker"):
            read_void_list(run)
    result = CliRunner().invoke(app, ["report", str(run), "--out", str(tmp_path / "report")])
    assert result.exit_code == 2 and "rerun `groundjudge blind`" in result.output
