"""``groundjudge demo``: the whole pipeline on the bundled sample corpora and example runs.

It works on a copy of the example runs (the bundled files are never written to). Everything that
needs no provider always runs: snapshots, the index, grounding, blind-cell verification from the
example event streams, prompt rendering with token and cost projections, and the P0-capped
criterion scoring. Real judges score when they can: a key in the environment, or an
OpenAI-compatible server named with ``--judge``. Otherwise two SIMULATED judges score
(``judging/simulated.py``, served by the loopback provider through the real SDKs), twice, so the
report, plots, test-retest floor and agreement between judges show what they show on real data;
every output says the judges were simulated.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from groundjudge.errors import UserError

if TYPE_CHECKING:
    from rich.table import Table

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Sample:
    name: str
    run: Path
    corpus: Path
    questions: Path


SAMPLES = (
    Sample("cobol-bank", REPO / "examples" / "run", REPO / "corpora" / "cobol-bank", REPO / "questions" / "cobol-bank.jsonl"),
    Sample("pyledger", REPO / "examples" / "run-pyledger", REPO / "corpora" / "pyledger", REPO / "questions" / "pyledger.jsonl"),
)
CRITERIA_RESPONSES = REPO / "examples" / "criteria-responses.json"
BLIND_CELLS = "notools-*"

REPLICATES = (1, 2)  # the simulated judges' seeds: the scoring the report shows, and the rerun test-retest compares
# The SDKs refuse to start without a key; the loopback provider ignores it. Set only while the
# simulated judges run, over any real key, so that none reaches the loopback server.
DUMMY_KEY = "simulated-no-key"

HOW_TO_ADD_JUDGES = """\
The judges above were SIMULATED: every score, interval, agreement figure and the test-retest floor
come from judging/simulated.py, not from any model. They show what the analysis does. To add real judges:
  export ANTHROPIC_API_KEY=... OPENAI_API_KEY=...   # the configured pair, judge-claude and judge-gpt
or point a judge at a local OpenAI-compatible server (vLLM, llama.cpp server, Ollama):
  groundjudge demo --judge local=openai-compatible:qwen2.5-7b-instruct@http://127.0.0.1:8080/v1
or, to try the plumbing offline, at the loopback provider the tests use (it scores every answer alike):
  python -m groundjudge.judging.fakeprovider   # prints its URL; then --judge fake=openai-compatible:any@URL/v1
then run `groundjudge demo` again: grounding is reused and only the judgements are new."""


def _copy_run(src: Path, dst: Path) -> None:
    """Copy the example answers (and event streams, provenance) but none of the outputs of a run."""
    if not src.is_dir():
        raise UserError("bundled example run not found (groundjudge demo needs a source checkout: pip install -e .)", src)
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if path.is_file() and (rel.parts[-1] == "run.json" or (len(rel.parts) == 3 and rel.parts[1] in ("answers", "events"))):
            target = dst / rel
            if not target.exists() or target.read_bytes() != path.read_bytes():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)


def _usable(judge_specs: list[str] | None) -> bool:
    from groundjudge.judging.config import load_config, select_judges

    judges = select_judges(load_config(None), judge_specs)
    return any(j.provider == "openai-compatible" or j.api_key() for j in judges)


@contextmanager
def _dummy_keys() -> Iterator[None]:
    from groundjudge.judging.config import KEY_ENV

    saved = {var: os.environ.get(var) for var in sorted(set(KEY_ENV.values()))}
    os.environ.update({var: DUMMY_KEY for var in saved})
    try:
        yield
    finally:
        for var, value in saved.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value


def _forget_simulated_manifest(run_dir: Path) -> None:
    """A simulated judge's base URL holds the loopback server's port, new in every demo: the manifest
    of an earlier simulated demo would be reported as another run's and replaced with a warning."""
    from groundjudge.judging.manifest import MANIFEST, RunManifest
    from groundjudge.storage import read_model

    path = run_dir / MANIFEST
    if path.is_file() and all(j.simulated for j in read_model(path, RunManifest).judges):
        path.unlink()


