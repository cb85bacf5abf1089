"""Structural equivalence of an original and a renamed tree under a map, checked file by file and
token by token. Independent of the writer: it re-derives every expectation from the map."""

from __future__ import annotations

import json
from pathlib import Path

from grounding.snapshot import Snapshot
from groundjudge import __version__
from groundjudge.hashing import sha256_file
from rename.apply import rename_path
from rename.lexer import shape, sniff, token_spans
from rename.mapping import Lookup
from rename.models import Check, RenameMap, VerifyReport

MAX_FAILURES = 20


class _Checks:
    def __init__(self) -> None:
        self.failures: dict[str, list[str]] = {}
        self.counts: dict[str, int] = {}
        self.order: list[str] = []

    def declare(self, name: str) -> None:
        self.order.append(name)
        self.failures.setdefault(name, [])
        self.counts.setdefault(name, 0)

    def fail(self, name: str, message: str) -> None:
        self.counts[name] += 1
        if len(self.failures[name]) < MAX_FAILURES:
            self.failures[name].append(message)

    def result(self, details: dict[str, str]) -> list[Check]:
        return [
            Check(name=n, ok=self.counts[n] == 0, detail=details.get(n, "") or (f"{self.counts[n]} failure(s)" if self.counts[n] else ""), failures=self.failures[n])
            for n in self.order
        ]


def compare_text(original: str, renamed: str, lang: str, lookup: Lookup, where: str, checks: _Checks, occurrences: dict[str, int]) -> None:
    """The renamed text must equal the original except at tokens the map names, and there hold
    exactly the mapped token in the occurrence's case; no mapped original may survive as a token."""
    o_lines = original.splitlines(keepends=True)
    r_lines = renamed.splitlines(keepends=True)
    if len(o_lines) != len(r_lines):
        checks.fail("line_counts", f"{where}: {len(o_lines)} lines became {len(r_lines)}")
        return
    for n, (a, b) in enumerate(zip(o_lines, r_lines), start=1):
        if len(a.encode("utf-8")) != len(b.encode("utf-8")):
            checks.fail("line_lengths", f"{where}:{n}: {len(a.encode())} bytes became {len(b.encode())}")
    o_spans = list(token_spans(original, lang))
    if o_spans != list(token_spans(renamed, lang)) or len(original) != len(renamed):
        checks.fail("token_structure", f"{where}: token boundaries differ")
        return
    last = 0
    for s, e in o_spans:
        if original[last:s] != renamed[last:s]:
            checks.fail("only_mapped_tokens_differ", f"{where}: text between tokens differs at offset {last}")
        last = e
        tok, new = original[s:e], renamed[s:e]
        expected = lookup(tok)
        if expected is None:
            if tok != new:
                checks.fail("only_mapped_tokens_differ", f"{where}:{original.count(chr(10), 0, s) + 1}: unmapped token {tok!r} became {new!r}")
            continue
        cls = lookup.original_class(tok) or "included"
        occurrences[cls] = occurrences.get(cls, 0) + 1
        if new != expected:
            checks.fail("mapped_tokens_replaced", f"{where}:{original.count(chr(10), 0, s) + 1}: {tok!r} became {new!r}, expected {expected!r}")
        if lookup.original_class(new) is not None:
            checks.fail("no_original_left", f"{where}:{original.count(chr(10), 0, s) + 1}: {new!r} is a mapped original")
    if original[last:] != renamed[last:]:
        checks.fail("only_mapped_tokens_differ", f"{where}: text after the last token differs")


