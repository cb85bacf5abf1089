"""Agent event streams: which tools an answering agent called. Formats (docs/formats/events.md):

- Claude Code ``--output-format stream-json``: ``tool_use`` blocks in ``assistant`` messages, the
  ``system``/``init`` event's available ``tools``, the ``result`` event's ``permission_denials``;
- Codex ``exec --json``: ``item.started``/``item.completed`` events whose item is a command execution,
  file change, MCP tool call or web search;
- generic JSONL: ``{"type": "tool_call", "name", "args"}``, plus optional ``{"type": "workdir",
  "entries": [...]}`` and ``{"type": "denied_tools", "tools": [...]}``.

The format is detected per file from its first recognisable line. A line that is not JSON, or that
does not belong to the detected format, is kept as a problem naming the file and line number: a
stream we could not fully read cannot vouch that no tool was used.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

FORBIDDEN = ("file", "search", "shell", "web")

_KNOWN_TOOLS = {
    "Read": "file", "Write": "file", "Edit": "file", "MultiEdit": "file", "NotebookEdit": "file",
    "NotebookRead": "file", "LS": "file",
    "Glob": "search", "Grep": "search",
    "Bash": "shell", "BashOutput": "shell", "KillShell": "shell", "KillBash": "shell",
    "WebFetch": "web", "WebSearch": "web",
    "Task": "agent", "Agent": "agent", "TodoWrite": "other", "TodoRead": "other", "ExitPlanMode": "other",
    # Codex item types that are tool calls.
    "command_execution": "shell", "file_change": "file", "web_search": "web",
}
# For tools we do not know by name (MCP servers, other agents), the words in the name decide; web is
# checked before search so that "web_search" is a web tool.
_WORDS = (
    ("web", {"web", "fetch", "http", "https", "url", "browse", "browser", "curl", "wget"}),
    ("shell", {"bash", "shell", "exec", "execute", "command", "terminal", "run", "sh", "zsh", "cmd"}),
    ("search", {"grep", "glob", "search", "find", "rg", "ripgrep"}),
    ("file", {"read", "write", "edit", "file", "files", "ls", "dir", "directory", "filesystem", "open", "cat", "view", "tree"}),
)
_CLAUDE_TYPES = {"system", "assistant", "user", "result", "stream_event"}
_CODEX_TYPES = {"thread.started", "turn.started", "turn.completed", "turn.failed", "item.started", "item.updated", "item.completed", "error"}
_GENERIC_TYPES = {"tool_call", "workdir", "denied_tools"}
_CODEX_NON_TOOL_ITEMS = {"agent_message", "reasoning", "todo_list", "error"}


def classify_tool(name: str) -> str:
    """file | search | shell | web (forbidden in a blind cell), or agent | other."""
    if name in _KNOWN_TOOLS:
        return _KNOWN_TOOLS[name]
    words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)}
    for category, vocabulary in _WORDS:
        if words & vocabulary:
            return category
    return "other"


@dataclass(frozen=True)
class ToolCall:
    name: str
    category: str
    line: int
    denied: bool = False  # the agent asked and the harness refused: the tool never ran


@dataclass
class EventStream:
    path: Path
    format: str = "unknown"  # claude-code | codex | generic | unknown (no recognisable line)
    calls: list[ToolCall] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "path:line: problem"
    available_tools: list[str] | None = None  # Claude Code init event
    denied_tools: list[str] | None = None  # generic denied_tools event
    workdir_entries: list[str] | None = None  # generic workdir event
    complete: bool = True  # a final result / turn end was seen (generic streams have none)


def _detect(kind: str) -> str | None:
    if kind in _CLAUDE_TYPES:
        return "claude-code"
    if kind in _CODEX_TYPES:
        return "codex"
    if kind in _GENERIC_TYPES:
        return "generic"
    return None


def _claude(stream: EventStream, event: dict, number: int, denied_ids: set[str], call_ids: dict[str, int]) -> str | None:
    kind = event["type"]
    if kind == "system" and event.get("subtype") == "init":
        tools = event.get("tools")
        if isinstance(tools, list):
            stream.available_tools = [str(t) for t in tools]
    elif kind == "assistant":
        content = (event.get("message") or {}).get("content")
        if not isinstance(content, list):
            return "assistant event without a content list"
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                call_id = str(block.get("id", f"line{number}"))
                if call_id in call_ids:  # a message re-sent with the same block is one call
                    continue
                name = str(block.get("name", ""))
                call_ids[call_id] = len(stream.calls)
                stream.calls.append(ToolCall(name, classify_tool(name), number))
    elif kind == "result":
        stream.complete = True
        for denial in event.get("permission_denials") or []:
            if isinstance(denial, dict) and "tool_use_id" in denial:
                denied_ids.add(str(denial["tool_use_id"]))
    return None


def _codex(stream: EventStream, event: dict, number: int, seen_items: set[str]) -> str | None:
    kind = event["type"]
    if kind in ("turn.completed", "turn.failed"):
        stream.complete = True
    if not kind.startswith("item."):
        return None
    item = event.get("item")
    if not isinstance(item, dict) or "type" not in item:
        return f"{kind} event without an item"
    item_type = str(item["type"])
    if item_type in _CODEX_NON_TOOL_ITEMS:
        return None
    item_id = str(item.get("id", f"line{number}"))
    if item_id in seen_items:  # started, updated and completed events describe one call
        return None
    seen_items.add(item_id)
    if item_type == "mcp_tool_call":
        name = f"mcp:{item.get('server', '?')}/{item.get('tool', '?')}"
        stream.calls.append(ToolCall(name, classify_tool(str(item.get("tool", ""))), number))
    elif item_type in _KNOWN_TOOLS:
        stream.calls.append(ToolCall(item_type, _KNOWN_TOOLS[item_type], number))
    else:
        return f"unknown Codex item type {item_type!r}"
    return None


def _generic(stream: EventStream, event: dict, number: int) -> str | None:
    kind = event["type"]
    if kind == "tool_call":
        if not isinstance(event.get("name"), str):
            return "tool_call without a name"
        stream.calls.append(ToolCall(event["name"], classify_tool(event["name"]), number))
    elif kind == "workdir":
        if not isinstance(event.get("entries"), list):
            return "workdir event without an entries list"
        stream.workdir_entries = [str(e) for e in event["entries"]]
    elif kind == "denied_tools":
        if not isinstance(event.get("tools"), list):
            return "denied_tools event without a tools list"
        stream.denied_tools = [str(t) for t in event["tools"]]
    return None


def parse_events(path: str | Path) -> EventStream:
    path = Path(path)
    stream = EventStream(path=path)
    denied_ids: set[str] = set()
    call_ids: dict[str, int] = {}
    seen_items: set[str] = set()
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        stream.problems.append(f"{path}: not UTF-8 text")
        return stream
    except OSError as exc:
        stream.problems.append(f"{path}: cannot read ({exc.strerror})")
        return stream
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            stream.problems.append(f"{path}:{number}: not JSON ({exc.msg})")
            continue
        kind = event.get("type") if isinstance(event, dict) else None
        fmt = _detect(kind) if isinstance(kind, str) else None
        if fmt is None:
            stream.problems.append(f"{path}:{number}: unknown event (type {kind!r})")
            continue
        if stream.format == "unknown":
            stream.format = fmt
            stream.complete = fmt == "generic"
        if fmt != stream.format:
            stream.problems.append(f"{path}:{number}: {kind!r} is not a {stream.format} event")
            continue
        if stream.format == "claude-code":
            problem = _claude(stream, event, number, denied_ids, call_ids)
        elif stream.format == "codex":
            problem = _codex(stream, event, number, seen_items)
        else:
            problem = _generic(stream, event, number)
        if problem:
            stream.problems.append(f"{path}:{number}: {problem}")
    for call_id, index in call_ids.items():
        if call_id in denied_ids:
            c = stream.calls[index]
            stream.calls[index] = ToolCall(c.name, c.category, c.line, denied=True)
    if stream.format == "unknown" and not stream.problems:
        stream.problems.append(f"{path}: empty event stream")
    if not stream.complete:
        stream.problems.append(f"{path}: stream ends before the agent finished (no final result event)")
    return stream
