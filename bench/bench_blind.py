"""Blind-check parser speed and memory: a 200 MB Claude Code event stream in under 3 s and 100 MB.

A stream shaped like a long `claude -p --output-format stream-json --verbose --include-partial-messages`
capture is generated into a temporary directory (not timed): many small `stream_event` deltas, assistant
messages with tool_use blocks, tool results of 2-40 kB (file contents), rate-limit and system events,
one turn ending in a result. Each measurement runs in a fresh process, which reports its wall and CPU
time and peak resident memory (ru_maxrss: interpreter and imports included). Timed: validation.events.parse_events
(decode, JSON, classify, hash). Baseline, measured in the same run: reading the same file line by line
in binary and doing nothing with the lines.

    .venv/bin/python bench/bench_blind.py [--mb 200]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_S, TARGET_MB = 3.0, 100.0

PARSE = """
import resource, sys, time
from groundjudge.validation.events import parse_events
t0, c0 = time.perf_counter(), time.process_time()
s = parse_events(sys.argv[1])
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
assert not s.problems, s.problems[:3]
print(wall, cpu, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, len(s.calls))
"""
BASELINE = """
import resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
n = 0
with open(sys.argv[1], "rb") as fh:
    for line in fh:
        n += 1
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(wall, cpu, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, n)
"""


def make_stream(path: Path, megabytes: int, seed: int = 7) -> int:
    """Write a one-turn Claude Code stream of about ``megabytes`` MB; returns its line count."""
    rng = random.Random(seed)
    session = "7b3c1f0e-5a1d-4f3e-9c1a-2d4e6f8a0b1c"
    source = (
        "       01  ACCOUNT-RECORD.\n           05  ACCT-ID            PIC 9(11).\n           05  ACCT-ACTIVE-STATUS PIC X(01).\n"
    )
    tools = ["Read", "Grep", "Bash", "Glob", "mcp__filesystem__read_text_file", "TodoWrite"]
    lines = 0
    with path.open("w", encoding="utf-8") as fh:

        def emit(event: dict) -> None:
            nonlocal lines
            fh.write(json.dumps(event, separators=(",", ":")) + "\n")
            lines += 1

        emit(
            {
                "type": "system",
                "subtype": "init",
                "cwd": "/tmp/carddemo",
                "session_id": session,
                "tools": tools,
                "mcp_servers": [{"name": "filesystem", "status": "connected"}],
                "model": "claude-sonnet-4-5",
                "permissionMode": "default",
                "apiKeySource": "ANTHROPIC_API_KEY",
                "claude_code_version": "2.1.45",
            }
        )
        call = 0
        while fh.tell() < megabytes * 1_000_000:
            for _ in range(rng.randint(10, 60)):
                emit(
                    {
                        "type": "stream_event",
                        "event": {
                            "type": "content_block_delta",
                            "index": 0,
                            "delta": {
                                "type": "text_delta",
                                "text": " ".join(rng.choice(("the", "account", "record", "file\u2028", "is")) for _ in range(6)),
                            },
                        },
                        "session_id": session,
                        "parent_tool_use_id": None,
                        "uuid": f"u{lines}",
                    }
                )
            call += 1
            name = rng.choice(tools)
            emit(
                {
                    "type": "assistant",
                    "message": {
                        "id": f"msg_{call}",
                        "type": "message",
                        "role": "assistant",
                        "content": [
                            {"type": "text", "text": "Let me look at the source."},
                            {
                                "type": "tool_use",
                                "id": f"toolu_{call}",
                                "name": name,
                                "input": {"file_path": f"app/cbl/P{call:05d}.cbl"},
                            },
                        ],
                    },
                    "parent_tool_use_id": None,
                    "session_id": session,
                    "uuid": f"u{lines}",
                }
            )
            emit(
                {
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [
                            {"tool_use_id": f"toolu_{call}", "type": "tool_result", "content": source * rng.randint(20, 350)}
                        ],
                    },
                    "parent_tool_use_id": None,
                    "session_id": session,
                    "uuid": f"u{lines}",
                }
            )
            if call % 50 == 0:
                emit(
                    {
                        "type": "rate_limit_event",
                        "rate_limit_info": {"status": "allowed", "rateLimitType": "five_hour", "resetsAt": 1784979600},
                        "uuid": f"u{lines}",
                    }
                )
                emit(
                    {
                        "type": "system",
                        "subtype": "api_retry",
                        "attempt": 1,
                        "max_retries": 10,
                        "retry_delay_ms": 500,
                        "error_status": 529,
                        "session_id": session,
                    }
                )
        emit(
            {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "num_turns": call,
                "result": "done",
                "session_id": session,
                "permission_denials": [],
            }
        )
    return lines


def measure(code: str, path: Path, rounds: int = 3) -> tuple[float, float, float, str]:
    """Best wall and CPU seconds of ``rounds`` fresh processes, their largest peak RSS (MB), the last
    extra figure."""
    walls, cpus, peaks, extra = [], [], [], ""
    for _ in range(rounds):
        out = subprocess.run(
            [sys.executable, "-c", code, str(path)], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.split()
        walls.append(float(out[0]))
        cpus.append(float(out[1]))
        peaks.append(float(out[2]))
        extra = out[3]
    return min(walls), min(cpus), max(peaks), extra


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gj-bench-blind-") as tmp:
        path = Path(tmp) / "Q1.jsonl"
        lines = make_stream(path, args.mb)
        size = path.stat().st_size / 1e6
        print(f"generated {size:.0f} MB, {lines:,} lines (not timed)")
        base_s, base_cpu, base_mb, _ = measure(BASELINE, path)
        parse_s, parse_cpu, parse_mb, calls = measure(PARSE, path)
    print(f"baseline, read line by line in binary: {base_s:.2f} s wall, {base_cpu:.2f} s CPU, peak RSS {base_mb:.0f} MB")
    print(
        f"parse_events: {parse_s:.2f} s wall ({size / parse_s:.0f} MB/s, {calls} tool calls), {parse_cpu:.2f} s CPU, "
        f"peak RSS {parse_mb:.0f} MB (best of 3 fresh processes)"
    )
    # On a shared machine CPU seconds are the steadier figure.
    print(
        f"ratio parse / baseline: {parse_s / base_s:.1f}x wall, {parse_cpu / base_cpu:.1f}x CPU, {parse_mb / base_mb:.1f}x peak memory"
    )
    ok = parse_s < TARGET_S and parse_mb < TARGET_MB
    print(f"target < {TARGET_S:.0f} s and < {TARGET_MB:.0f} MB: {'PASS' if ok else 'FAIL'}")


if __name__ == "__main__":
    main()