def verify_trees(original: Snapshot, renamed: Snapshot, rmap: RenameMap, map_path: str | Path, questions: tuple[Path, Path] | None = None) -> VerifyReport:
    checks = _Checks()
    for name in (
        "map_matches_corpus", "map_shapes", "file_count", "directory_count", "total_lines", "paths",
        "verbatim_files", "line_counts", "line_lengths", "token_structure", "only_mapped_tokens_differ",
        "mapped_tokens_replaced", "no_original_left",
    ):
        checks.declare(name)
    details: dict[str, str] = {}
    if rmap.corpus_tree_hash != original.tree_hash:
        checks.fail("map_matches_corpus", f"map was made for tree {rmap.corpus_tree_hash[:12]}, original is {original.tree_hash[:12]}")
    seen: dict[str, str] = {}
    for orig, new in rmap.identifiers.items():
        if shape(orig) != shape(new):
            checks.fail("map_shapes", f"{orig!r} -> {new!r}: shape {shape(orig)} became {shape(new)}")
        if new.upper() in seen:
            checks.fail("map_shapes", f"{seen[new.upper()]!r} and {orig!r} share the token {new!r}")
        seen[new.upper()] = orig

    lookup = Lookup(rmap.identifiers, rmap.classes)
    o_files, r_files = original.files, renamed.files
    o_dirs = {p.path.rsplit("/", 1)[0] for p in o_files if "/" in p.path}
    r_dirs = {p.path.rsplit("/", 1)[0] for p in r_files if "/" in p.path}
    o_lines = sum(e.lines for e in o_files)
    r_lines = sum(e.lines for e in r_files)
    for name, a, b in (("file_count", len(o_files), len(r_files)), ("directory_count", len(o_dirs), len(r_dirs)), ("total_lines", o_lines, r_lines)):
        details[name] = f"{a} / {b}"
        if a != b:
            checks.fail(name, f"original {a}, renamed {b}")

    occurrences: dict[str, int] = {}
    verbatim: list[str] = []
    expected_paths: set[str] = set()
    for entry in o_files:
        new_path = rename_path(entry.path, lookup)
        expected_paths.add(new_path)
        compare_text(entry.path, new_path, "text", lookup, f"path {entry.path}", checks, occurrences)
        r_entry = renamed.entry(new_path)
        if r_entry is None:
            checks.fail("paths", f"{entry.path}: expected {new_path} in the renamed tree, missing")
            continue
        if entry.kind != "text" or r_entry.kind != "text":
            verbatim.append(entry.path)
            if r_entry.sha256 != entry.sha256:
                checks.fail("verbatim_files", f"{entry.path}: {entry.kind} file is not byte-identical")
            continue
        text = original.read_text(entry.path)
        compare_text(text, renamed.read_text(new_path), sniff(entry.path, text), lookup, entry.path, checks, occurrences)
    for extra in sorted({e.path for e in r_files} - expected_paths):
        checks.fail("paths", f"{extra}: in the renamed tree but not expected from the original")
    details["verbatim_files"] = f"{len(verbatim)} copied byte-identical"

    q_hashes: dict[str, str] = {}
    question_occurrences: dict[str, int] = {}
    if questions:
        from rename.questions import compare_questions

        for name in ("question_ids", "question_labels", "question_text_lengths"):
            checks.declare(name)
        compare_questions(questions[0], questions[1], lookup, checks, question_occurrences)
        q_hashes = {str(p): sha256_file(p) for p in questions}

    per_class: dict[str, int] = {}
    for cls in rmap.classes.values():
        per_class[cls] = per_class.get(cls, 0) + 1
    result = checks.result(details)
    return VerifyReport(
        tool_version=__version__,
        ok=all(c.ok for c in result),
        original=original.name,
        original_tree_hash=original.tree_hash,
        renamed=renamed.name,
        renamed_tree_hash=renamed.tree_hash,
        map_sha256=sha256_file(map_path),
        questions_sha256=q_hashes,
        files=len(o_files),
        directories=len(o_dirs),
        lines=o_lines,
        copied_verbatim=sorted(verbatim),
        identifiers_per_class=dict(sorted(per_class.items())),
        occurrences_per_class=dict(sorted(occurrences.items())),
        question_occurrences_per_class=dict(sorted(question_occurrences.items())),
        checks=result,
    )


def summary(report: VerifyReport) -> str:
    lines = [f"rename-verify: {'OK' if report.ok else 'FAILED'}  {report.files} files, {report.directories} directories, {report.lines} lines"]
    for cls, n in report.identifiers_per_class.items():
        lines.append(f"  {cls:<18} {n:>6} identifiers {report.occurrences_per_class.get(cls, 0):>8} occurrences")
    if report.copied_verbatim:
        lines.append(f"  copied byte-identical: {', '.join(report.copied_verbatim)}")
    for c in report.checks:
        if not c.ok:
            lines.append(f"  FAIL {c.name}: {c.detail}")
            lines.extend(f"    {f}" for f in c.failures[:5])
    return "\n".join(lines)


def report_json(report: VerifyReport) -> str:
    return json.dumps(report.model_dump(), indent=2)
