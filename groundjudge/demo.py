"""``groundjudge demo``: the whole pipeline on the bundled sample corpora and example runs.

It works on a copy of the example runs (the bundled files are never written to). Everything that
needs no provider always runs: snapshots, the index, grounding, blind-cell verification from the
example event streams, prompt rendering with token and cost projections, the P0-capped criterion
scoring, and — once score files exist — the report. Judges run
only when they can: a key in the environment, or an OpenAI-compatible server named with ``--judge``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import typer

from groundjudge.errors import UserError

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

HOW_TO_ADD_JUDGES = """\
No judge could be called, so nothing was scored. To add judges:
  export ANTHROPIC_API_KEY=...   # judge-claude (Anthropic)
  export OPENAI_API_KEY=...      # judge-gpt (OpenAI)
or point a judge at a local OpenAI-compatible server (vLLM, llama.cpp server, Ollama), e.g.
  groundjudge demo --judge local=openai-compatible:qwen2.5-7b-instruct@http://127.0.0.1:8080/v1
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
    from judging.config import load_config, select_judges

    judges = select_judges(load_config(None), judge_specs)
    return any(j.provider == "openai-compatible" or j.api_key() for j in judges)


def _verdict_table(sample: Sample, run_dir: Path):  # type: ignore[no-untyped-def]
    from rich.table import Table

    from groundjudge.storage import read_model
    from grounding.models import GroundingReport, Verdict

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
    out: Path = typer.Option(Path("groundjudge-demo"), "--out", help="Where the demo's copy of the example runs and its outputs go."),
    judge: list[str] = typer.Option(None, "--judge", help="NAME=PROVIDER:MODEL\\[@BASE_URL]; repeatable. Default: the configured pair, when their keys are set."),
) -> None:
    """Run the whole pipeline on the bundled sample corpora and example runs."""
    from rich.console import Console

    from groundjudge.storage import write_model
    from judging.runner import Runner, ScoreOptions, grounding_path
    from rubrics.cli import score_cmd as score_criteria
    from validation.blind import run_blind
    from validation.report import run_report

    if out.exists() and not out.is_dir():
        raise UserError("--out is a file, not a directory", out)
    console = Console(highlight=False)
    judge_specs = judge or None
    live = _usable(judge_specs)
    scored: list[Path] = []
    for sample in SAMPLES:
        run_dir = out / sample.name
        _copy_run(sample.run, run_dir)
        console.rule(f"{sample.name}: corpus {sample.corpus.relative_to(REPO)}")
        options = ScoreOptions(run_dir=run_dir, corpus=str(sample.corpus), questions=sample.questions, judges=judge_specs,
                               dry_run=not live)
        runner = Runner(options, echo=lambda line: console.print(line, markup=False))
        if live:
            summary = runner.run()
            console.print(f"scored: {summary.done} judgements, {summary.failed} failed (recorded, never 0), "
                          f"{summary.cache_hits} from the cache, ${summary.spent_usd:.4f}")
            scored.append(run_dir)
        else:
            summary = runner.estimate(runner.prepare())
            # A dry run writes nothing, but grounding needs no provider: keep its reports.
            for item in runner.items:
                write_model(grounding_path(run_dir, item.cell, item.qid), item.grounding)
            for e in summary.estimates:
                cost = "no price" if e.cost_usd is None else f"${e.cost_usd:.4f}"
                console.print(f"{e.judge} ({e.model}) would make {e.judgements} calls: ~{e.input_tokens} input and "
                              f"~{e.output_tokens} output tokens, {cost}")
        console.print(_verdict_table(sample, run_dir))
        # The notools-* cells were answered without the source: their event streams must show it.
        run_blind(run_dir, [BLIND_CELLS])

    console.rule("P0-capped criterion scoring: rubrics/criteria-example.toml")
    score_criteria(rubric="criteria-example", responses=CRITERIA_RESPONSES, out=None)

    if scored:
        for run_dir in scored:
            console.rule(f"report: {run_dir}")
            run_report(run_dir, run_dir / "report")
    else:
        console.rule("judges")
        console.print(HOW_TO_ADD_JUDGES)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo_cmd)
