"""``groundjudge score``: ground every answer once, then have every judge score it, concurrently.

RUN_DIR/<cell>/answers/<qid>.md  ->  RUN_DIR/<cell>/grounding/<qid>.json (GroundingReport)
                                 ->  RUN_DIR/<cell>/scores/<qid>.json    (ScoreFile)
                                     RUN_DIR/manifest.json               (RunManifest)

Resumable: a judgement is kept when the score file already holds a valid one from the same judge,
model, sampling parameters and rendered prompt (the prompt's sha256 covers the question, answer,
rubric, template and grounding). Anything else is redone, failed judgements included. Every file
is written atomically, so an interrupted run leaves only complete files behind.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import random
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.grounding.ground import read_answer
from groundjudge.grounding.models import AnswerRef, GroundingReport
from groundjudge.hashing import sha256_file, sha256_json
from groundjudge.judging.cache import ResponseCache
from groundjudge.judging.config import JudgeConfig, JudgingConfig, load_config, select_judges
from groundjudge.judging.judge import Budget, Endpoint, Judge, estimate_tokens, request_key
from groundjudge.judging.limits import RateLimiter
from groundjudge.judging.manifest import MANIFEST, JudgeRecord, RunManifest, questions_location, write_manifest
from groundjudge.judging.models import FailureKind, GroundingSummary, Judgement, LLMUsage, ScoreFile
from groundjudge.judging.prompts import RenderedPrompt
from groundjudge.questions import Question
from groundjudge.storage import read_model, write_model

M = TypeVar("M", bound=BaseModel)


@dataclass
class ScoreOptions:
    run_dir: Path
    corpus: str
    questions: Path
    rubric: str = "reference-free"
    template: str = "judge-dimensions-v1"
    judges: list[str] | None = None  # --judge specs; None: the configured judges
    cells: list[str] | None = None
    force: bool = False
    offline: bool = False
    budget_usd: float | None = None
    dry_run: bool = False
    concurrency: int | None = None
    rpm: int | None = None
    tpm: int | None = None
    config: Path | None = None
    cache: Path | None = None
    progress: bool = True
    seed: int = 0  # backoff jitter
    llm_claims: str | None = None  # judge spec of an LLM claim extractor
    llm_verify: str | None = None  # judge spec of an LLM verifier for the facts the checks leave unchecked


@dataclass
class AnswerItem:
    cell: str
    qid: str
    path: Path
    question: Question
    text: str = ""
    sha256: str = ""
    grounding: GroundingReport | None = None
    grounding_summary: GroundingSummary | None = None
    prompt: RenderedPrompt | None = None
    kept: dict[str, Judgement] = field(default_factory=dict)
    todo: list[str] = field(default_factory=list)  # judge names to call
    rewrite: bool = False
    malformed: str | None = None  # why the score file on disk could not be used (it is rewritten)


@dataclass
class JudgeEstimate:
    judge: str
    model: str
    judgements: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0


@dataclass
class RunSummary:
    answers: int = 0
    answers_skipped: int = 0
    judgements_planned: int = 0
    judgements_kept: int = 0
    done: int = 0
    failed: int = 0
    cache_hits: int = 0
    calls: int = 0
    spent_usd: float = 0.0
    budget_refused: int = 0  # judgements not submitted
    llm_grounding_calls: int = 0  # --llm-claims / --llm-verify HTTP attempts
    llm_grounding_spent_usd: float = 0.0  # included in spent_usd
    llm_grounding_refused: int = 0  # grounding calls not sent for the budget
    score_files_written: int = 0
    stale_cache: int = 0  # cached replies that failed today's validation and were asked again
    malformed_rewritten: list[str] = field(default_factory=list)  # score files that could not be read: "path: reason"
    cells_held: list[str] = field(default_factory=list)  # cells another score process was scoring: skipped
    verdicts: dict[str, int] = field(default_factory=dict)  # grounding verdict -> claims, over every answer
    regrounded: int = 0  # answers whose earlier grounding report was made by another grounder (then rejudged)
    stopped: dict[str, str] = field(default_factory=dict)  # judge -> why no more calls were sent to it
    warnings: list[str] = field(default_factory=list)
    estimates: list[JudgeEstimate] = field(default_factory=list)
    errors: dict[tuple[str, FailureKind, str], int] = field(default_factory=dict)  # (judge, kind, message) -> count


def error_message(judgement: Judgement) -> str:
    """A failed judgement's error without what is unique to it (the cache key of an offline miss), so the
    summary can count alike failures."""
    error = judgement.error or ""
    return "offline: no cached response" if judgement.error_kind is FailureKind.OFFLINE else error


def discover_answers(
    run_dir: Path, cells: list[str] | None, questions: dict[str, Question], questions_path: Path
) -> list[AnswerItem]:
    if not run_dir.is_dir():
        raise UserError("run directory does not exist", run_dir)
    available = sorted(p.name for p in run_dir.iterdir() if (p / "answers").is_dir())
    if cells:
        unknown = [c for c in cells if c not in available]
        if unknown:
            raise UserError(
                f"no cell {unknown[0]!r} with an answers/ directory (cells: {', '.join(available) or 'none'})", run_dir
            )
        chosen = sorted(set(cells))
    else:
        chosen = available
    items: list[AnswerItem] = []
    for cell in chosen:
        for path in sorted((run_dir / cell / "answers").glob("*.md")):
            question = questions.get(path.stem)
            if question is None:
                raise UserError(f"answer for question id {path.stem!r}, which is not in {questions_path}", path)
            items.append(AnswerItem(cell=cell, qid=path.stem, path=path, question=question))
    if not items:
        raise UserError("no answers found (expected <cell>/answers/<qid>.md)", run_dir)
    return items


def _try_read(path: Path, cls: type[M]) -> M | None:
    """An existing output file, or None when absent or unreadable (it is then redone)."""
    if not path.is_file():
        return None
    try:
        return read_model(path, cls)
    except UserError:
        return None


def _summary(path: Path, run_dir: Path, report: GroundingReport) -> GroundingSummary:
    counts = {str(getattr(k, "value", k)): v for k, v in sorted(report.counts.items(), key=lambda kv: str(kv[0]))}
    return GroundingSummary(
        path=path.relative_to(run_dir).as_posix(), sha256=sha256_file(path), counts=counts, grounder=report.grounder
    )


def _matches_grounders(report: GroundingReport, extractor_name: str) -> bool:
    """Was this report made the way this run would make it: same extractor, and no LLM verifier call failed
    (a failed one is asked again). Whether an LLM verifier was used at all is in the grounder fingerprint."""
    return report.extractor == extractor_name and not any(c.llm_failed() for c in report.claims)


def grounding_path(run_dir: Path, cell: str, qid: str) -> Path:
    return run_dir / cell / "grounding" / f"{qid}.json"


def _earlier_llm_usage(run_dir: Path, item: AnswerItem, grounding_sha256: str) -> list[LLMUsage]:
    """What the LLM grounding helpers cost when a reused report was made, as its score file recorded it."""
    old = _try_read(run_dir / item.cell / "scores" / f"{item.qid}.json", ScoreFile)
    return old.grounding.llm if old is not None and old.grounding is not None and old.grounding.sha256 == grounding_sha256 else []


def ground_all(
    items: list[AnswerItem],
    run_dir: Path,
    snapshot,
    index,
    write: bool,
    progress: bool,
    extractor=None,
    verifier=None,
    callers=(),
) -> int:
    """Ground each answer once (reusing a report made from the same answer bytes, corpus and grounder).
    ``callers``: the LLM helpers' GroundingCallers, whose per-answer usage goes into the grounding summary.
    Returns how many earlier reports were redone because another grounder made them."""
    from rich.console import Console
    from rich.progress import Progress

    from groundjudge.grounding.claims import MarkdownClaimExtractor
    from groundjudge.grounding.fingerprint import grounder_fingerprint
    from groundjudge.grounding.ground import ground_text

    grounder = grounder_fingerprint(extractor, verifier)
    regrounded = 0
    # An LLM extractor that failed names itself after its fallback, so such a report is redone next run.
    extractor_name = getattr(extractor, "intended_name", None) or MarkdownClaimExtractor().name

    with Progress(console=Console(stderr=True), disable=not progress, transient=True) as bar:
        task = bar.add_task("grounding", total=len(items))
        for item in items:
            path = grounding_path(run_dir, item.cell, item.qid)
            earlier = _try_read(path, GroundingReport)
            same_inputs = (
                earlier is not None
                and earlier.answer.sha256 == item.sha256
                and earlier.corpus.tree_hash == snapshot.tree_hash
                and earlier.subject == item.question.subject
                and _matches_grounders(earlier, extractor_name)
            )
            fresh = same_inputs and earlier is not None and earlier.grounder == grounder
            regrounded += bool(same_inputs and not fresh)
            if fresh and earlier is not None:
                report = earlier
            else:
                # Recorded relative to the run directory, so reports do not depend on where it lives.
                ref = AnswerRef(path=item.path.relative_to(run_dir).as_posix(), sha256=item.sha256)
                report = ground_text(snapshot, index, item.text, ref, extractor, verifier, item.question.subject)
                if write:
                    write_model(path, report)
            llm = [c.take_tally() for c in callers]
            item.grounding = report
            # A dry run writes nothing and needs no summary: no score file is written from it.
            item.grounding_summary = _summary(path, run_dir, report) if (fresh or write) else None
            if item.grounding_summary is not None and callers:
                item.grounding_summary.llm = _earlier_llm_usage(run_dir, item, item.grounding_summary.sha256) if fresh else llm
            bar.advance(task)
    return regrounded


def _inputs(score: ScoreFile) -> tuple[str | None, ...]:
    grounder = score.grounding.grounder if score.grounding is not None else None
    return (score.answer_sha256, score.corpus_tree_hash, score.template_sha256, score.rubric.sha256, grounder)


def plan(item: AnswerItem, judges: list[JudgeConfig], score_path: Path, force: bool, inputs: tuple[str | None, ...]) -> None:
    """Decide which judges must (re)score this answer and which judgements are kept. A score file that
    cannot be used (unreadable, or holding impossible values) is treated as missing and rewritten."""
    item.kept, item.todo, item.malformed = {}, [], None
    existing = None
    if score_path.is_file():
        try:
            existing = read_model(score_path, ScoreFile)
        except UserError as exc:
            item.malformed = str(exc)
    if force:
        existing = None
    by_judge = {j.judge: j for j in existing.judgements} if existing is not None and _inputs(existing) == inputs else {}
    assert item.prompt is not None
    for judge in judges:
        old = by_judge.get(judge.name)
        if (
            old is not None
            and old.valid
            and old.model == judge.model
            and old.prompt_sha256 == item.prompt.sha256
            and old.params_sha256 == judge.params_sha256
        ):
            item.kept[judge.name] = old
        else:
            item.todo.append(judge.name)
    current = {j.name for j in judges}
    item.rewrite = bool(item.todo) or existing is None or {j.judge for j in existing.judgements} != current


def _record(j: JudgeConfig) -> JudgeRecord:
    return JudgeRecord(
        name=j.name,
        provider=j.provider,
        model=j.model,
        base_url=j.base_url,
        params=j.sampling_params(),
        params_sha256=j.params_sha256,
        simulated=j.simulated,
    )


class Runner:
    """One ``score`` run. Constructing it reads and checks every input (a UserError names the first
    problem); ``prepare`` grounds and plans, then ``execute`` or ``estimate``."""

    def __init__(self, options: ScoreOptions, echo: Callable[[str], None] = print):
        from groundjudge.grounding.snapshot import open_corpus
        from groundjudge.judging.prompts import judgement_schema, load_template
        from groundjudge.questions import load_questions
        from groundjudge.rubrics import load_rubric

        o = self.o = options
        self.echo = echo
        if o.budget_usd is not None and o.budget_usd < 0:
            raise UserError("--budget must not be negative")
        self.budget = Budget(limit_usd=o.budget_usd)  # LLM grounding helpers spend from it before the judges do
        # Judges and grounding helpers on one endpoint share its concurrency and --rpm/--tpm window.
        self.endpoints: dict[str, Endpoint] = {}
        self.config: JudgingConfig = load_config(o.config)
        self.judges = select_judges(self.config, o.judges)
        self.rubric = load_rubric(o.rubric)
        self.template = load_template(o.template)
        self.schema = judgement_schema(self.rubric)
        question_list = load_questions(o.questions)
        self.questions_sha256 = sha256_file(o.questions)
        self.items = discover_answers(o.run_dir, o.cells, {q.id: q for q in question_list}, o.questions)
        for item in self.items:
            item.text, item.sha256 = read_answer(item.path)
        self.snapshot = open_corpus(o.corpus)
        if not o.force:
            self._check_run_inputs()

    def _check_run_inputs(self) -> None:
        """Refuse a corpus or question set other than the one the run records (its run.json, or the
        manifest of an earlier score): every claim would be checked against the wrong code, or every
        answer judged against the wrong question, and the judges paid for it."""
        o = self.o
        recorded: list[tuple[Path, str, str | None, str | None]] = []  # (file, what, tree hash, questions sha256)
        provenance = o.run_dir / "run.json"
        if provenance.is_file():
            try:
                data = json.loads(provenance.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError) as exc:
                raise UserError(f"not valid JSON ({exc})", provenance) from None
            if isinstance(data, dict):
                corpus, questions = data.get("corpus") or {}, data.get("questions") or {}
                recorded.append((provenance, "run.json", corpus.get("tree_hash"), questions.get("sha256")))
        manifest = _try_read(o.run_dir / MANIFEST, RunManifest)
        if manifest is not None:
            recorded.append((o.run_dir / MANIFEST, "an earlier score", manifest.corpus_tree_hash, manifest.questions_sha256))
        for path, what, tree, questions in recorded:
            if tree and tree != self.snapshot.tree_hash:
                raise UserError(
                    f"{what} records corpus tree {tree[:12]}, but --corpus {o.corpus} is tree "
                    f"{self.snapshot.tree_hash[:12]}: the answers are about other code (--force scores "
                    "against it anyway)",
                    path,
                )
            if questions and questions != self.questions_sha256:
                raise UserError(
                    f"{what} records a question set with sha256 {questions[:12]}, but --questions "
                    f"{o.questions} has {self.questions_sha256[:12]} (--force scores against it anyway)",
                    path,
                )

    def _llm_grounders(self) -> tuple[Any, Any, Any, list[Any]]:
        """The optional LLM claim extractor and fallback verifier. A dry run only replays them from the cache."""
        o = self.o
        if not (o.llm_claims or o.llm_verify):
            return None, None, None, []
        from groundjudge.judging.grounding_callers import grounding_caller
        from groundjudge.judging.llm_grounding import GroundingCaller, LLMClaimExtractor, LLMVerifier

        cache = ResponseCache(o.cache)
        callers: list[GroundingCaller | None] = []
        helpers: tuple[tuple[str, Literal["claims", "verify"], str | None], ...] = (
            ("--llm-claims", "claims", o.llm_claims),
            ("--llm-verify", "verify", o.llm_verify),
        )
        for flag, role, spec in helpers:
            if not spec:
                callers.append(None)
                continue
            try:
                caller = grounding_caller(
                    flag,
                    spec,
                    role,
                    config=self.config,
                    cache=cache,
                    budget=self.budget,
                    endpoint=self._endpoint,
                    offline=o.offline or o.dry_run,
                    seed=o.seed,
                    warn=self.echo,
                )
            except UserError:
                cache.close()
                raise
            callers.append(caller)
        extractor = LLMClaimExtractor(callers[0]) if callers[0] else None
        verifier = LLMVerifier(callers[1]) if callers[1] else None
        return extractor, verifier, cache, [c for c in callers if c is not None]

    def _warnings(self, summary: RunSummary) -> None:
        for judge in self.judges:
            needs = judge.provider != "openai-compatible" and not judge.api_key()
            if needs and not self.o.offline and not self.o.dry_run:
                summary.warnings.append(
                    f"{judge.name}: {judge.api_key_env} is not set; its judgements are recorded as "
                    f"errors (set {judge.api_key_env}, or choose judges with --judge)"
                )
            if self.config.price(judge.model) is None:
                summary.warnings.append(
                    f"{judge.name}: no price for model {judge.model!r} in the config; its cost is not "
                    "recorded and does not count toward --budget"
                )
        for line in summary.warnings:
            self.echo(f"warning: {line}")

    def _manifest(self) -> RunManifest:
        return RunManifest(
            tool_version=__version__,
            corpus_name=self.snapshot.name,
            corpus_tree_hash=self.snapshot.tree_hash,
            **questions_location(self.o.questions, self.o.run_dir),
            questions_sha256=self.questions_sha256,
            rubric=self.rubric.ref(),
            template_name=self.template.name,
            template_sha256=self.template.sha256,
            schema_sha256=sha256_json(self.schema.model_json_schema()),
            judges=[_record(j) for j in self.judges],
            cells=sorted({i.cell for i in self.items}),
            config_files=self.config.source,
            config_sha256=[sha256_file(path) for path in self.config.source],
            run_json_sha256=sha256_file(provenance) if (provenance := self.o.run_dir / "run.json").is_file() else None,
            llm_claims=_record(self._llm_judge(self.o.llm_claims)) if self.o.llm_claims else None,
            llm_verify=_record(self._llm_judge(self.o.llm_verify)) if self.o.llm_verify else None,
        )

    def _llm_judge(self, spec: str) -> JudgeConfig:
        from groundjudge.judging.config import parse_judge_spec

        return self.config.resolve(parse_judge_spec(spec))

    def _endpoint(self, judge: JudgeConfig) -> Endpoint:
        if judge.endpoint not in self.endpoints:
            concurrency = self.o.concurrency or self.config.defaults.concurrency
            self.endpoints[judge.endpoint] = Endpoint(asyncio.Semaphore(concurrency), RateLimiter(self.o.rpm, self.o.tpm))
        return self.endpoints[judge.endpoint]

    def _make_judges(self, cache: ResponseCache | None, budget: Budget) -> dict[str, Judge]:
        rng = random.Random(self.o.seed)
        out = {}
        for j in self.judges:
            out[j.name] = Judge(
                config=j,
                price=self.config.price(j.model),
                endpoint=self._endpoint(j),
                policy=self.config.retry,
                cache=cache,
                budget=budget,
                offline=self.o.offline,
                rng=random.Random(rng.random()),
            )
        return out

    def run(self) -> RunSummary:
        summary = self.prepare()
        return self.estimate(summary) if self.o.dry_run else self.execute(summary)

    def prepare(self) -> RunSummary:
        """Everything before the first judgement call: grounding, prompts, the plan."""
        from groundjudge.grounding.index import load_index
        from groundjudge.judging.prompts import render_judge_prompt

        o = self.o
        summary = RunSummary(answers=len(self.items))
        self._warnings(summary)
        index = load_index(self.snapshot, progress=o.progress)
        extractor, verifier, grounding_cache, callers = self._llm_grounders()
        try:
            summary.regrounded = ground_all(
                self.items,
                o.run_dir,
                self.snapshot,
                index,
                write=not o.dry_run,
                progress=o.progress,
                extractor=extractor,
                verifier=verifier,
                callers=callers,
            )
        finally:
            for caller in callers:
                caller.close()
            if grounding_cache is not None:
                grounding_cache.close()
        summary.llm_grounding_calls = sum(c.client.counters.calls for c in callers)
        summary.llm_grounding_spent_usd = self.budget.spent_usd
        summary.llm_grounding_refused = self.budget.refused
        for item in self.items:
            item.prompt = render_judge_prompt(self.template, item.question, item.text, self.rubric, item.grounding)
            for verdict, n in (item.grounding.counts if item.grounding else {}).items():
                name = str(getattr(verdict, "value", verdict))
                summary.verdicts[name] = summary.verdicts.get(name, 0) + n
        self._plan(self.items, summary)
        return summary

    def _plan(self, items: list[AnswerItem], summary: RunSummary) -> None:
        summary.judgements_planned = summary.judgements_kept = 0
        summary.malformed_rewritten = []
        for item in items:
            grounder = item.grounding.grounder if item.grounding is not None else None
            inputs = (item.sha256, self.snapshot.tree_hash, self.template.sha256, self.rubric.sha256, grounder)
            plan(item, self.judges, self._score_path(item), self.o.force, inputs)
            summary.judgements_planned += len(item.todo)
            summary.judgements_kept += len(item.kept)
            if item.malformed:
                summary.malformed_rewritten.append(item.malformed)
        summary.answers_skipped = sum(1 for i in items if not i.rewrite)

    def _lock_cells(self, locks: ExitStack, summary: RunSummary) -> None:
        """Hold each cell this run scores, so that a second ``score`` process on the same cells skips them
        instead of calling (and paying for) every judgement a second time. A cell another process holds is
        left out and listed; the cells this run holds are planned again, since the other process may have
        finished them between this run's first plan and its lock."""
        held: list[str] = []
        for cell in sorted({i.cell for i in self.items}):
            fd = os.open(self.o.run_dir / cell, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                held.append(cell)
                continue
            locks.callback(os.close, fd)  # closing the descriptor releases the lock
        if held:
            summary.cells_held = held
            self.items = [i for i in self.items if i.cell not in held]
        self._plan(self.items, summary)

    def execute(self, summary: RunSummary) -> RunSummary:
        with ExitStack() as locks:
            self._lock_cells(locks, summary)
            cache = ResponseCache(self.o.cache)
            locks.callback(cache.close)
            write_manifest(self.o.run_dir, self._manifest(), self.echo)
            budget = self.budget
            judges = self._make_judges(cache, budget)
            asyncio.run(self._execute(judges, budget, summary))
            summary.spent_usd = budget.spent_usd
            summary.budget_refused = budget.refused - summary.llm_grounding_refused
            for judge in judges.values():
                summary.calls += judge.counters.calls
                summary.cache_hits += judge.counters.cache_hits
                summary.stale_cache += judge.counters.stale_cache
                if judge.health.stopped:
                    summary.stopped[judge.config.name] = judge.health.stopped
            return summary

    def _score_path(self, item: AnswerItem) -> Path:
        return self.o.run_dir / item.cell / "scores" / f"{item.qid}.json"

    def estimate(self, summary: RunSummary) -> RunSummary:
        """Token and cost projections for what a real run would call; reads the cache, calls no one."""
        cache = ResponseCache(self.o.cache)
        try:
            summary.estimates = self._estimates(cache)
        finally:
            cache.close()
        return summary

    def _estimates(self, cache: ResponseCache) -> list[JudgeEstimate]:
        schema_tokens = estimate_tokens(str(self.schema.model_json_schema()))
        out = []
        for j in self.judges:
            est = JudgeEstimate(judge=j.name, model=j.model)
            for item in self.items:
                if j.name not in item.todo:
                    continue
                assert item.prompt is not None
                est.judgements += 1
                if cache.get(request_key(j, item.prompt.system, item.prompt.user, self.schema)) is not None:
                    est.cached += 1
                    continue
                est.input_tokens += estimate_tokens(item.prompt.system) + estimate_tokens(item.prompt.user) + schema_tokens
                est.output_tokens += self.config.defaults.expected_output_tokens
            price = self.config.price(j.model)
            est.cost_usd = price.cost(est.input_tokens, est.output_tokens) if price else None
            out.append(est)
        return out

    async def _execute(self, judges: dict[str, Judge], budget: Budget, summary: RunSummary) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        dims = [d.name for d in self.rubric.dimensions]
        work = [i for i in self.items if i.rewrite]
        pending = {id(i): len(i.todo) for i in work}
        results: dict[int, dict[str, Judgement]] = {id(i): dict(i.kept) for i in work}
        columns = (
            TextColumn("scoring"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("done {task.fields[done]}"),
            TextColumn("failed {task.fields[failed]}"),
            TextColumn("${task.fields[spend]:.4f}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
        )
        quiet = not self.o.progress or summary.judgements_planned == 0
        with Progress(*columns, console=Console(stderr=True), disable=quiet) as bar:
            bar_task = bar.add_task("scoring", total=summary.judgements_planned, done=0, failed=0, spend=0.0)

            async def finish(item: AnswerItem) -> None:
                ordered = [results[id(item)][j.name] for j in self.judges]
                # In a worker thread: the fsync of an atomic write must not stall the calls in flight.
                await asyncio.to_thread(
                    write_model,
                    self._score_path(item),
                    ScoreFile(
                        qid=item.qid,
                        cell=item.cell,
                        judged=any(j.valid for j in ordered),
                        judgements=ordered,
                        grounding=item.grounding_summary,
                        answer_sha256=item.sha256,
                        rubric=self.rubric.ref(),
                        corpus_tree_hash=self.snapshot.tree_hash,
                        template_sha256=self.template.sha256,
                        tool_version=__version__,
                    ),
                )
                summary.score_files_written += 1

            async def one(item: AnswerItem, name: str) -> None:
                assert item.prompt is not None
                judgement = await judges[name].judge(item.prompt.system, item.prompt.user, item.prompt.sha256, self.schema, dims)
                results[id(item)][name] = judgement
                if judgement.valid:
                    summary.done += 1
                else:
                    summary.failed += 1
                    kind = (name, judgement.error_kind or FailureKind.OTHER, error_message(judgement))
                    summary.errors[kind] = summary.errors.get(kind, 0) + 1
                bar.update(bar_task, advance=1, done=summary.done, failed=summary.failed, spend=budget.spent_usd)
                pending[id(item)] -= 1
                if pending[id(item)] == 0:
                    await finish(item)

            tasks = [asyncio.create_task(one(item, name)) for item in work for name in item.todo]
            try:
                for item in work:
                    if not item.todo:
                        await finish(item)  # only the judge set changed: rewrite without calls
                await asyncio.gather(*tasks)
            finally:
                # On Ctrl-C or a failed write, stop the rest and collect every outcome here: an exception
                # left on a task would be logged when the task is garbage-collected, at an arbitrary point.
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                for judge in judges.values():
                    await judge.aclose()
