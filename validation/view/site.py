"""``groundjudge view``: a static site of one run, readable from the disk with no server.

The run page holds the provenance, per-cell numbers and a grid of cells x questions; each answer has
a page of its own. The numbers are report's: the run is read and analysed by the functions
``groundjudge report`` calls, with the same defaults. Everything read from the run (answers, claims,
rationales, errors, snippets, names) is untrusted text, escaped by Jinja2's autoescape; answers'
Markdown goes through ``answer_html``.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, Template
from markupsafe import Markup

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.grounding.models import GroundingReport, Verdict, VerifiedClaim
from groundjudge.judging.manifest import MANIFEST, RunManifest
from groundjudge.judging.models import ScoreFile
from groundjudge.questions import Question
from groundjudge.storage import read_model
from groundjudge.validation import aggregate as agg
from groundjudge.validation.blind import BlindFile, read_void_list
from groundjudge.validation.cli_show import GROUNDED_EARLIER, SCORED_EARLIER, answer_changed, question_set, read_grounding
from groundjudge.validation.report import Analysis, analyse_run, expectations, format_value
from groundjudge.validation.scores_io import RunScores, load_run_with_progress
from groundjudge.validation.view import ANSWERS, VIEW_DIR, file_name, page_href
from groundjudge.validation.view.answer_html import MarkedClaim, highlight, pygments_css, render_answer

MARKER = ".groundjudge-view"  # marks a directory this command wrote, so a rebuild may replace it
STATIC = ("view.css", "view.js")
VERDICT_LETTER = {
    Verdict.SUPPORTED: "S",
    Verdict.PARTIALLY_SUPPORTED: "P",
    Verdict.UNSUPPORTED: "U",
    Verdict.UNABLE_TO_VERIFY: "N",
}
# What a grid square says when the answer has no valid judgement, by the slot table's reason.
_WHY_NO_SCORE = {
    agg.VOID: ("o", "void"),
    "no_answer": ("m", "no answer"),
    "no_score_file": ("u", "not scored"),
    "malformed_score_file": ("u", "malformed score file"),
}
_BUCKETS = 10


@dataclass
class Square:
    """One answer in the grid."""

    href: str
    value: str  # the question's mean of its valid totals, or why there is none
    classes: str
    judge_totals: str  # per judge of the run, comma-separated; empty where the judgement is not valid
    verdicts: str  # one letter per verdict found among the claims


@dataclass
class Site:
    run: RunScores
    analysis: Analysis
    manifest: RunManifest | None
    blind: BlindFile | None
    questions: dict[str, Question] = field(default_factory=dict)
    questions_note: str | None = None
    rows: list[str] = field(default_factory=list)  # question ids in grid order
    # (cell, qid) -> judge -> (total, the slot table's reason on it): looked up per answer, not filtered from the table
    totals: dict[tuple[str, str], dict[str, tuple[float, str]]] = field(default_factory=dict)
    simulated: frozenset[str] = frozenset()  # the manifest's simulated judges
    blind_status: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)  # (cell, qid) -> status, reason


@cache
def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("groundjudge.validation.view", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # the templates are package data: no need to stat them for each page
    )
    env.filters["num"] = format_value
    return env


def _bucket(value: float, lo: float, hi: float) -> int:
    if hi <= lo:
        return 0
    return min(_BUCKETS - 1, max(0, int((value - lo) / (hi - lo) * _BUCKETS)))


def _squares(site: Site, verdicts: dict[tuple[str, str], str]) -> dict[str, dict[str, Square]]:
    """qid -> cell -> square, from the slot table's totals (the rows report averages)."""
    lo, hi = agg.score_bounds(site.run).get(agg.TOTAL, (0.0, 0.0))
    judges = list(site.run.judges)
    grid: dict[str, dict[str, Square]] = {}
    for (cell, qid), by_judge in site.totals.items():
        valid = [v for v, r in by_judge.values() if not r]
        reasons = {r for _, r in by_judge.values()}
        flags = []
        if "judge_error" in reasons:
            flags.append("f")
        if valid:
            mean = sum(valid) / len(valid)
            value, flags = f"{mean:.1f}", [f"t{_bucket(mean, lo, hi)}", *flags]
        else:
            whole = next((r for r in reasons if r in _WHY_NO_SCORE), None)
            cls, value = _WHY_NO_SCORE[whole] if whole else ("x", "failed")
            flags.append(cls)
        grid.setdefault(qid, {})[cell] = Square(
            href=f"{ANSWERS}/{page_href(cell, qid)}",
            value=value,
            classes=" ".join(flags),
            judge_totals=",".join(f"{by_judge[j][0]:g}" if j in by_judge and not by_judge[j][1] else "" for j in judges),
            verdicts=verdicts.get((cell, qid), ""),
        )
    return grid


