"""Agent event streams: which tools an answering agent called, and which of those calls ran.
Formats and what each event means for the verdict: docs/formats/events.md.

- Claude Code ``--output-format stream-json``: ``tool_use`` / ``server_tool_use`` / ``mcp_tool_use``
  blocks in ``assistant`` messages; a call's ``tool_result``, the ``result`` event's
  ``permission_denials`` and a denied ``control_response`` tell a refused call from one that ran;
- Codex ``exec --json``: items of ``item.started`` / ``item.updated`` / ``item.completed`` events
  (command executions, file changes, MCP tool calls, web searches), their last ``status`` deciding;
- generic JSONL: ``{"type": "tool_call", "name", "args"}``, plus optional ``{"type": "workdir",
  "entries": [...]}`` and ``{"type": "denied_tools", "tools": [...]}``.

Tool kinds, MCP servers, refusal messages and the known informational events are data
(``validation/streams.toml``), so that a new agent release is an edit there. The file is read line by
line in binary and split on ``\\n`` only: Node writes U+2028 and U+0085 raw inside strings, and a
capture can be hundreds of megabytes. A line that cannot be read, or a turn without its end event, is a
problem: such a stream cannot vouch that no tool ran. An event type nobody knows is only a warning,
unless it looks like it carries a tool call.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from pydantic_core import from_json

from groundjudge.storage import VersionedModel


class ToolKind(StrEnum):
    FILE = "file"
    SEARCH = "search"
    SHELL = "shell"
    WEB = "web"
    AGENT = "agent"
    OTHER = "other"


# Ordered: the denied-tool check of a generic stream reports missing kinds in this order.
FORBIDDEN = (ToolKind.FILE, ToolKind.SEARCH, ToolKind.SHELL, ToolKind.WEB)


class StreamFormat(StrEnum):
    CLAUDE_CODE = "claude-code"
    CODEX = "codex"
    GENERIC = "generic"
    UNKNOWN = "unknown"  # no line of a known format


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RefusalTable(_Section):
    claude: list[str]


class ClaudeTable(_Section):
    informational: list[str]
    system_subtypes: list[str]
    content_blocks: list[str]


class CodexTable(_Section):
    informational: list[str]
    items: list[str]


class StreamTables(VersionedModel):
    """``validation/streams.toml``."""

    schema_version: Literal[1] = 1
    tools: dict[str, ToolKind]
    mcp_servers: dict[str, ToolKind]
    mcp_tools: dict[str, ToolKind]
    words: dict[ToolKind, list[str]]
    refusals: RefusalTable
    claude: ClaudeTable
    codex: CodexTable


def _server_key(server: str) -> str:
    return server.lower().replace("_", "-")


def _matcher(patterns: list[str]) -> Callable[[str], bool]:
    compiled = re.compile("|".join(fnmatch.translate(p) for p in patterns))
    return lambda name: compiled.match(name) is not None


class _Tables:
    def __init__(self, table: StreamTables):
        self.tools = table.tools
        self.servers = {_server_key(k): v for k, v in table.mcp_servers.items()}
        self.server_tools = {
            f"{_server_key(server)}/{tool}": v for k, v in table.mcp_tools.items() for server, tool in [k.split("/", 1)]
        }
        self.words = [(kind, frozenset(words)) for kind, words in table.words.items()]
        # Anchored at the start of the error text, so that a command's output quoting a refusal
        # message does not pass for a refusal.
        self.claude_refusal = re.compile(
            r"\s*(?:<tool_use_error>)?\s*(?:Error: )?(?:" + "|".join(f"(?:{r})" for r in table.refusals.claude) + ")"
        )
        self.claude_informational = frozenset(table.claude.informational)
        self.claude_system = _matcher(table.claude.system_subtypes)
        self.claude_blocks = _matcher(table.claude.content_blocks)
        self.codex_informational = frozenset(table.codex.informational)
        self.codex_items = frozenset(table.codex.items)
        self.format_of = {
            **{t: StreamFormat.CLAUDE_CODE for t in ("system", "assistant", "user", "result", *self.claude_informational)},
            **{t: StreamFormat.CODEX for t in (*_CODEX_EVENTS, *self.codex_informational)},
            **{t: StreamFormat.GENERIC for t in ("tool_call", "workdir", "denied_tools")},
        }


_CODEX_ITEM_EVENTS = ("item.started", "item.updated", "item.completed")
_CODEX_EVENTS = ("thread.started", "turn.started", "turn.completed", "turn.failed", "error", *_CODEX_ITEM_EVENTS)


@cache
def tables() -> _Tables:
    # Beside this module, whatever the package is installed as.
    raw = resources.files(__package__).joinpath("streams.toml").read_bytes()
    return _Tables(StreamTables.model_validate(tomllib.loads(raw.decode("utf-8"))))


_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _kind_by_words(name: str) -> ToolKind | None:
    words = {w.lower() for w in _WORD.findall(name)}
    for kind, vocabulary in tables().words:
        if words & vocabulary:
            return kind
    return None


@lru_cache(maxsize=4096)
def classify_tool(name: str, server: str | None = None) -> ToolKind:
    """The kind of a tool: by name, or for an MCP tool (``server`` given, or a Claude Code name
    ``mcp__<server>__<tool>``) by server and tool together; an unknown name by its words."""
    t = tables()
    if server is None and name.startswith("mcp__"):
        server, _, tool = name[5:].partition("__")
        if tool:
            name = tool
        else:
            server = None
    if server is not None:
        key = _server_key(server)
        return (
            t.server_tools.get(f"{key}/{name}")
            or t.servers.get(key)
            or _kind_by_words(name)
            or _kind_by_words(server)
            or ToolKind.OTHER
        )
    return t.tools.get(name) or _kind_by_words(name) or ToolKind.OTHER


_TOOLISH_TYPE = re.compile(r"tool|_call|command|exec|search|fetch|patch|file_change|shell|browse")


def _carries_tool_call(value: Any, depth: int = 0) -> bool:
    """Whether an event or item we cannot read looks like it describes a tool call: then it may hide
    a forbidden one, and the stream cannot vouch for the answer."""
    if depth > 5:
        return False
    if isinstance(value, dict):
        kind = value.get("type")
        if isinstance(kind, str) and _TOOLISH_TYPE.search(kind) and not kind.endswith("_result"):
            return True
        if "tool_name" in value or "command" in value or ("name" in value and ("input" in value or "arguments" in value)):
            return True
        return any(_carries_tool_call(v, depth + 1) for v in value.values() if isinstance(v, (dict, list)))
    if isinstance(value, list):
        return any(_carries_tool_call(v, depth + 1) for v in value if isinstance(v, (dict, list)))
    return False


@dataclass(slots=True)
class ToolCall:
    name: str
    kind: ToolKind
    line: int
    denied: bool = False  # the harness refused the call: it never ran


# Problems beyond this many are counted, not listed: a corrupt capture can have millions.
MAX_LISTED = 20


@dataclass
class EventStream:
    path: Path
    format: StreamFormat = StreamFormat.UNKNOWN
    calls: list[ToolCall] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "path:line: problem", the first MAX_LISTED
    problem_count: int = 0
    warnings: list[str] = field(default_factory=list)  # informational: never make a stream unverified
    available_tools: list[str] | None = None  # Claude Code init events
    denied_tools: list[str] | None = None  # generic denied_tools event
    workdir_entries: list[str] | None = None  # generic workdir event
    turns: int = 0  # turns that reached their end event
    complete: bool = False  # every turn reached its end event (a generic stream has none: complete as written)
    sha256: str | None = None  # of the bytes read, None if the file could not be read to the end

    def problem(self, line: int | None, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_LISTED:
            self.problems.append(f"{self.path}:{line}: {text}" if line is not None else f"{self.path}: {text}")


class _Warnings:
    """One warning per distinct message, with the first line and how many lines said it."""

    def __init__(self) -> None:
        self.seen: dict[str, list[int]] = {}

    def add(self, line: int, text: str) -> None:
        entry = self.seen.get(text)
        if entry is None:
            self.seen[text] = [line, 1]
        else:
            entry[1] += 1

    def render(self, path: Path) -> list[str]:
        return [f"{path}:{line}: {text}" + (f" ({n} lines)" if n > 1 else "") for text, (line, n) in self.seen.items()]


class _Turns:
    """Every turn needs its own end event: a multi-turn file whose last turn crashed is incomplete,
    whatever the earlier turns say."""

    def __init__(self) -> None:
        self.open_at: int | None = None
        self.prompted = False  # Codex: turn.started seen in the open turn
        self.ended = 0
        self.unfinished: list[int] = []

    def begin(self, line: int, prompted: bool = False) -> None:
        if self.open_at is not None:
            self.unfinished.append(self.open_at)
        self.open_at, self.prompted = line, prompted

    def ensure_open(self, line: int) -> None:
        if self.open_at is None:
            self.begin(line, prompted=True)

    def end(self) -> None:
        if self.open_at is not None:
            self.ended += 1
        self.open_at = None

    def finish(self, stream: EventStream, end_event: str) -> None:
        if self.open_at is not None:
            self.unfinished.append(self.open_at)
        for line in self.unfinished:
            stream.problem(line, f"the turn starting here has no {end_event} event (the agent stopped before finishing)")
        if not self.ended and not self.unfinished:
            stream.problem(None, f"no turn in the stream (no {end_event} event)")
        stream.turns = self.ended
        stream.complete = bool(self.ended) and not self.unfinished


def _unreadable(stream: EventStream, warnings: _Warnings, value: Any, line: int, what: str) -> None:
    """Something this parser does not know: a problem if it may be a tool call, else a warning."""
    if _carries_tool_call(value):
        stream.problem(line, f"{what} may carry a tool call this parser cannot read")
    else:
        warnings.add(line, f"{what} ignored (not known to this parser)")


class _Parser:
    def __init__(self, stream: EventStream, warnings: _Warnings):
        self.stream, self.warnings, self.t = stream, warnings, tables()

    def unreadable(self, value: Any, line: int, what: str) -> None:
        _unreadable(self.stream, self.warnings, value, line, what)

    def feed(self, event: dict, kind: str, line: int) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        raise NotImplementedError


# What a Claude Code tool_result says about its call.
_RAN, _FAILED, _REFUSED = "ran", "failed", "refused"


def _input_digest(value: Any) -> str:
    return hashlib.blake2b(json.dumps(value, sort_keys=True, default=str).encode(), digest_size=16).hexdigest()


def _content(event: dict) -> Any:
    message = event.get("message")
    return message.get("content") if isinstance(message, dict) else None


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                return block["text"]
    return ""


class _Claude(_Parser):
    def __init__(self, stream: EventStream, warnings: _Warnings):
        super().__init__(stream, warnings)
        self.turns = _Turns()
        self.by_id: dict[str, int] = {}  # tool_use id -> index in stream.calls
        self.inputs: dict[str, str] = {}  # tool_use id -> digest of its input, to match a denial without an id
        self.results: dict[str, str] = {}  # tool_use id -> _RAN | _FAILED | _REFUSED
        self.denied_ids: set[str] = set()
        self.anonymous_denials: list[tuple[str, str | None, int]] = []  # (tool name, input digest, line)
        self.permission_requests: dict[str, str] = {}  # control request_id -> tool_use id

    def feed(self, event: dict, kind: str, line: int) -> None:
        if kind == "assistant":
            self.turns.ensure_open(line)
            self.assistant(event, line)
        elif kind == "user":
            self.user(event)
        elif kind == "result":
            self.turns.end()
            self.result(event, line)
        elif kind == "system":
            subtype = event.get("subtype")
            if subtype == "init":
                self.turns.begin(line)
                tools = event.get("tools")
                if isinstance(tools, list):
                    known = self.stream.available_tools or []
                    self.stream.available_tools = known + [str(t) for t in tools if str(t) not in known]
            elif not (isinstance(subtype, str) and self.t.claude_system(subtype)):
                self.unreadable(event, line, f"system event subtype {subtype!r}")
        elif kind == "control_request":
            request = event.get("request")
            if (
                isinstance(request, dict)
                and request.get("subtype") == "can_use_tool"
                and isinstance(request.get("tool_use_id"), str)
            ):
                self.permission_requests[str(event.get("request_id"))] = request["tool_use_id"]
        elif kind == "control_response":
            response = event.get("response")
            if isinstance(response, dict):
                answer = response.get("response")
                tool_use_id = self.permission_requests.get(str(response.get("request_id")))
                if tool_use_id is not None and isinstance(answer, dict) and answer.get("behavior") == "deny":
                    self.denied_ids.add(tool_use_id)

    def assistant(self, event: dict, line: int) -> None:
        content = _content(event)
        if not isinstance(content, list):
            self.stream.problem(line, "assistant event without a content list")
            return
        for position, block in enumerate(content):
            if not isinstance(block, dict):
                continue
            btype = block.get("type")
            if btype in ("tool_use", "server_tool_use", "mcp_tool_use"):
                name = block.get("name")
                if not isinstance(name, str):
                    self.stream.problem(line, f"{btype} block without a name")
                    continue
                call_id = str(block.get("id", f"line{line}.{position}"))
                if call_id in self.by_id:  # a message re-sent with the same block is one call
                    continue
                server = block.get("server_name") if btype == "mcp_tool_use" else None
                self.by_id[call_id] = len(self.stream.calls)
                self.inputs[call_id] = _input_digest(block.get("input"))
                self.stream.calls.append(ToolCall(name, classify_tool(name, server), line))
            elif not (isinstance(btype, str) and self.t.claude_blocks(btype)):
                self.unreadable(block, line, f"assistant content block {btype!r}")

    def user(self, event: dict) -> None:
        content = _content(event)
        if not isinstance(content, list):
            return  # a prompt, not tool results
        for block in content:
            if not (isinstance(block, dict) and block.get("type") == "tool_result"):
                continue
            if block.get("is_error") is not True:
                state = _RAN
            elif self.t.claude_refusal.match(_result_text(block.get("content"))):
                state = _REFUSED
            else:
                state = _FAILED
            self.results.setdefault(str(block.get("tool_use_id")), state)

    def result(self, event: dict, line: int) -> None:
        for denial in event.get("permission_denials") or []:
            if not isinstance(denial, dict):
                continue
            if isinstance(denial.get("tool_use_id"), str):
                self.denied_ids.add(denial["tool_use_id"])
            else:
                digest = _input_digest(denial["tool_input"]) if "tool_input" in denial else None
                self.anonymous_denials.append((str(denial.get("tool_name")), digest, line))

    def finish(self) -> None:
        calls = self.stream.calls
        for call_id, index in self.by_id.items():
            if call_id in self.denied_ids or self.results.get(call_id) == _REFUSED:
                calls[index].denied = True
        # A denial without a tool_use_id is matched to the first call of that tool (and input, if
        # given) not matched yet that did not return a normal result: a call that returned one ran,
        # whatever the list says.
        matched: set[str] = set()
        for name, digest, line in self.anonymous_denials:
            for call_id, index in self.by_id.items():
                call = calls[index]
                if (
                    call_id not in matched
                    and call.name == name
                    and self.results.get(call_id) != _RAN
                    and (digest is None or self.inputs[call_id] == digest)
                ):
                    matched.add(call_id)
                    call.denied = True
                    break
            else:
                self.warnings.add(line, f"denial of {name} without a tool_use_id matches no call that could have been refused")
        self.turns.finish(self.stream, "result")


class _Codex(_Parser):
    def __init__(self, stream: EventStream, warnings: _Warnings):
        super().__init__(stream, warnings)
        self.turns = _Turns()
        self.by_id: dict[str, int] = {}

    def feed(self, event: dict, kind: str, line: int) -> None:
        if kind == "thread.started":  # repeated by `codex exec resume`: a new turn follows
            self.turns.begin(line)
        elif kind == "turn.started":
            if self.turns.open_at is not None and not self.turns.prompted:
                self.turns.prompted = True
            else:
                self.turns.begin(line, prompted=True)
        elif kind in ("turn.completed", "turn.failed"):
            self.turns.end()
        elif kind in _CODEX_ITEM_EVENTS:
            self.turns.ensure_open(line)
            self.item(event, kind, line)

    def item(self, event: dict, kind: str, line: int) -> None:
        item = event.get("item")
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            self.stream.problem(line, f"{kind} event without an item type")
            return
        item_type = item["type"]
        if item_type in self.t.codex_items:
            return
        if item_type == "mcp_tool_call":
            server, tool = str(item.get("server", "?")), str(item.get("tool", "?"))
            name, tool_kind = f"mcp:{server}/{tool}", classify_tool(tool, server)
        elif item_type in self.t.tools:
            name, tool_kind = item_type, self.t.tools[item_type]
        else:
            self.unreadable(item, line, f"Codex item type {item_type!r}")
            return
        # The last event of an item decides: a command asked for approval and then declined never ran;
        # a declined file change is written `failed`, as is a patch that did not apply (nothing changed).
        status = item.get("status")
        refused = status == "declined" or (item_type == "file_change" and status == "failed")
        item_id = str(item.get("id", f"line{line}"))
        index = self.by_id.get(item_id)
        if index is None:
            self.by_id[item_id] = len(self.stream.calls)
            self.stream.calls.append(ToolCall(name, tool_kind, line, denied=refused))
        else:
            self.stream.calls[index].denied = refused

    def finish(self) -> None:
        self.turns.finish(self.stream, "turn.completed or turn.failed")


class _Generic(_Parser):
    def feed(self, event: dict, kind: str, line: int) -> None:
        stream = self.stream
        if kind == "tool_call":
            if not isinstance(event.get("name"), str):
                stream.problem(line, "tool_call without a name")
                return
            stream.calls.append(ToolCall(event["name"], classify_tool(event["name"]), line))
        elif kind == "workdir":
            if not isinstance(event.get("entries"), list):
                stream.problem(line, "workdir event without an entries list")
                return
            stream.workdir_entries = [str(e) for e in event["entries"]]
        elif kind == "denied_tools":
            if not isinstance(event.get("tools"), list):
                stream.problem(line, "denied_tools event without a tools list")
                return
            stream.denied_tools = [str(t) for t in event["tools"]]

    def finish(self) -> None:
        self.stream.complete = True


_PARSERS: dict[StreamFormat, type[_Parser]] = {
    StreamFormat.CLAUDE_CODE: _Claude,
    StreamFormat.CODEX: _Codex,
    StreamFormat.GENERIC: _Generic,
}
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_UTF8_BOM = b"\xef\xbb\xbf"
_SKIP = object()


def _read_slowly(stream: EventStream, raw: bytes, number: int) -> Any:
    """A line the fast parser refused: blank, not UTF-8, not JSON, or JSON holding an escaped lone
    surrogate (Node writes one for broken UTF-16 in a tool's output; jiter refuses it, json accepts it)."""
    try:
        text = raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        stream.problem(number, "not UTF-8 text")
        return _SKIP
    if not text.strip():
        return _SKIP
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        stream.problem(number, f"not JSON ({exc.msg}: column {exc.colno})")
        return _SKIP


def parse_events(path: str | Path) -> EventStream:
    """Read one event stream, a line at a time (the file is never held whole), hashing what it reads."""
    path = Path(path)
    stream = EventStream(path=path)
    warnings = _Warnings()
    parser: _Parser | None = None
    format_of = tables().format_of
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            if fh.peek(2)[:2] in _UTF16_BOMS:
                stream.problem(None, "UTF-16 text (a PowerShell capture?): write the stream as UTF-8")
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
                stream.sha256 = digest.hexdigest()
                return stream
            for number, raw in enumerate(fh, start=1):
                digest.update(raw)
                if number == 1 and raw.startswith(_UTF8_BOM):
                    raw = raw[len(_UTF8_BOM) :]
                try:
                    event = from_json(raw, cache_strings="keys")
                except ValueError:
                    event = _read_slowly(stream, raw, number)
                    if event is _SKIP:
                        continue
                kind = event.get("type") if isinstance(event, dict) else None
                if not isinstance(kind, str):
                    stream.problem(number, "not an event (no type)")
                    continue
                fmt = format_of.get(kind)
                if fmt is None:
                    _unreadable(stream, warnings, event, number, f"event type {kind!r}")
                    continue
                if parser is None:
                    stream.format = fmt
                    parser = _PARSERS[fmt](stream, warnings)
                elif fmt != stream.format:
                    stream.problem(number, f"{kind!r} is not a {stream.format} event")
                    continue
                parser.feed(event, kind, number)
    except OSError as exc:
        stream.problem(None, f"cannot read ({exc.strerror})")
        return stream
    stream.sha256 = digest.hexdigest()
    if parser is not None:
        parser.finish()
    elif not stream.problem_count:
        stream.problem(None, "no event of a known format" if warnings.seen else "empty event stream")
    stream.warnings = warnings.render(path)
    return stream
