"""Blind-cell verification: did an answer meant to be written without the source use a tool that
could reach it? ``RUN_DIR/<cell>/events/<qid>.jsonl`` are the agents' event streams.

In a blind cell an answer with any file, search, shell or web tool call that actually ran is *void*
and the aggregation excludes it (it reads ``RUN_DIR/blind.json``). An answer with no stream, or a
stream we could not fully read, is *unverified*, never clean. A non-empty working directory or a
forbidden tool left available is a *violation* of the blind set-up, reported per answer.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.hashing import sha256_file, sha256_json
from groundjudge.storage import VersionedModel, read_model
from groundjudge.validation.events import FORBIDDEN, EventStream, classify_tool, parse_events
from groundjudge.validation.scores_io import cell_dirs

BLIND_FILE = "blind.json"
ANSWER_COLUMNS = [
    "cell",
    "qid",
    "blind",
    "format",
    "status",
    "tool_calls",
    "forbidden_calls",
    "denied_calls",
    "tools",
    "violations",
    "problems",
    "reason",
    "warnings",
]
CELL_COLUMNS = ["cell", "blind", "answers", "with_stream", "tool_calls", "violations", "void", "unverified", "clean", "tools"]


class BlindEntry(BaseModel):
    cell: str
    qid: str
    reason: str


class BlindFile(VersionedModel):
    """``RUN_DIR/blind.json``: the answers the aggregation must exclude, and what they were judged on."""

    schema_version: Literal[1] = 1
    tool_version: str
    patterns: list[str]
    blind_cells: list[str]
    void: list[BlindEntry]
    unverified: list[BlindEntry]
    event_files: dict[str, str]  # path relative to the run directory -> sha256
    # What made the verdicts: a blind.json from another version of the stream parser or its tool table
    # may call a clean answer void or a void one clean, so it is refused, never reused (None: a file
    # written before this was recorded).
    checker_sha256: str | None = None

    def void_keys(self) -> list[tuple[str, str]]:
        """(cell, qid) of every void answer: what every aggregation of this run leaves out."""
        return [(v.cell, v.qid) for v in self.void]


class AnswerStatus(StrEnum):
    CLEAN = "clean"
    VOID = "void"
    UNVERIFIED = "unverified"
    NOT_BLIND = "not_blind"


NO_STREAM = "none"  # the format column of an answer without an event stream


@dataclass(frozen=True)
class AnswerCheck:
    cell: str
    qid: str
    blind: bool
    format: str  # a StreamFormat, or NO_STREAM
    status: AnswerStatus
    tool_calls: int
    forbidden_calls: int
    denied_calls: int
    tools: str  # "Bash=2;Read=1"
    violations: str
    problems: str
    reason: str  # why void or unverified
    warnings: str  # events the parser did not know and skipped: they do not change the status


def _violations(stream: EventStream) -> list[str]:
    found = []
    if stream.workdir_entries:
        shown = ", ".join(sorted(stream.workdir_entries)[:5])
        found.append(f"working directory not empty ({len(stream.workdir_entries)} entries: {shown})")
    if stream.denied_tools is not None:
        covered = {classify_tool(t) for t in stream.denied_tools}
        for kind in FORBIDDEN:
            if kind not in covered:
                found.append(f"denied-tool list has no {kind} tool")
    if stream.available_tools is not None:
        for tool in sorted(stream.available_tools):
            kind = classify_tool(tool)
            if kind in FORBIDDEN:
                found.append(f"{tool} ({kind}) was available, not denied")
    return found


def check_answer(cell: str, qid: str, stream: EventStream | None, blind: bool) -> AnswerCheck:
    """The verdict on one answer (pure: the stream is already parsed)."""
    if stream is None:
        status = AnswerStatus.UNVERIFIED if blind else AnswerStatus.NOT_BLIND
        return AnswerCheck(cell, qid, blind, NO_STREAM, status, 0, 0, 0, "", "", "", "no event stream" if blind else "", "")
    counts = Counter(c.name for c in stream.calls)
    ran_forbidden = [c for c in stream.calls if c.kind in FORBIDDEN and not c.denied]
    violations = _violations(stream) if blind else []
    reason = ""
    if not blind:
        status = AnswerStatus.NOT_BLIND
    elif ran_forbidden:
        status = AnswerStatus.VOID
        by_tool = Counter(f"{c.name} ({c.kind})" for c in ran_forbidden)
        reason = "tool calls: " + ", ".join(f"{k} x{v}" for k, v in sorted(by_tool.items()))
    elif stream.problem_count:
        status = AnswerStatus.UNVERIFIED
        reason = f"event stream not fully readable ({stream.problem_count} problems)"
    else:
        status = AnswerStatus.CLEAN
    problems = stream.problems + (
        [f"{stream.problem_count - len(stream.problems)} more problems not listed"]
        if stream.problem_count > len(stream.problems)
        else []
    )
    return AnswerCheck(
        cell=cell,
        qid=qid,
        blind=blind,
        format=stream.format,
        status=status,
        tool_calls=len(stream.calls),
        forbidden_calls=sum(1 for c in stream.calls if c.kind in FORBIDDEN),
        denied_calls=sum(1 for c in stream.calls if c.denied),
        tools=";".join(f"{k}={v}" for k, v in sorted(counts.items())),
        violations="; ".join(violations),
        problems="; ".join(problems),
        reason=reason,
        warnings="; ".join(stream.warnings),
    )


def match_cells(cells: list[str], patterns: list[str], run_dir: str | Path | None = None) -> list[str]:
    """Cells matching any glob pattern; a pattern matching nothing is refused (likely a typo)."""
    matched: set[str] = set()
    for pattern in patterns:
        hits = [c for c in cells if fnmatch.fnmatchcase(c, pattern)]
        if not hits:
            raise UserError(f"--blind-cells pattern {pattern!r} matches no cell (cells: {', '.join(cells) or 'none'})", run_dir)
        matched.update(hits)
    return sorted(matched)


def _cell_answers(cell_dir: Path) -> tuple[list[str], dict[str, Path]]:
    """The questions of a cell (an answer file or an event stream) and their event streams."""
    streams = {p.stem: p for p in (cell_dir / "events").glob("*.jsonl")}
    return sorted({p.stem for p in (cell_dir / "answers").glob("*.md")} | set(streams)), streams


def verify_run(run_dir: str | Path, patterns: list[str], progress=None) -> tuple[list[AnswerCheck], BlindFile]:
    """Parse every event stream of the run and judge every answer; blind cells are those matching."""
    run_dir = Path(run_dir)
    dirs = cell_dirs(run_dir)
    blind_cells = match_cells([d.name for d in dirs], patterns, run_dir)
    checks: list[AnswerCheck] = []
    hashes: dict[str, str] = {}
    for d in dirs:
        qids, streams = _cell_answers(d)
        for qid in qids:
            path = streams.get(qid)
            stream = parse_events(path) if path is not None else None
            if path is not None and stream is not None:
                hashes[path.relative_to(run_dir).as_posix()] = stream.sha256 or sha256_file(path)
            checks.append(check_answer(d.name, qid, stream, d.name in blind_cells))
            if progress is not None:
                progress()
    blind_file = BlindFile(
        tool_version=__version__,
        patterns=list(patterns),
        blind_cells=blind_cells,
        void=[BlindEntry(cell=c.cell, qid=c.qid, reason=c.reason) for c in checks if c.status is AnswerStatus.VOID],
        unverified=[BlindEntry(cell=c.cell, qid=c.qid, reason=c.reason) for c in checks if c.status is AnswerStatus.UNVERIFIED],
        event_files=dict(sorted(hashes.items())),
        checker_sha256=checker_fingerprint(),
    )
    return checks, blind_file


def checker_fingerprint() -> str:
    """sha256 of the code and data that decide a blind verdict: this module, the stream parser and its
    table of events and tools."""
    here = Path(__file__).resolve().parent
    return sha256_json([sha256_file(here / name) for name in ("blind.py", "events.py", "streams.toml")])


def cell_summary(checks: list[AnswerCheck]) -> list[dict]:
    rows: dict[str, dict] = {}
    tools: dict[str, Counter] = {}
    for c in checks:
        r = rows.setdefault(c.cell, {k: 0 for k in CELL_COLUMNS} | {"cell": c.cell, "blind": c.blind})
        for part in filter(None, c.tools.split(";")):
            name, count = part.rsplit("=", 1)
            tools.setdefault(c.cell, Counter())[name] += int(count)
        r["answers"] += 1
        r["with_stream"] += c.format != NO_STREAM
        r["tool_calls"] += c.tool_calls
        r["violations"] += bool(c.violations)
        r["void"] += c.status is AnswerStatus.VOID
        r["unverified"] += c.status is AnswerStatus.UNVERIFIED
        r["clean"] += c.status is AnswerStatus.CLEAN
    for cell, r in rows.items():
        r["tools"] = ";".join(f"{k}={v}" for k, v in sorted(tools.get(cell, Counter()).items()))
    return [rows[k] for k in sorted(rows)]


def read_void_list(run_dir: str | Path) -> tuple[BlindFile | None, str | None]:
    """The blind check's verdict for the aggregation, refused if an event stream changed since."""
    run_dir = Path(run_dir)
    path = run_dir / BLIND_FILE
    if not path.exists():
        return None, None
    blind = read_model(path, BlindFile)
    if blind.checker_sha256 != checker_fingerprint():
        raise UserError(
            "made by another version of the blind checker (its verdicts may differ today); rerun `groundjudge blind`", path
        )
    for rel, digest in blind.event_files.items():
        current = run_dir / rel
        if not current.exists() or sha256_file(current) != digest:
            raise UserError(f"{rel} changed after the blind check; rerun `groundjudge blind`", path)
    for cell in blind.blind_cells:
        for p in sorted((run_dir / cell / "events").glob("*.jsonl")):
            if p.relative_to(run_dir).as_posix() not in blind.event_files:
                raise UserError(
                    f"{p.relative_to(run_dir).as_posix()} is newer than the blind check; rerun `groundjudge blind`", path
                )
    return blind, sha256_file(path)