def _cell_rows(a: Analysis) -> list[dict[str, Any]]:
    """Per cell: the three means of the total, its interval, and the exclusions summed over judges."""
    means = a.means[a.means["dimension"].astype(str) == agg.TOTAL].set_index("cell")
    ci = a.intervals[a.intervals["dimension"].astype(str) == agg.TOTAL].set_index("cell")
    ex = a.exclusions.groupby("cell")[["expected", "excluded", *agg.REASONS]].sum()
    rows = []
    for cell in means.index:
        e = ex.loc[cell]
        rows.append(
            {
                "cell": cell,
                "mean_question_balanced": means.loc[cell, "mean_question_balanced"],
                "ci_low": ci.loc[cell, "ci_low"],
                "ci_high": ci.loc[cell, "ci_high"],
                "mean_pooled": means.loc[cell, "mean_pooled"],
                "mean_judge_balanced": means.loc[cell, "mean_judge_balanced"],
                "n_questions": int(means.loc[cell, "n_questions"]),
                "n_judgements": int(means.loc[cell, "n_judgements"]),
                "expected": int(e["expected"]),
                "excluded": int(e["excluded"]),
                "judge_failures": int(e[list(agg.JUDGE_FAILURES[:2])].sum()),
                "infrastructure_failures": int(e[list(agg.INFRASTRUCTURE_FAILURES)].sum()),
                "void": int(e[agg.VOID]),
                "dimension_missing": int(e["dimension_missing"]),
            }
        )
    return rows


def _marked_lines(claim: VerifiedClaim, path: str, start: int, end: int) -> frozenset[int]:
    """The lines of an evidence snippet the claim itself cites; a one-line snippet is its own citation."""
    cited = {
        n
        for r in claim.refs
        if r.start_line is not None and (r.kind != "path" or r.value == path)
        for n in range(r.start_line, (r.end_line or r.start_line) + 1)
        if start <= n <= end
    }
    return frozenset(cited or (range(start, end + 1) if start == end else ()))


def _claims(report: GroundingReport) -> list[dict[str, Any]]:
    out = []
    for i, c in enumerate(report.claims):
        evidence = [
            {
                "path": e.path,
                "start_line": e.start_line,
                "end_line": e.end_line,
                "note": e.note,
                "html": highlight(
                    e.path, e.start_line, e.snippet, _marked_lines(c, e.path, e.start_line, e.start_line + e.snippet.count("\n"))
                ),
            }
            for e in c.evidence
        ]
        out.append({"anchor": f"claim-{i}", "claim": c, "evidence": evidence})
    return out


def _event_summary(
    run_dir: Path, cell: str, qid: str, blind: BlindFile, statuses: dict[tuple[str, str], tuple[str, str]]
) -> dict[str, Any] | None:
    """For an answer of a blind cell: its status in blind.json and what its event stream shows."""
    from groundjudge.validation.blind import check_answer
    from groundjudge.validation.events import parse_events

    if cell not in blind.blind_cells:
        return None
    status, reason = statuses.get((cell, qid), ("clean", ""))
    path = run_dir / cell / "events" / f"{qid}.jsonl"
    stream = parse_events(path) if path.is_file() else None
    check = check_answer(cell, qid, stream, True)
    return {
        "status": status,
        "reason": reason,
        "check": check,
        "turns": stream.turns if stream else None,
        "complete": stream.complete if stream else None,
        "calls": [(c.name, c.kind, c.denied) for c in stream.calls] if stream else [],
    }