def _simulated_config(out: Path) -> Path:
    """The simulated judges' config, recorded in their runs' manifests: their models priced at zero
    (a model without a price is warned about on every run)."""
    from groundjudge.judging.simulated import JUDGES
    from groundjudge.storage import atomic_write_text

    path = out / "simulated-judges.toml"
    atomic_write_text(
        path,
        "# Written by `groundjudge demo`: the simulated judges (judging/simulated.py) cost nothing.\n"
        + "".join(f'[prices."{j.model}"]\ninput_per_mtok = 0.0\noutput_per_mtok = 0.0\n' for j in JUDGES),
    )
    return path


def _score_simulated(
    sample: Sample, run_dir: Path, replicate: int, config: Path, cache: Path, echo: Callable[[str], None]
) -> None:
    """Score the run with the simulated judges, on a loopback provider of their own (its responder
    holds the replicate's seed). ``cache``: a response cache of this demo only, since the server's
    port, part of every cache key, is new in every demo."""
    from groundjudge.judging.fakeprovider import FakeProvider
    from groundjudge.judging.runner import Runner, ScoreOptions
    from groundjudge.judging.simulated import JUDGES, simulated_reply

    _forget_simulated_manifest(run_dir)
    with FakeProvider(responder=partial(simulated_reply, replicate=replicate)) as fp, _dummy_keys():
        specs = [
            f"{j.name}={j.provider}:{j.model}@{fp.anthropic_base_url if j.provider == 'anthropic' else fp.openai_base_url}"
            for j in JUDGES
        ]
        runner = Runner(
            ScoreOptions(
                run_dir=run_dir,
                corpus=str(sample.corpus),
                questions=sample.questions,
                judges=specs,
                config=config,
                cache=cache,
                progress=False,
            ),
            echo=echo,
        )
        summary = runner.prepare()
        # Marked after prepare() resolved them, before execute() records them in the manifest.
        runner.judges = [j.model_copy(update={"simulated": True}) for j in runner.judges]
        summary = runner.execute(summary)
    echo(f"replicate {replicate}: {summary.done} simulated judgements, {summary.failed} failed, in {run_dir}")


def _simulate(sample: Sample, out: Path, echo: Callable[[str], None]) -> Path:
    """Score the sample's run with the simulated judges, then a copy of it with the second replicate's
    seed, the rerun that test-retest compares it to; returns the copy's run directory."""
    replicate_dir = out / "replicate" / sample.name
    _copy_run(sample.run, replicate_dir)
    config = _simulated_config(out)
    with tempfile.TemporaryDirectory(prefix="groundjudge-simulated-") as work:
        for replicate, run_dir in zip(REPLICATES, (out / sample.name, replicate_dir)):
            _score_simulated(sample, run_dir, replicate, config, Path(work) / "cache.sqlite", echo)
    return replicate_dir


def _verdict_table(sample: Sample, run_dir: Path) -> Table:
    from rich.table import Table

    from groundjudge.grounding.models import GroundingReport, Verdict
    from groundjudge.storage import read_model

    table = Table(title=f"grounding: {sample.name} (reports in {run_dir}/<cell>/grounding/)")
    table.add_column("cell", no_wrap=True)
    table.add_column("question", no_wrap=True)
    for header in ("supported", "partially", "unsupported", "unable to verify"):
        table.add_column(header, justify="right")
    totals = {v: 0 for v in Verdict}
    for path in sorted(run_dir.glob("*/grounding/*.json")):
        report = read_model(path, GroundingReport)
        table.add_row(path.parent.parent.name, path.stem, *(str(report.counts.get(v, 0)) for v in Verdict))
        for v in Verdict:
            totals[v] += report.counts.get(v, 0)
    table.add_section()
    table.add_row("all", "", *(str(totals[v]) for v in Verdict))
    return table