def run_blind(run_dir: str | Path, patterns: list[str]) -> None:
    """The ``blind`` command: check, write blind.csv, blind_cells.csv and blind.json, print per cell."""
    import pandas as pd

    from groundjudge.storage import write_model
    from groundjudge.validation.tables import console, print_table, progress, write_csv

    run_dir = Path(run_dir)
    out = console()
    total = sum(len(_cell_answers(d)[0]) for d in cell_dirs(run_dir))
    with progress(out) as bar:
        task = bar.add_task("checking event streams", total=total)
        checks, blind_file = verify_run(run_dir, patterns, progress=lambda: bar.advance(task))
    write_csv(run_dir / "blind.csv", [c.__dict__ for c in checks], ANSWER_COLUMNS)
    summary = cell_summary(checks)
    write_csv(run_dir / "blind_cells.csv", summary, CELL_COLUMNS)
    write_model(run_dir / BLIND_FILE, blind_file)
    shown = [c for c in CELL_COLUMNS if c != "tools"]  # per-tool counts are in blind_cells.csv
    frame = pd.DataFrame(summary, columns=CELL_COLUMNS)[shown]
    frame["blind"] = frame["blind"].map({True: "yes", False: "no"})
    print_table(out, f"blind-cell verification ({', '.join(patterns)})", frame)
    for c in checks:
        for problem in filter(None, c.problems.split("; ")):
            out.print(f"[yellow]problem[/]: {problem}", highlight=False)
        for warning in filter(None, c.warnings.split("; ")):
            out.print(f"[dim]warning[/]: {warning}", highlight=False)
    out.print(
        f"{len(blind_file.void)} void (left out by `groundjudge report`, `retest` and `agreement judges`), "
        f"{len(blind_file.unverified)} unverified (kept); wrote {run_dir / 'blind.csv'}, {run_dir / 'blind_cells.csv'}, "
        f"{run_dir / BLIND_FILE}",
        highlight=False,
    )
