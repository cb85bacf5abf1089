"""Structural equivalence of an original and a renamed tree under a map, checked file by file and
token by token. Independent of the writer: it re-derives every expectation from the map."""

from __future__ import annotations

import json
from pathlib import Path

from groundjudge import __version__
from groundjudge.grounding.snapshot import Snapshot
from groundjudge.hashing import sha256_file
from groundjudge.rename.apply import code_directories, path_data, rename_path
from groundjudge.rename.compare import Checks, Tally, compare_text
from groundjudge.rename.leak import LISTED, measure
from groundjudge.rename.lexer import shape, sniff
from groundjudge.rename.mapping import Lookup
from groundjudge.rename.models import LeakToken, RenameMap, VerifyReport
from groundjudge.rename.phrase import Phrases
from groundjudge.rename.pystrings import StringData
from groundjudge.rename.questions import compare_questions

LEFTOVERS_LISTED = 200  # the report lists this many leftovers; the count is always exact


def verify_trees(
    original: Snapshot, renamed: Snapshot, rmap: RenameMap, map_path: str | Path, questions: tuple[Path, Path] | None = None
) -> VerifyReport:
    checks = Checks()
    for name in (
        "map_matches_corpus",
        "map_shapes",
        "file_count",
        "directory_count",
        "total_lines",
        "paths",
        "verbatim_files",
        "line_counts",
        "line_lengths",
        "token_structure",
        "only_mapped_tokens_differ",
        "mapped_tokens_replaced",
        "no_original_left",
    ):
        checks.declare(name)
    details: dict[str, str] = {}
    if rmap.corpus_tree_hash != original.tree_hash:
        checks.fail(
            "map_matches_corpus", f"map was made for tree {rmap.corpus_tree_hash[:12]}, original is {original.tree_hash[:12]}"
        )
    seen: dict[str, str] = {}
    for orig, new in rmap.identifiers.items():
        if shape(orig) != shape(new):
            checks.fail("map_shapes", f"{orig!r} -> {new!r}: shape {shape(orig)} became {shape(new)}")
        if new.upper() in seen:
            checks.fail("map_shapes", f"{seen[new.upper()]!r} and {orig!r} share the token {new!r}")
        seen[new.upper()] = orig
    for phrase, new in rmap.phrases.items():
        if shape(phrase) != shape(new):
            checks.fail("map_shapes", f"phrase {phrase!r} -> {new!r}: shape {shape(phrase)} became {shape(new)}")

    lookup = Lookup(rmap.identifiers, rmap.classes, rmap.kept)
    phrases = Phrases(rmap.phrases)
    o_files, r_files = original.files, renamed.files
    o_dirs, r_dirs = _directories(o_files), _directories(r_files)
    o_lines = sum(e.lines for e in o_files)
    r_lines = sum(e.lines for e in r_files)
    for name, a, b in (
        ("file_count", len(o_files), len(r_files)),
        ("directory_count", len(o_dirs), len(r_dirs)),
        ("total_lines", o_lines, r_lines),
    ):
        details[name] = f"{a} / {b}"
        if a != b:
            checks.fail(name, f"original {a}, renamed {b}")

    tally = Tally()
    verbatim: list[str] = []
    expected_paths: set[str] = set()
    code_dirs = code_directories(e.path for e in o_files)
    strings = StringData(original)
    for entry in o_files:
        new_path = rename_path(entry.path, lookup, phrases, code_dirs)
        expected_paths.add(new_path)
        data = path_data(entry.path, code_dirs)
        compare_text(entry.path, new_path, "text", lookup, phrases, f"path {entry.path}", checks, tally, data, lookup.path_view)
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
        data = strings.spans(entry.path, text)
        compare_text(
            text,
            renamed.read_text(new_path),
            sniff(entry.path, text),
            lookup,
            phrases,
            entry.path,
            checks,
            tally,
            data,
            lookup.data_view,
        )
    for extra in sorted({e.path for e in r_files} - expected_paths):
        checks.fail("paths", f"{extra}: in the renamed tree but not expected from the original")
    details["verbatim_files"] = f"{len(verbatim)} copied byte-identical"

    q_hashes: dict[str, str] = {}
    q_tally = Tally()
    if questions:
        for name in ("question_ids", "question_labels", "question_text_lengths"):
            checks.declare(name)
        compare_questions(questions[0], questions[1], lookup, phrases, checks, q_tally)
        q_hashes = {str(p): sha256_file(p) for p in questions}

    result = checks.result(details)
    marks, leak = measure(original, renamed)
    _, before = measure(original, original)
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
        identifiers_per_class=rmap.per_class(),
        occurrences_per_class=dict(sorted(tally.occurrences.items())),
        question_occurrences_per_class=dict(sorted(q_tally.occurrences.items())),
        leftover_count=sum(tally.leftover.values()),
        leftover_per_class=dict(sorted(tally.leftover.items())),
        leftovers=tally.leftovers[:LEFTOVERS_LISTED],
        question_leftover_per_class=dict(sorted(q_tally.leftover.items())),
        question_leftovers=q_tally.leftovers[:LEFTOVERS_LISTED],
        leak_score=leak.score,
        leak_score_before=before.score,
        leak_distinctive=len(marks),
        leak_left=sum(leak.left.values()),
        leak_tokens=[LeakToken(token=t, count=n, places=leak.places[t]) for t, n in leak.left.most_common(LISTED)],
        checks=result,
    )


