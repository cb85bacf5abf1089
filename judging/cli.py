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
    judge: list[str] = typer.Option(
        None,
        "--judge",
        help="NAME=PROVIDER:MODEL\\[@BASE_URL]; repeatable. Providers: anthropic, openai, openai-compatible. Default: the judges in groundjudge.toml.",
    ),
    cells: str = typer.Option(
        None, "--cells", help="Comma-separated cells to score (default: every cell with an answers/ directory)."
    ),
    force: bool = typer.Option(
        False,
        "--force",
        help="Redo every judgement, even ones already scored with the same inputs (through the response cache: use a new --cache to call the providers again); also score against a corpus or question set other than the one run.json or an earlier score recorded.",
    ),
    offline: bool = typer.Option(
        False, "--offline", help="Replay from the response cache only; a miss is a recorded error, never a call."
    ),
    budget: float = typer.Option(
        None,
        "--budget",
        help="Stop sending new calls and retries (judges and --llm-* helpers) once this run's spend reaches this many USD; unsent judgements are recorded as errors. Calls in flight finish: at most --concurrency per endpoint over.",
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Render every prompt and print token estimates and projected cost; call no one, write nothing."
    ),
    concurrency: int = typer.Option(
        None, "--concurrency", min=1, help="In-flight calls per provider endpoint (default from the config)."
    ),
    rpm: int = typer.Option(None, "--rpm", min=1, help="Requests per minute per provider endpoint."),
    tpm: int = typer.Option(None, "--tpm", min=1, help="Estimated tokens per minute per provider endpoint."),
    config: Path = typer.Option(
        None,
        "--config",
        help="Config file: \\[defaults], \\[retry], \\[\\[judges]], \\[prices.MODEL] (default: ./groundjudge.toml when present, laid over the bundled defaults; format in docs/judging.md).",
    ),
    cache: Path = typer.Option(
        None,
        "--cache",
        help="Response cache SQLite file (default: $GROUNDJUDGE_HOME/cache.sqlite, ~/.cache/groundjudge without it). Keyed by provider, base URL, model, prompt, parameters and schema; errors are never cached.",
    ),
    llm_claims: str = typer.Option(
        None,
        "--llm-claims",
        help="Extract claims with this model (NAME=PROVIDER:MODEL\\[@BASE_URL]) instead of the Markdown extractor. Off by default.",
    ),
    llm_verify: str = typer.Option(
        None,
        "--llm-verify",
        help="Ask this model (NAME=PROVIDER:MODEL\\[@BASE_URL]) about each claim as a whole and each fact the deterministic checks leave unchecked (one call per claim). Off by default.",
    ),
    no_progress: bool = typer.Option(False, "--no-progress", help="Do not draw progress bars."),
    strict: bool = typer.Option(
        False, "--strict", help="Exit 3 when any judgement failed (default: only when every judgement this run attempted failed)."
    ),
) -> None:
    """Ground every answer once, score it with every judge, and write score files and a run manifest.

    Resumable: a rerun keeps every valid judgement made with the same inputs and redoes the rest, failed
    ones included (errors are never cached). Keys: ANTHROPIC_API_KEY, OPENAI_API_KEY. Exit codes: 0 done
    (failures are listed), 2 bad input, 3 every judgement attempted failed (with --strict: any failed),
    130 interrupted. See docs/judging.md.
    """
    import logging

    from rich import box
    from rich.console import Console
    from rich.table import Table

    from groundjudge.judging.runner import Runner, ScoreOptions

    # instructor logs every failed attempt at ERROR level; the summary below reports failures itself.
    logging.getLogger("instructor").setLevel(logging.CRITICAL)
    options = ScoreOptions(
        run_dir=run_dir,
        corpus=corpus,
        questions=questions,
        rubric=rubric,
        template=template,
        judges=judge or None,
        cells=[c.strip() for c in cells.split(",") if c.strip()] if cells else None,
        force=force,
        offline=offline,
        budget_usd=budget,
        dry_run=dry_run,
        concurrency=concurrency,
        rpm=rpm,
        tpm=tpm,
        config=config,
        cache=cache,
        progress=not no_progress,
        llm_claims=llm_claims,
        llm_verify=llm_verify,
    )
    try:
        summary = Runner(options, echo=lambda line: typer.echo(line, err=True)).run()
    except KeyboardInterrupt:
        typer.echo("interrupted: every score file on disk is complete; run the same command again to finish the rest", err=True)
        raise typer.Exit(130) from None
    if dry_run:
        out = Console(highlight=False)
        rows = [
            (
                e.judge,
                e.model,
                str(e.judgements),
                str(e.cached),
                str(e.input_tokens),
                str(e.output_tokens),
                "no price" if e.cost_usd is None else f"{e.cost_usd:.4f}",
            )
            for e in summary.estimates
        ]
        # In an 80-column terminal the names wrap and the figures never shrink to an ellipsis.
        table = Table(
            title="dry run: nothing was called or written; token estimates and projected USD",
            box=box.SIMPLE_HEAVY,
            show_edge=False,
            pad_edge=False,
        )
        for i, col in enumerate(("judge", "model", "calls", "cached", "input\ntokens", "output\ntokens", "projected\nUSD")):
            figure = i >= 2
            width = max([len(r[i]) for r in rows] + [len(w) for w in col.split()])
            table.add_column(col, justify="right" if figure else "left", min_width=width if figure else None, overflow="fold")
        for row in rows:
            table.add_row(*row)
        out.print(table)
        typer.echo(
            f"{summary.answers} answers, {summary.judgements_planned} judgements to do, {summary.judgements_kept} already scored"
        )
        return
    typer.echo(
        f"{summary.answers} answers ({summary.answers_skipped} already complete): {summary.done} judged, "
        f"{summary.failed} failed, {summary.judgements_kept} kept; {summary.calls} provider calls, "
        f"{summary.cache_hits} cache hits, spent ${summary.spent_usd:.4f}"
    )
    if summary.verdicts:
        typer.echo("grounding: " + ", ".join(f"{n} {verdict}" for verdict, n in sorted(summary.verdicts.items())) + " claims")
    if summary.regrounded:
        typer.echo(f"regrounded {summary.regrounded} answers whose reports another grounder made (their judgements redone)")
    if summary.llm_grounding_calls or summary.llm_grounding_spent_usd:
        typer.echo(
            f"LLM grounding: {summary.llm_grounding_calls} provider calls, ${summary.llm_grounding_spent_usd:.4f} "
            "(included in the spend above)"
        )
    if summary.llm_grounding_refused:
        typer.echo(
            f"budget of ${budget:g} reached during grounding: {summary.llm_grounding_refused} LLM grounding calls "
            "not sent (those claims fell back to the deterministic extractor/verifier; a rerun retries them)"
        )
    if summary.budget_refused:
        typer.echo(
            f"budget of ${budget:g} reached: {summary.budget_refused} judgements not submitted (recorded as errors; rerun with a higher --budget to finish)"
        )
    if summary.malformed_rewritten:
        typer.echo(
            f"{len(summary.malformed_rewritten)} score files could not be used and were treated as missing "
            "(rewritten where scored again):"
        )
        for problem in summary.malformed_rewritten:
            typer.echo(f"  {problem}")
    if summary.stale_cache:
        typer.echo(f"{summary.stale_cache} cached replies failed today's validation and were asked again")
    if summary.cells_held:
        typer.echo(
            f"skipped cells another score process is scoring: {', '.join(summary.cells_held)} "
            "(run the same command again once it has finished)"
        )
    for judge_name, reason in sorted(summary.stopped.items()):
        typer.echo(
            f"judge {judge_name} stopped: its first calls were all refused with {reason}; the rest of its "
            "judgements were not submitted (check it with: groundjudge judges check --judge ...)"
        )
    if summary.failed:
        typer.echo(f"{summary.failed} failed judgements are recorded with their error and no scores (never as 0):")
        for (judge_name, kind, message), count in sorted(summary.errors.items()):
            typer.echo(
                f"  {judge_name}: {count} x {message}" + ("  [will recur: same prompt, same reply]" if kind.recurs else "")
            )
        if any(kind.recurs for _, kind, _ in summary.errors):
            typer.echo(
                "errors are never cached: every rerun calls these judges again for these judgements and pays for "
                "them again, and a [will recur] failure is expected to fail again; replace or drop such a judge "
                "(--judge) to stop paying for it"
            )
        else:
            typer.echo("a rerun of the same command retries exactly the failed judgements (errors are never cached)")
        if strict or summary.done == 0:
            typer.echo(f"exit 3: {'a judgement' if strict else 'every judgement'} failed", err=True)
            raise typer.Exit(3)


