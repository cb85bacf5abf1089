"""``groundjudge ground``: grounding reports for one answer or a directory of answers. It sits in judging, one
stage above grounding, because ``--llm-verify`` asks a judge's model; without it, grounding's checks alone."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from groundjudge.errors import UserError


def ground_cmd(
    answer: Path = typer.Argument(..., help="An answer (Markdown file), or a directory whose *.md answers are all grounded."),
    corpus: str = typer.Option(..., "--corpus", help="Stored snapshot name, or a directory to snapshot on the fly."),
    out: Path = typer.Option(None, "--out", help="Write the JSON report here instead of stdout (one answer only)."),
    out_dir: Path = typer.Option(
        None, "--out-dir", help="Write one report per answer here, as <stem>.json (required for a directory)."
    ),
    subject: str = typer.Option(
        None,
        "--subject",
        metavar="PATH",
        help="The file the question is about: what 'the program' or 'it' means when no heading names one "
        "(score takes it from the question's must_touch).",
    ),
    max_answer_bytes: int = typer.Option(
        None,
        "--max-answer-bytes",
        min=1,
        help="Refuse an answer larger than this (default: $GROUNDJUDGE_MAX_ANSWER_BYTES, else 1000000).",
    ),
    llm_verify: str = typer.Option(
        None,
        "--llm-verify",
        metavar="NAME=PROVIDER:MODEL[@BASE_URL]",
        help="Ask this model about each claim as a whole and each fact the checks leave unchecked, as `score "
        "--llm-verify` does (one call per claim). Off by default: the checks alone.",
    ),
    config: Path = typer.Option(
        None, "--config", help="Config file for --llm-verify's provider, retries and price (as `score` reads it)."
    ),
    cache: Path = typer.Option(
        None,
        "--cache",
        help="Response cache SQLite file for --llm-verify (default: $GROUNDJUDGE_HOME/cache.sqlite, ~/.cache/groundjudge without it).",
    ),
    offline: bool = typer.Option(False, "--offline", help="With --llm-verify, answer only from the cache: no call is sent."),
) -> None:
    """Extract each claim of an answer, check it against the corpus snapshot, and emit a JSON GroundingReport."""
    from groundjudge.grounding.ground import read_answer
    from groundjudge.grounding.verify import DeterministicVerifier

    if answer.is_dir():
        if out_dir is None:
            raise UserError("grounding a directory needs --out-dir", answer)
        if out is not None:
            raise UserError("--out takes one answer; use --out-dir for a directory", answer)
        # everything but a subdirectory: a FIFO, socket or dangling link named *.md is refused by read_answer,
        # as the runner refuses it, rather than silently left out of the set
        files = sorted(p for p in answer.glob("*.md") if not p.is_dir())
        if not files:
            raise UserError("no *.md answers in directory", answer)
    else:
        if out is not None and out_dir is not None:
            raise UserError("give --out or --out-dir, not both", answer)
        files = [answer]
    _check_output(out, out_dir)
    # Read and check every answer before anything is written: bad input leaves no partial output behind.
    texts = [(p, *read_answer(p, max_answer_bytes)) for p in files]
    if llm_verify is None:
        _ground(answer, texts, *_open(corpus), DeterministicVerifier(), subject, out, out_dir)
        return
    import logging

    from groundjudge.judging.cache import ResponseCache
    from groundjudge.judging.llm_grounding import LLMVerifier

    # instructor logs every failed attempt at ERROR level; the line below counts the failures itself
    logging.getLogger("instructor").setLevel(logging.CRITICAL)
    response_cache = ResponseCache(cache)
    try:
        caller = _verify_caller(llm_verify, config, response_cache, offline)  # a missing key fails before any work
        try:
            _ground(answer, texts, *_open(corpus), LLMVerifier(caller), subject, out, out_dir)
        finally:
            usage = caller.take_tally()
            caller.close()
            failed = sum(usage.failures.values())
            typer.echo(
                f"--llm-verify {caller.model}: requests sent {usage.calls} (retries included), calls answered from "
                f"the cache {usage.cache_hits}"
                + (f", calls failed {failed} (their claims keep the checks' verdicts; a rerun asks again)" if failed else ""),
                err=True,
            )
    finally:
        response_cache.close()


def _verify_caller(spec: str, config: Path | None, cache, offline: bool):
    """The LLM verifier's client, as `score` makes it: the config's judges, retries and prices."""
    import asyncio

    from groundjudge.judging.config import load_config
    from groundjudge.judging.grounding_callers import grounding_caller
    from groundjudge.judging.judge import Budget, Endpoint
    from groundjudge.judging.limits import RateLimiter

    judging = load_config(config)
    return grounding_caller(
        "--llm-verify",
        spec,
        "verify",
        config=judging,
        cache=cache,
        budget=Budget(),
        endpoint=lambda _: Endpoint(asyncio.Semaphore(judging.defaults.concurrency), RateLimiter()),
        offline=offline,
        seed=0,
        warn=lambda line: typer.echo(line, err=True),
    )


def _ground(answer: Path, texts, snapshot, index, verifier, subject, out: Path | None, out_dir: Path | None) -> None:
    """Ground each answer with the verifier and write its report: to stdout or --out for one answer, one
    file per answer in --out-dir for a directory."""
    from groundjudge.grounding.ground import ground_text
    from groundjudge.grounding.models import AnswerRef

    if not answer.is_dir():
        path, text, digest = texts[0]
        report = ground_text(
            snapshot, index, text, AnswerRef(path=path.as_posix(), sha256=digest), verifier=verifier, subject=subject
        )
        if out_dir is not None:
            out = out_dir / f"{path.stem}.json"
        if out is None:
            sys.stdout.write(report.model_dump_json(indent=2) + "\n")
        else:
            _write(out, report)
            typer.echo(f"{out}: {_summary(report)}", err=True)
        return

    from rich.progress import Progress

    assert out_dir is not None  # a directory is refused without --out-dir
    totals: dict[str, int] = {}
    with Progress(transient=True, console=_stderr_console()) as progress:
        task = progress.add_task("grounding", total=len(texts))
        done = 0
        try:
            for path, text, digest in texts:
                ref = AnswerRef(path=path.as_posix(), sha256=digest)
                report = ground_text(snapshot, index, text, ref, verifier=verifier, subject=subject)
                _write(out_dir / f"{path.stem}.json", report)
                done += 1
                for verdict, n in report.counts.items():
                    totals[verdict.value] = totals.get(verdict.value, 0) + n
                progress.advance(task)
        except KeyboardInterrupt:
            # Each report is written atomically, so what is there is complete; say that the set is not.
            typer.echo(f"interrupted: {done} of {len(texts)} reports written to {out_dir} (each one complete)", err=True)
            raise typer.Exit(130) from None
    typer.echo(f"{len(texts)} reports in {out_dir}: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())), err=True)


def _check_output(out: Path | None, out_dir: Path | None) -> None:
    """Refuse an unusable destination before any work, so a bad --out never costs a grounding run."""
    if out is not None and out.is_dir():
        raise UserError("--out is a directory (use --out-dir for one report per answer)", out)
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise UserError("--out-dir exists and is not a directory", out_dir)


def _write(path: Path, report) -> None:
    """Atomic write (a report is complete or absent); a destination that cannot be written is one line."""
    from groundjudge.storage import write_model

    try:
        write_model(path, report)
    except OSError as exc:
        raise UserError(f"cannot write report ({exc.strerror or exc})", path) from None


def _open(corpus: str):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import open_corpus

    snapshot = open_corpus(corpus)
    return snapshot, load_index(snapshot, progress=sys.stderr.isatty())


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


def _summary(report) -> str:
    return f"{len(report.claims)} claims: " + ", ".join(f"{v.value} {n}" for v, n in report.counts.items())


def register(app: typer.Typer) -> None:
    app.command("ground")(ground_cmd)