def _answer_page(site: Site, template: Template, cell: str, qid: str, nav: dict[str, Any]) -> tuple[str, str]:
    """The answer page's HTML and the verdict letters found among its claims (for the grid)."""
    run_dir = site.run.run_dir
    cell_dir = run_dir / cell
    answer = cell_dir / "answers" / f"{qid}.md"
    notes: list[str] = []
    report, missing = read_grounding(cell_dir, qid)
    if missing and answer.is_file():
        notes.append(missing)
    claims = _claims(report) if report else []
    text = answer.read_text(encoding="utf-8", errors="replace") if answer.is_file() else None
    answer_html, placed = (
        render_answer(text, [MarkedClaim(c["anchor"], c["claim"]) for c in claims]) if text is not None else (Markup(""), set())
    )
    if report is not None and answer_changed(answer, report.answer.sha256):
        notes.append(GROUNDED_EARLIER)
    files = site.run.cells[cell]
    scores: ScoreFile | None = files.scores.get(qid)
    if scores is not None and answer_changed(answer, scores.answer_sha256):
        notes.append(SCORED_EARLIER)
    totals = site.totals.get((cell, qid), {})
    by_judge = {j.judge: j for j in scores.judgements} if scores else {}
    judges = [
        {"name": n, "judgement": by_judge.get(n), "reason": totals[n][1] if n in totals else "", "simulated": n in site.simulated}
        for n in site.run.judges
    ]
    rubric = site.run.rubric
    html = template.render(
        root="../../",
        run_name=run_dir.name,
        cell=cell,
        qid=qid,
        question=site.questions.get(qid),
        questions_note=site.questions_note,
        answer_html=answer_html,
        has_answer=text is not None,
        notes=notes,
        report=report,
        claims=claims,
        unplaced={c["anchor"] for c in claims} - placed,
        scores=scores,
        malformed=files.malformed.get(qid),
        judges=judges,
        dimensions=list(rubric.dimensions.items()) if rubric else [],
        total_max=sum(rubric.dimensions.values()) if rubric else None,
        blind=_event_summary(run_dir, cell, qid, site.blind, site.blind_status) if site.blind else None,
        nav=nav,
        verdicts=list(Verdict),
    )
    letters = "".join(sorted({VERDICT_LETTER[c["claim"].verdict] for c in claims}))
    return html, letters


def _prepare(run_dir: Path, questions: Path | None, seed: int, n_resamples: int, confidence: float) -> Site:
    run = load_run_with_progress(run_dir)
    exp = expectations(run_dir, questions)
    blind, _ = read_void_list(run_dir)
    a = analyse_run(run, exp, blind, seed=seed, n_resamples=n_resamples, confidence=confidence)
    run = a.run
    manifest_path = run_dir / MANIFEST
    manifest = read_model(manifest_path, RunManifest) if manifest_path.is_file() else None
    qs, _, note = question_set(run_dir, questions)
    site = Site(run=run, analysis=a, manifest=manifest, blind=blind, questions_note=note)
    site.questions = {q.id: q for q in qs or []}
    totals = a.slots[a.slots["dimension"].astype(str) == agg.TOTAL]
    for cell, qid, judge, value, reason in zip(totals["cell"], totals["qid"], totals["judge"], totals["value"], totals["reason"]):
        site.totals.setdefault((cell, qid), {})[judge] = (value, reason)
    site.simulated = frozenset(j.name for j in manifest.judges if j.simulated) if manifest else frozenset()
    if blind is not None:
        # unverified first: an answer in both lists is void
        site.blind_status = {(v.cell, v.qid): ("unverified", v.reason) for v in reversed(blind.unverified)}
        site.blind_status |= {(v.cell, v.qid): ("void", v.reason) for v in reversed(blind.void)}
    expected = exp.qids if exp.qids is not None else run.qids()
    site.rows = sorted(set(expected) | set(run.qids()))
    return site


def _new_site_dir(out: Path) -> Path:
    """A fresh directory beside ``out`` to build in; ``out`` itself is replaced only once it is whole."""
    if out.exists() and not out.is_dir():
        raise UserError("--out is a file, not a directory", out)
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise UserError("--out holds files groundjudge view did not write; give a new or empty directory", out)
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))


def _swap_in(tmp: Path, out: Path) -> None:
    os.chmod(tmp, 0o755)
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
        os.replace(out, old / "site")
    os.replace(tmp, out)
    if old is not None:
        shutil.rmtree(old)


def build_site(
    run_dir: str | Path,
    out: str | Path | None = None,
    *,
    questions: Path | None = None,
    rename_map: Path | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
) -> Path:
    """Write the site of ``run_dir`` to ``out`` (default ``RUN_DIR/view``); returns the run page's path."""
    run_dir = Path(run_dir)
    out = Path(out) if out is not None else run_dir / VIEW_DIR
    renames = _rename_rows(rename_map) if rename_map is not None else None
    site = _prepare(run_dir, questions, seed, n_resamples, confidence)
    tmp = _new_site_dir(out)
    try:
        _write(site, tmp, renames)
        _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out / "index.html"


