"""``groundjudge rubric``: list and check rubric files, and score criterion responses."""

from __future__ import annotations

from pathlib import Path

import typer

from groundjudge.errors import UserError

rubric_app = typer.Typer(help="Rubrics: list the bundled ones, check your own, score criterion responses.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(rubric_app, name="rubric")


def _kind(name_or_path: str) -> str:
    from groundjudge.rubrics.files import read_toml, resolve_rubric_path

    path = resolve_rubric_path(name_or_path)
    kind = read_toml(path)[1].get("kind")
    if kind not in ("dimensions", "criteria"):
        raise UserError('kind must be "dimensions" or "criteria"', path)
    return kind


def _fmt(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.1f}"


@rubric_app.command("list")
def list_cmd() -> None:
    """List the bundled rubrics with their kind, version and size."""
    from rich.console import Console
    from rich.table import Table

    from groundjudge.rubrics import bundled_rubrics, load_rubric
    from groundjudge.rubrics.criteria import load_criterion_rubric

    table = Table("name", "kind", "version", "contents", "sha256")
    for name in bundled_rubrics("dimensions"):
        r = load_rubric(name)
        table.add_row(name, "dimensions", str(r.version), f"{len(r.dimensions)} dimensions, {r.total_max} points", r.sha256[:12])
    for name in bundled_rubrics("criteria"):
        c = load_criterion_rubric(name)
        criteria = sum(len(i.criteria) for i in c.items)
        table.add_row(name, "criteria", str(c.version), f"{len(c.items)} items, {criteria} criteria", c.sha256[:12])
    Console().print(table)


@rubric_app.command("check")
def check_cmd(
    rubric: str = typer.Argument(..., help="A bundled rubric name or a path to a rubric TOML file (either kind)."),
) -> None:
    """Validate a rubric file and show what a judge will be given; exit 2 with one line if it is invalid."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if _kind(rubric) == "dimensions":
        from groundjudge.rubrics import load_rubric

        r = load_rubric(rubric)
        table = Table("dimension", "range", "bands", title=f"{r.name} v{r.version}: {r.total_max} points")
        for dim in r.dimensions:
            bands = ", ".join(f"{b.min}-{b.max}" for b in dim.sorted_bands())
            table.add_row(dim.name, f"{dim.min}-{dim.max}", bands)
        console.print(table)
        console.print(f"sha256 {r.sha256}")
        return
    from groundjudge.rubrics.criteria import load_criterion_rubric

    c = load_criterion_rubric(rubric)
    table = Table("item", "needs update", "requirements", "conditionals", "guardrails", "P0", title=f"{c.name} v{c.version}")
    for item in c.items:
        count = {t: sum(1 for x in item.criteria if x.type == t) for t in ("requirement", "conditional", "guardrail")}
        p0 = sum(1 for x in item.criteria if x.priority == "P0")
        table.add_row(item.id, "yes" if item.needs_update else "no", *(str(count[t]) for t in count), str(p0))
    console.print(table)
    console.print(f"sha256 {c.sha256}")


@rubric_app.command("score")
def score_cmd(
    rubric: str = typer.Argument(..., help="A criterion rubric: bundled name or path to its TOML file."),
    responses: Path = typer.Argument(..., help="A candidate's responses (JSON, format in docs/rubrics.md)."),
    out: Path | None = typer.Option(
        None, "--out", help="Write the run summary (item results and run figures) to this JSON file."
    ),
) -> None:
    """Score one candidate's responses to a criterion rubric with the P0-capped item score and print the run figures."""
    from rich.console import Console
    from rich.table import Table

    from groundjudge.hashing import sha256_file
    from groundjudge.rubrics.criteria import load_criterion_rubric
    from groundjudge.rubrics.criterion import CriterionResponses, score_run
    from groundjudge.storage import read_model, write_model

    c = load_criterion_rubric(rubric)
    given = read_model(responses, CriterionResponses)
    if given.rubric_sha256 is not None and given.rubric_sha256 != c.sha256:
        raise UserError(
            f"responses were made for rubric sha256 {given.rubric_sha256[:12]}, not {c.name} ({c.sha256[:12]})", responses
        )
    try:
        summary = score_run(c, given.responses, candidate=given.candidate)
    except ValueError as exc:
        raise UserError(str(exc), responses) from None
    summary = summary.model_copy(update={"responses_sha256": sha256_file(responses)})
    m = summary.metrics
    table = Table("figure", "value", title=f"{c.name}: {given.candidate or 'candidate'} ({m.items} items)")
    for label, value in [
        ("delivered quality D", m.delivered_quality),
        ("conditional quality", m.conditional_quality),
        ("abstention recall N", m.abstention_recall),
        ("composite C", m.composite),
        ("decision accuracy", m.decision_accuracy),
        ("P0-clean delivery rate", m.p0_clean_delivery_rate),
    ]:
        table.add_row(label, _fmt(value))
    Console().print(table)
    if out is not None:
        write_model(out, summary)
        typer.echo(f"wrote {out}")