def demo_cmd(
    out: Path = typer.Option(
        Path("groundjudge-demo"), "--out", help="Where the demo's copy of the example runs and its outputs go."
    ),
    judge: list[str] = typer.Option(
        None,
        "--judge",
        help="NAME=PROVIDER:MODEL\\[@BASE_URL]; repeatable. Default: the configured pair, when their keys are set; without keys, two simulated judges.",
    ),
) -> None:
    """Run the whole pipeline on the bundled sample corpora and example runs."""
    from rich.console import Console

    from groundjudge.judging.runner import Runner, ScoreOptions, grounding_path
    from groundjudge.rubrics.cli import score_cmd as score_criteria
    from groundjudge.storage import write_model
    from groundjudge.validation.blind import run_blind
    from groundjudge.validation.cli_agreement import judges_cmd as agreement_judges
    from groundjudge.validation.report import run_report
    from groundjudge.validation.retest import run_retest
    from groundjudge.validation.view.site import build_site

    if out.exists() and not out.is_dir():
        raise UserError("--out is a file, not a directory", out)
    console = Console(highlight=False)
    echo = lambda line: console.print(line, markup=False)  # noqa: E731
    judge_specs = judge or None
    live = _usable(judge_specs)
    runs: list[tuple[Path, Path | None]] = []  # (run, its simulated replicate)
    for sample in SAMPLES:
        run_dir = out / sample.name
        _copy_run(sample.run, run_dir)
        console.rule(f"{sample.name}: corpus {sample.corpus.relative_to(REPO)}")
        options = ScoreOptions(
            run_dir=run_dir, corpus=str(sample.corpus), questions=sample.questions, judges=judge_specs, dry_run=not live
        )
        runner = Runner(options, echo=echo)
        replicate_dir = None
        if live:
            summary = runner.run()
            console.print(
                f"scored: {summary.done} judgements, {summary.failed} failed (recorded, never 0), "
                f"{summary.cache_hits} from the cache, ${summary.spent_usd:.4f}"
            )
        else:
            summary = runner.estimate(runner.prepare())
            # A dry run writes nothing, but grounding needs no provider: keep its reports.
            for item in runner.items:
                assert item.grounding is not None  # prepare() grounds every item
                write_model(grounding_path(run_dir, item.cell, item.qid), item.grounding)
            for e in summary.estimates:
                cost = "no price" if e.cost_usd is None else f"${e.cost_usd:.4f}"
                console.print(
                    f"{e.judge} ({e.model}) would make {e.judgements} calls: ~{e.input_tokens} input and "
                    f"~{e.output_tokens} output tokens, {cost}"
                )
            console.print(
                "no key for these judges: scoring with SIMULATED judges (judging/simulated.py; no model is "
                "called), twice, for the test-retest floor"
            )
            replicate_dir = _simulate(sample, out, echo)
        console.print(_verdict_table(sample, run_dir))
        # The notools-* cells were answered without the source: their event streams must show it.
        for target in filter(None, (run_dir, replicate_dir)):
            run_blind(target, [BLIND_CELLS])
        runs.append((run_dir, replicate_dir))

    console.rule("P0-capped criterion scoring: rubrics/criteria-example.toml")
    score_criteria(rubric="criteria-example", responses=CRITERIA_RESPONSES, out=None)

    for run_dir, replicate_dir in runs:
        label = "" if replicate_dir is None else " (SIMULATED judges)"
        console.rule(f"report{label}: {run_dir}")
        run_report(run_dir, run_dir / "report", retest_run=replicate_dir)
        console.print(f"run viewer: {build_site(run_dir)} (open it in a browser; report.md links each answer to its page)")
        if replicate_dir is not None:
            console.rule(f"test-retest{label}: {run_dir} against {replicate_dir}")
            run_retest(run_dir, replicate_dir, None, run_dir / "retest")
            console.rule(f"agreement between judges{label}: {run_dir}")
            agreement_judges(run_dir, cells=None, by_cell=False, out=run_dir / "agreement")
    if not live:
        console.rule("SIMULATED judges")
        console.print(HOW_TO_ADD_JUDGES, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo_cmd)