def summary(report: VerifyReport) -> str:
    failed = sum(not c.ok for c in report.checks)
    verdict = f"OK, {len(report.checks)} checks passed" if report.ok else f"FAILED {failed} of {len(report.checks)} checks"
    lines = [f"rename-verify: {verdict}; {report.files} files, {report.directories} directories, {report.lines} lines"]
    for cls, n in report.identifiers_per_class.items():
        lines.append(f"  {cls:<18} {n:>6} identifiers {report.occurrences_per_class.get(cls, 0):>8} occurrences")
    if report.copied_verbatim:
        lines.append(f"  copied byte-identical: {', '.join(report.copied_verbatim)}")
    if report.questions_sha256:
        per = report.question_occurrences_per_class
        lines.append(
            f"  questions: {sum(per.values())} renamed occurrences ({', '.join(f'{c} {n}' for c, n in per.items()) or 'none'})"
        )
    for what, per_class, listed in (
        ("corpus", report.leftover_per_class, report.leftovers),
        ("questions", report.question_leftover_per_class, report.question_leftovers),
    ):
        if per_class:
            lines.append(
                f"  kept: {sum(per_class.values())} renamed names left in the {what}"
                f" ({', '.join(f'{c} {n}' for c, n in per_class.items())}), each fixed by a name outside the renamer's"
                f" reach (see 'Leftovers' in docs/renaming.md):"
            )
            lines.extend(f"    {x}" for x in listed[:5])
    lines.append(
        f"  leak score {report.leak_score:g} per 1,000 words (original {report.leak_score_before:g}): {report.leak_left}"
        f" occurrences of {report.leak_distinctive} distinctive original words left"
        + (f", most: {', '.join(f'{t.token} {t.count}' for t in report.leak_tokens[:8])}" if report.leak_tokens else "")
    )
    for c in report.checks:
        if not c.ok:
            lines.append(f"  FAIL {c.name}: {c.detail}")
            lines.extend(f"    {f}" for f in c.failures[:5])
    return "\n".join(lines)


def _directories(files) -> set[str]:
    """Every directory of the tree, including those that hold only directories."""
    dirs: set[str] = set()
    for entry in files:
        parts = entry.path.split("/")[:-1]
        dirs.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    return dirs


def report_json(report: VerifyReport) -> str:
    return json.dumps(report.model_dump(), indent=2)
