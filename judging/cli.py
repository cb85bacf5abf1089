"""``groundjudge score``: the judging stage's command."""

from __future__ import annotations

from pathlib import Path

import typer


def score_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory holding <cell>/answers/<qid>.md."),
    corpus: str = typer.Option(..., "--corpus", help="Stored snapshot name or corpus directory the answers are about."),
    questions: Path = typer.Option(..., "--questions", help="Question set (JSONL) the answers reply to."),
    rubric: str = typer.Option("reference-free", "--rubric", help="Bundled rubric name or path to a rubric TOML file."),
    template: str = typer.Option("judge-dimensions-v1", "--template", help="Bundled prompt template name or path."),
    judge: list[str] = typer.Option(None, "--judge", help="NAME=PROVIDER:MODEL[@BASE_URL]; repeatable. Providers: anthropic, openai, openai-compatible. Default: the judges in groundjudge.toml."),
    cells: str = typer.Option(None, "--cells", help="Comma-separated cells to score (default: every cell with an answers/ directory)."),
    force: bool = typer.Option(False, "--force", help="Redo every judgement, even ones already scored with the same inputs."),
    offline: bool = typer.Option(False, "--offline", help="Replay from the response cache only; a miss is a recorded error, never a call."),
    budget: float = typer.Option(None, "--budget", help="Stop submitting new calls once this many USD have been spent in this run."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Render every prompt and print token estimates and projected cost; call no one, write nothing."),
    concurrency: int = typer.Option(None, "--concurrency", min=1, help="In-flight calls per provider endpoint (default from the config)."),
    rpm: int = typer.Option(None, "--rpm", min=1, help="Requests per minute per provider endpoint."),
    tpm: int = typer.Option(None, "--tpm", min=1, help="Estimated tokens per minute per provider endpoint."),
    config: Path = typer.Option(None, "--config", help="Config file (default: ./groundjudge.toml when present, over the bundled defaults)."),
    cache: Path = typer.Option(None, "--cache", help="Response cache SQLite file (default: <groundjudge home>/cache.sqlite)."),
    llm_claims: str = typer.Option(None, "--llm-claims", help="Extract claims with this model (NAME=PROVIDER:MODEL[@BASE_URL]) instead of the Markdown extractor. Off by default."),
    llm_verify: str = typer.Option(None, "--llm-verify", help="Ask this model (NAME=PROVIDER:MODEL[@BASE_URL]) about claims the deterministic checker leaves UNABLE_TO_VERIFY. Off by default."),
    no_progress: bool = typer.Option(False, "--no-progress", help="Do not draw progress bars."),
) -> None:
    """Ground every answer once, score it with every judge, and write score files and a run manifest."""
    from rich.console import Console
    from rich.table import Table

    from judging.runner import Runner, ScoreOptions

    options = ScoreOptions(
        run_dir=run_dir, corpus=corpus, questions=questions, rubric=rubric, template=template, judges=judge or None,
        cells=[c.strip() for c in cells.split(",") if c.strip()] if cells else None, force=force, offline=offline,
        budget_usd=budget, dry_run=dry_run, concurrency=concurrency, rpm=rpm, tpm=tpm, config=config, cache=cache,
        progress=not no_progress, llm_claims=llm_claims, llm_verify=llm_verify,
    )
    summary = Runner(options, echo=lambda line: typer.echo(line, err=True)).run()
    if dry_run:
        out = Console(highlight=False)
        table = Table(title="dry run: nothing was called or written")
        for col in ("judge", "model", "judgements", "cached", "est. input tokens", "est. output tokens", "projected USD"):
            table.add_column(col, justify="left" if col in ("judge", "model") else "right", no_wrap=col in ("judge", "model"))
        for e in summary.estimates:
            cost = "no price" if e.cost_usd is None else f"{e.cost_usd:.4f}"
            table.add_row(e.judge, e.model, str(e.judgements), str(e.cached), str(e.input_tokens), str(e.output_tokens), cost)
        out.print(table)
        typer.echo(f"{summary.answers} answers, {summary.judgements_planned} judgements to do, {summary.judgements_kept} already scored")
        return
    typer.echo(
        f"{summary.answers} answers ({summary.answers_skipped} already complete): {summary.done} judged, "
        f"{summary.failed} failed, {summary.judgements_kept} kept; {summary.calls} provider calls, "
        f"{summary.cache_hits} cache hits, spent ${summary.spent_usd:.4f}"
    )
    if summary.budget_refused:
        typer.echo(f"budget of ${budget:g} reached: {summary.budget_refused} judgements not submitted (recorded as errors; rerun with a higher --budget to finish)")
    for message, count in sorted(summary.errors.items()):
        typer.echo(f"  {count} x {message}")


def register(app: typer.Typer) -> None:
    app.command("score")(score_cmd)