def _rename_rows(path: Path) -> dict[str, Any]:
    from groundjudge.rename.models import RenameMap

    m = read_model(path, RenameMap)
    by_class: dict[str, list[tuple[str, str]]] = {}
    for original, new in sorted(m.identifiers.items()):
        by_class.setdefault(m.classes.get(original, "unclassified"), []).append((original, new))
    return {"map": m, "path": path.name, "by_class": dict(sorted(by_class.items()))}


_SITE: Site | None = None  # the site being written, for the worker processes that inherit it
_PARTS = 4  # jobs per cell, so that cells of unequal size still keep every worker busy


def _cell_pages(root: Path, ci: int, part: int = 0, parts: int = 1) -> dict[tuple[str, str], str]:
    """Write the answer pages of one cell (every ``parts``-th question from ``part``); returns each
    answer's verdict letters, for the grid."""
    site = _SITE
    assert site is not None
    template = _environment().get_template("answer.j2")
    cells = list(site.run.cells)
    cell, qids = cells[ci], site.rows
    cell_dir = root / ANSWERS / file_name(cell)
    cell_dir.mkdir(parents=True, exist_ok=True)
    found = {}
    for qi in range(part, len(qids), parts):
        qid = qids[qi]
        nav = {
            "prev": "../" + page_href(cell, qids[qi - 1]) if qi > 0 else None,
            "next": "../" + page_href(cell, qids[qi + 1]) if qi + 1 < len(qids) else None,
            "cells": [(c, "../" + page_href(c, qid)) for c in cells],
            "prev_cell": "../" + page_href(cells[ci - 1], qid) if ci > 0 else None,
            "next_cell": "../" + page_href(cells[ci + 1], qid) if ci + 1 < len(cells) else None,
        }
        html, found[(cell, qid)] = _answer_page(site, template, cell, qid, nav)
        (cell_dir / f"{file_name(qid)}.html").write_text(html, encoding="utf-8")
    return found


def _write(site: Site, root: Path, renames: dict[str, Any] | None) -> None:
    env = _environment()
    env.get_template("answer.j2")  # compiled here, before the fork, rather than once in each worker
    (root / MARKER).write_text(f"written by groundjudge view {__version__}\n", encoding="utf-8")
    static = root / "static"
    static.mkdir()
    for name in STATIC:
        (static / name).write_bytes(resources.files("groundjudge.validation.view").joinpath("static", name).read_bytes())
    (static / "code.css").write_text(pygments_css(), encoding="utf-8")

    cells = list(site.run.cells)
    verdicts: dict[tuple[str, str], str] = {}
    global _SITE
    _SITE = site
    try:
        # Pages are independent and rendering them is pure Python (Markdown, Pygments, Jinja2): one process
        # per core. Forked workers inherit the run as read, instead of reading it again.
        cores = os.cpu_count() or 1
        context = multiprocessing.get_context("fork") if cores > 1 else None
        if context is None:
            results = [_cell_pages(root, ci) for ci in range(len(cells))]
        else:
            with ProcessPoolExecutor(max_workers=cores, mp_context=context) as pool:
                jobs = [(root, ci, part, _PARTS) for ci in range(len(cells)) for part in range(_PARTS)]
                results = list(pool.map(_cell_pages, *zip(*jobs)))
    finally:
        _SITE = None
    for found in results:
        verdicts.update(found)

    m = site.manifest
    run_page = env.get_template("run.j2").render(
        root="",
        run_name=site.run.run_dir.name,
        manifest=m,
        simulated=bool(m and any(j.simulated for j in m.judges)),
        tree_hashes=sorted(site.run.corpus_tree_hashes()),
        rubric=site.run.rubric,
        judges=site.run.judges,
        n_questions=len(site.rows),
        questions_note=site.questions_note,
        blind=site.blind,
        cell_rows=_cell_rows(site.analysis),
        exclusions=site.analysis.exclusions.to_dict("records"),
        exclusion_columns=agg.EXCLUSION_COLUMNS,
        malformed=site.run.malformed_files(),
        cells=cells,
        rows=site.rows,
        grid=_squares(site, verdicts),
        total_bounds=agg.score_bounds(site.run).get(agg.TOTAL, (0.0, 0.0)),
        verdicts=list(Verdict),
        letters=VERDICT_LETTER,
        renames=renames,
        tool_version=__version__,
        confidence=float(site.analysis.intervals["confidence"].iloc[0]) if len(site.analysis.intervals) else None,
    )
    (root / "index.html").write_text(run_page, encoding="utf-8")
    if renames is not None:
        (root / "renames.html").write_text(env.get_template("renames.j2").render(root="", **renames), encoding="utf-8")
