"""The ``groundjudge`` command. Each package registers its own subcommands; heavy libraries are
imported inside the commands so that ``groundjudge --help`` stays fast."""

from __future__ import annotations

import inspect

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
        except OSError as exc:
            # A path the commands did not foresee as unwritable or unreadable (a file where a directory
            # should be, no permission, a full disk) is still bad input about a named file, not a crash.
            problem = exc.strerror or str(exc)
            typer.echo(f"error: {exc.filename}: {problem}" if exc.filename else f"error: {problem}", err=True)
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            # Commands that can say more (score, ground) catch Ctrl-C themselves; every other one
            # writes each file atomically, so what is on disk is whole.
            typer.echo("interrupted: every file on disk is complete; run the same command again to finish", err=True)
            raise typer.Exit(130) from None


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
    _reflow_help(app)


def _reflow(text: str) -> str:
    """Join the wrapped lines of each paragraph: Typer's rich help keeps a docstring's single line
    breaks and then wraps again at the terminal width, which leaves one-word lines mid-sentence."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def _reflow_help(typer_app: typer.Typer) -> None:
    for info in typer_app.registered_commands:
        doc = info.help if info.help is not None else inspect.getdoc(info.callback)
        if doc:
            info.help = _reflow(doc)
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            _reflow_help(group.typer_instance)


_register_all()


def main() -> None:
    app()
