"""Blind-cell verdicts on streams shaped like real agent captures (fixtures: see the README beside
them for the version of each format they follow): informational events, refused calls, tools that
reach the source, per-turn completeness, encodings, memory."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from groundjudge.validation.blind import AnswerStatus, check_answer
from groundjudge.validation.events import ToolKind, classify_tool, parse_events, tables

EVENTS = Path(__file__).parent / "fixtures" / "validation" / "events"


def _check(stream):
    return check_answer("notools-nosrc", "Q1", stream, blind=True)


def _calls(stream):
    return [(c.name, c.kind, c.denied) for c in stream.calls]


# Informational events --------------------------------------------------------------------------


def test_claude_informational_events_leave_a_clean_answer_clean():
    path = EVENTS / "claude_2.1.45_informational_clean.jsonl"
    s = parse_events(path)
    assert (s.problems, s.calls, s.turns, s.complete) == ([], [], 1, True)
    assert s.warnings == [f"{path}:12: event type 'session_heartbeat' ignored (not known to this parser)"]
    check = _check(s)
    assert (check.status, check.reason, check.violations) == (AnswerStatus.CLEAN, "", "")
    assert "session_heartbeat" in check.warnings


def test_codex_plan_items_deltas_and_user_input_requests_are_not_calls():
    path = EVENTS / "codex_exec_08a1f30_informational_clean.jsonl"
    s = parse_events(path)
    assert (s.format, s.problems, s.calls, s.complete) == ("codex", [], [], True)
    assert s.warnings == [f"{path}:10: event type 'thread.compacted' ignored (not known to this parser)"]
    assert _check(s).status is AnswerStatus.CLEAN


def test_an_unknown_event_or_block_that_may_carry_a_tool_call_is_a_problem(tmp_path):
    path = tmp_path / "q.jsonl"
    lines = (EVENTS / "claude_2.1.45_informational_clean.jsonl").read_text().splitlines()
    lines.insert(5, json.dumps({"type": "remote_tool_call", "name": "Read", "input": {"file_path": "a.cbl"}}))
    lines.insert(
        6,
        json.dumps(
            {"type": "assistant", "message": {"content": [{"type": "future_tool_use", "id": "x", "name": "Read", "input": {}}]}}
        ),
    )
    lines.insert(7, json.dumps({"type": "system", "subtype": "sandbox_notice", "text": "network off"}))
    path.write_text("\n".join(lines) + "\n")
    s = parse_events(path)
    assert s.problems == [
        f"{path}:6: event type 'remote_tool_call' may carry a tool call this parser cannot read",
        f"{path}:7: assistant content block 'future_tool_use' may carry a tool call this parser cannot read",
    ]
    assert f"{path}:8: system event subtype 'sandbox_notice' ignored (not known to this parser)" in s.warnings
    assert _check(s).status is AnswerStatus.UNVERIFIED


def test_an_unknown_codex_item_is_a_problem_only_if_it_looks_like_a_tool_call(tmp_path):
    path = tmp_path / "q.jsonl"
    events = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "image_view", "path": "/tmp/screen.png"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "context_summary", "text": "..."}},
        {"type": "turn.completed", "usage": {}},
    ]
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    s = parse_events(path)
    assert s.problems == []
    assert len(s.warnings) == 2 and _check(s).status is AnswerStatus.CLEAN
    events[2]["item"] = {"id": "item_0", "type": "shell_call", "command": ["cat", "a.cbl"], "status": "completed"}
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert parse_events(path).problems == [
        f"{path}:3: Codex item type 'shell_call' may carry a tool call this parser cannot read"
    ]


# Refused calls do not void ----------------------------------------------------------------------


def test_claude_calls_refused_by_rules_and_missing_tools_did_not_run():
    s = parse_events(EVENTS / "claude_2.1.45_refused_calls.jsonl")
    assert s.problems == [] and s.warnings == []
    assert _calls(s) == [("Read", ToolKind.FILE, True), ("Bash", ToolKind.SHELL, True), ("Grep", ToolKind.SEARCH, True)]
    check = _check(s)
    assert (check.status, check.forbidden_calls, check.denied_calls) == (AnswerStatus.CLEAN, 3, 3)


def _rewrite(path: Path, out: Path, edit) -> Path:
    events = [json.loads(line) for line in path.read_text().splitlines()]
    edit(events)
    out.write_text("".join(json.dumps(e) + "\n" for e in events))
    return out


def _result_of(events, tool_use_id):
    return next(b for e in events if e["type"] == "user" for b in e["message"]["content"] if b.get("tool_use_id") == tool_use_id)


def test_a_denial_without_tool_use_id_matches_a_call_that_did_not_return_normally(tmp_path):
    def hook_message(events):  # the refusal text is one this parser does not know: the denial list decides
        _result_of(events, "toolu_03")["content"] = "Blocked by the blind-cell hook."

    s = parse_events(_rewrite(EVENTS / "claude_2.1.45_refused_calls.jsonl", tmp_path / "a.jsonl", hook_message))
    assert _calls(s)[2] == ("Grep", ToolKind.SEARCH, True) and _check(s).status is AnswerStatus.CLEAN

    def grep_ran(events):
        result = _result_of(events, "toolu_03")
        result["content"], result["is_error"] = "app/cbl/CBACT01C.cbl", False

    s = parse_events(_rewrite(EVENTS / "claude_2.1.45_refused_calls.jsonl", tmp_path / "b.jsonl", grep_ran))
    assert _calls(s)[2] == ("Grep", ToolKind.SEARCH, False)
    assert _check(s).status is AnswerStatus.VOID
    assert any("matches no call" in w for w in s.warnings)


def test_an_error_that_is_not_a_refusal_means_the_call_ran(tmp_path):
    def ran_with_errors(events):
        _result_of(events, "toolu_01")["content"] = "<tool_use_error>File does not exist.</tool_use_error>"
        # A command's output quoting a refusal message is still the output of a command that ran.
        _result_of(events, "toolu_02")["content"] = "Exit code 1\nError: No such tool available: Bash"
        events[-1]["permission_denials"] = []

    s = parse_events(_rewrite(EVENTS / "claude_2.1.45_refused_calls.jsonl", tmp_path / "q.jsonl", ran_with_errors))
    assert _calls(s)[:2] == [("Read", ToolKind.FILE, False), ("Bash", ToolKind.SHELL, False)]
    assert _check(s).reason == "tool calls: Bash (shell) x1, Read (file) x1"


def test_a_permission_prompt_denied_over_stdio_did_not_run():
    s = parse_events(EVENTS / "claude_2.1.45_permission_prompt_stdio.jsonl")
    assert (s.problems, s.warnings) == ([], [])
    assert _calls(s) == [("Read", ToolKind.FILE, True)]
    assert _check(s).status is AnswerStatus.CLEAN


def test_codex_declined_command_and_failed_file_change_did_not_run():
    s = parse_events(EVENTS / "codex_exec_08a1f30_declined.jsonl")
    assert s.problems == []
    assert _calls(s) == [("command_execution", ToolKind.SHELL, True), ("file_change", ToolKind.FILE, True)]
    assert _check(s).status is AnswerStatus.CLEAN


def test_a_codex_command_started_and_never_finished_ran(tmp_path):
    def cut(events):
        del events[3:5]  # the completed command and the file change

    s = parse_events(_rewrite(EVENTS / "codex_exec_08a1f30_declined.jsonl", tmp_path / "q.jsonl", cut))
    assert _calls(s) == [("command_execution", ToolKind.SHELL, False)] and _check(s).status is AnswerStatus.VOID


# Tools that reach the source ---------------------------------------------------------------------


def test_server_tools_mcp_browser_and_process_tools_and_lsp_void_the_answer():
    s = parse_events(EVENTS / "claude_2.1.45_reaching_tools.jsonl")
    assert (s.problems, s.warnings) == ([], [])
    assert _calls(s) == [
        ("web_search", ToolKind.WEB, False),
        ("ToolSearch", ToolKind.OTHER, False),
        ("mcp__puppeteer__puppeteer_navigate", ToolKind.WEB, False),
        ("mcp__desktop-commander__start_process", ToolKind.SHELL, False),
        ("LSP", ToolKind.FILE, False),
    ]
    check = _check(s)
    assert check.status is AnswerStatus.VOID and check.forbidden_calls == 4


def test_codex_mcp_calls_are_classified_by_server_and_tool():
    s = parse_events(EVENTS / "codex_exec_08a1f30_mcp_filesystem.jsonl")
    assert _calls(s) == [("mcp:filesystem/list_allowed_directories", ToolKind.FILE, False)]
    assert _check(s).reason == "tool calls: mcp:filesystem/list_allowed_directories (file) x1"


@pytest.mark.parametrize(
    "name, server, kind",
    [
        # The same MCP tool is one kind under Claude Code's name and Codex's server/tool pair.
        ("mcp__filesystem__list_allowed_directories", None, ToolKind.FILE),
        ("list_allowed_directories", "filesystem", ToolKind.FILE),
        ("mcp__desktop-commander__start_process", None, ToolKind.SHELL),
        ("start_process", "desktop_commander", ToolKind.SHELL),
        ("mcp__desktop-commander__read_file", None, ToolKind.FILE),
        ("mcp__desktop-commander__get_config", None, ToolKind.OTHER),
        ("puppeteer_navigate", "puppeteer", ToolKind.WEB),
        ("mcp__plugin_playwright_playwright__browser_navigate", None, ToolKind.WEB),
        ("lookup_glossary", "docs", ToolKind.OTHER),
        ("ToolSearch", None, ToolKind.OTHER),
        ("tool_search_tool_regex", None, ToolKind.OTHER),
        ("LSP", None, ToolKind.FILE),
        ("KillShell", None, ToolKind.OTHER),
        ("web_fetch", None, ToolKind.WEB),
        ("code_execution", None, ToolKind.SHELL),
    ],
)
def test_tools_are_classified_from_the_table(name, server, kind):
    assert classify_tool(name, server) is kind


def test_the_table_names_only_known_kinds_and_its_refusals_compile():
    t = tables()
    assert t.claude_refusal.match("<tool_use_error>Error: No such tool available: Bash</tool_use_error>")
    assert not t.claude_refusal.match("Exit code 1\nNo such tool available: Bash")
    assert set(t.servers.values()) | set(t.tools.values()) <= set(ToolKind)


def test_missing_denial_lists_only_tools_that_reach_the_source():
    informational = _check(parse_events(EVENTS / "claude_2.1.45_informational_clean.jsonl"))
    assert informational.violations == ""  # ToolSearch, KillShell, BashOutput, AskUserQuestion were available
    reaching = _check(parse_events(EVENTS / "claude_2.1.45_reaching_tools.jsonl"))
    assert reaching.violations == (
        "LSP (file) was available, not denied; "
        "mcp__desktop-commander__start_process (shell) was available, not denied; "
        "mcp__puppeteer__puppeteer_navigate (web) was available, not denied"
    )


# Every turn needs its own end --------------------------------------------------------------------


def test_a_crashed_later_claude_turn_makes_the_stream_incomplete():
    path = EVENTS / "claude_2.1.45_second_turn_crashed.jsonl"
    s = parse_events(path)
    assert (s.turns, s.complete) == (1, False)
    assert s.problems == [f"{path}:4: the turn starting here has no result event (the agent stopped before finishing)"]
    assert _check(s).status is AnswerStatus.UNVERIFIED


def test_a_crashed_resumed_codex_turn_makes_the_stream_incomplete():
    path = EVENTS / "codex_exec_08a1f30_resume_crashed.jsonl"
    s = parse_events(path)
    assert (s.turns, s.complete) == (1, False)
    assert s.problems == [
        f"{path}:5: the turn starting here has no turn.completed or turn.failed event (the agent stopped before finishing)"
    ]


def test_a_crashed_first_turn_is_not_covered_by_a_later_turns_end(tmp_path):
    lines = (EVENTS / "claude_2.1.45_second_turn_crashed.jsonl").read_text().splitlines()
    first_turn_cut = lines[:2] + lines[3:5] + [lines[2]]  # init, text, [no result], init, Task call, result
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(first_turn_cut) + "\n")
    s = parse_events(path)
    assert s.problems == [f"{path}:1: the turn starting here has no result event (the agent stopped before finishing)"]
    assert (s.turns, s.complete) == (1, False)


def test_informational_events_after_the_last_result_do_not_open_a_turn(tmp_path):
    lines = (EVENTS / "claude_clean.jsonl").read_text().splitlines()
    rate = json.dumps({"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"}, "uuid": "u"})
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join([*lines, rate]) + "\n")
    s = parse_events(path)
    assert (s.problems, s.complete) == ([], True)


# Encodings ---------------------------------------------------------------------------------------


def test_a_utf8_bom_and_crlf_line_ends_are_accepted(tmp_path):
    path = tmp_path / "q.jsonl"
    text = (EVENTS / "claude_2.1.45_informational_clean.jsonl").read_text()
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    s = parse_events(path)
    assert (s.problems, _check(s).status) == ([], AnswerStatus.CLEAN)


def test_unicode_line_separators_inside_strings_do_not_split_lines(tmp_path):
    lines = (EVENTS / "claude_2.1.45_refused_calls.jsonl").read_text().splitlines()
    # Node's JSON.stringify writes U+2028, U+2029 and U+0085 raw; str.splitlines() would break there.
    lines[1] = lines[1].replace('"input":{', '"input":{"note":"a\u2028b\u0085c\u2029d",', 1)
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    s = parse_events(path)
    assert s.problems == []
    assert [c.line for c in s.calls] == [2, 4, 6]  # line numbers do not drift


def test_a_utf16_capture_is_refused_with_a_reason(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_bytes((EVENTS / "claude_clean.jsonl").read_text().encode("utf-16"))  # with a BOM, as PowerShell writes
    s = parse_events(path)
    assert s.problems == [f"{path}: UTF-16 text (a PowerShell capture?): write the stream as UTF-8"]
    assert _check(s).status is AnswerStatus.UNVERIFIED
    assert s.sha256 is not None  # still recorded in blind.json, so a re-encoded stream is noticed


def test_a_line_that_is_not_utf8_is_a_problem_on_that_line(tmp_path):
    path = tmp_path / "q.jsonl"
    lines = (EVENTS / "claude_clean.jsonl").read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b"CBACT01C", b"CBACT\xff01C")
    path.write_bytes(b"\n".join(lines))
    assert parse_events(path).problems == [f"{path}:2: not UTF-8 text"]


def test_problems_beyond_the_listed_ones_are_counted(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text("not json\n" * 100)
    s = parse_events(path)
    assert (len(s.problems), s.problem_count) == (20, 100)
    check = _check(s)
    assert "80 more problems not listed" in check.problems and "100 problems" in check.reason


# Memory --------------------------------------------------------------------------------------------


def test_a_large_stream_is_read_without_holding_it(tmp_path):
    path = tmp_path / "big.jsonl"
    result_line = json.dumps(
        {
            "type": "user",
            "message": {"role": "user", "content": [{"tool_use_id": "toolu_0", "type": "tool_result", "content": "x" * 20_000}]},
        }
    )
    with path.open("w") as fh:
        fh.write((EVENTS / "claude_clean.jsonl").read_text().splitlines()[0] + "\n")
        for _ in range(1_000):
            fh.write(result_line + "\n")
        fh.write((EVENTS / "claude_clean.jsonl").read_text().splitlines()[-1] + "\n")
    size = path.stat().st_size
    tracemalloc.start()
    s = parse_events(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert s.problems == [] and size > 20_000_000
    assert peak < size / 20


def test_blank_lines_leading_blanks_and_trailing_garbage(tmp_path):
    lines = (EVENTS / "claude_clean.jsonl").read_text().splitlines()
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(["", "  " + lines[0], "   ", lines[1] + " {}", lines[2]]) + "\n")
    s = parse_events(path)
    assert s.problems == [f"{path}:4: not JSON (Extra data: column {len(lines[1]) + 2})"]
    assert s.complete


def test_an_escaped_lone_surrogate_is_json(tmp_path):
    # Node's JSON.stringify escapes a lone surrogate (broken UTF-16 in a tool's output) as \udc80.
    lines = (EVENTS / "claude_clean.jsonl").read_text().splitlines()
    lines[1] = lines[1].replace("CBACT01C reads", "CBACT01C \\udc80 reads", 1)
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert parse_events(path).problems == []
