"""The ``groundjudge`` command. Each package registers its own subcommands; heavy libraries are
imported inside the commands so that ``groundjudge --help`` stays fast."""

from __future__ import annotations

import typer
from typer.core import TyperGroup

from groundjudge import __version__
from groundjudge.errors import UserError


class _OneLineErrors(TyperGroup):
    """Bad input ends in one line naming the file and the problem, and exit code 2, never a traceback."""

    def invoke(self, ctx):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except UserError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None


app = typer.Typer(
    cls=_OneLineErrors,
    help="Score answers about a codebase with LLM judges, grounded in a frozen corpus snapshot.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"groundjudge {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Score answers about a codebase with LLM judges, grounded in a frozen corpus snapshot."""


def _register_all() -> None:
    from grounding import cli as grounding_cli
    from grounding import cli_ground
    from judging import cli as judging_cli
    from rename import cli as rename_cli
    from rubrics import cli as rubrics_cli
    from validation import cli_agreement, cli_analysis
    from groundjudge import demo

    for module in (grounding_cli, cli_ground, judging_cli, rubrics_cli, rename_cli, cli_analysis, cli_agreement, demo):
        module.register(app)


_register_all()


def main() -> None:
    app()