judges_app = typer.Typer(help="Check the configured judges.", no_args_is_help=True)

CHECK_SYSTEM = "You are checking that a judge is reachable. Score the answer on the rubric with the tool."
CHECK_ANSWER = "The program BKACT01C reads the account file and writes a report."


@judges_app.command("check")
def judges_check_cmd(
    judge: list[str] = typer.Option(
        None,
        "--judge",
        metavar="NAME=PROVIDER:MODEL[@BASE_URL]",
        help="A judge to check; repeatable. Default: the judges in groundjudge.toml.",
    ),
    config: Path = typer.Option(
        None,
        "--config",
        metavar="FILE",
        help="Config file (default: ./groundjudge.toml when present, over the bundled defaults).",
    ),
    rubric: str = typer.Option(
        "reference-free", "--rubric", metavar="NAME|FILE", help="The rubric whose judgement schema is sent."
    ),
) -> None:
    """Send one minimal judgement to each judge, uncached, exactly as `score` would send it, and print OK or
    the provider's own error in one line. Exit 0 when every judge answered with a valid judgement, 1 otherwise.
    Each check is a real, billed call of a few hundred tokens."""
    import asyncio
    import logging
    import random

    from groundjudge.judging.config import load_config, select_judges
    from groundjudge.judging.judge import Budget, Endpoint, Judge
    from groundjudge.judging.limits import RateLimiter
    from groundjudge.judging.prompts import judgement_schema
    from groundjudge.rubrics import load_rubric

    logging.getLogger("instructor").setLevel(logging.CRITICAL)
    settings = load_config(config)
    judges = select_judges(settings, judge or None)
    loaded = load_rubric(rubric)
    schema = judgement_schema(loaded)
    dims = [d.name for d in loaded.dimensions]
    user = f"Rubric dimensions: {', '.join(dims)}.\n<answer>\n{CHECK_ANSWER}\n</answer>"

    async def check_all() -> list[tuple[str, str]]:
        out = []
        for config_ in judges:
            one = Judge(
                config=config_,
                price=settings.price(config_.model),
                policy=settings.retry,
                cache=None,
                endpoint=Endpoint(asyncio.Semaphore(1), RateLimiter()),
                budget=Budget(),
                rng=random.Random(0),
            )
            try:
                j = await one.judge(CHECK_SYSTEM, user, "judges-check", schema, dims)
            finally:
                await one.aclose()
            label = f"{config_.name} ({config_.provider} {config_.model})"
            out.append(
                (
                    label,
                    f"OK (total {j.total:g}, {j.usage.input_tokens} tokens in, {j.usage.output_tokens} out)"
                    if j.valid
                    else f"FAILED: {j.error}",
                )
            )
        return out

    results = asyncio.run(check_all())
    for label, outcome in results:
        typer.echo(f"{label}: {outcome}")
    if any(outcome.startswith("FAILED") for _, outcome in results):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("score")(score_cmd)
    app.add_typer(judges_app, name="judges")
