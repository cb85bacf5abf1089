"""The ``groundjudge`` command. Each package registers its own subcommands; heavy libraries are
imported inside the commands so that ``groundjudge --help`` stays fast."""

from __future__ import annotations

import gc
import importlib
import inspect
import sys
from pathlib import PurePath
from typing import Any, get_args, get_origin

import typer
from typer.core import TyperGroup

from groundjudge import __version__
from groundjudge.errors import UserError


def _metavar(param: Any) -> str:
    """A human placeholder for a parameter's value: PATH, N, NUMBER, the option's name for text, and
    nothing for a flag (Typer's default shows Python types: <bool>, <list[str]>, <Path,Path>...)."""
    if getattr(param, "is_flag", False):
        return ""
    annotation = param.type_descriptor.annotation
    if get_origin(annotation) is list:
        annotation = get_args(annotation)[0]
    kinds = get_args(annotation) if get_origin(annotation) is tuple else (annotation,)
    words = []
    for kind in kinds:
        if isinstance(kind, type) and issubclass(kind, PurePath):
            words.append("PATH")
        elif kind is int:
            words.append("N")
        elif kind is float:
            words.append("NUMBER")
        else:
            words.append((param.name or "value").upper())
    return " ".join(words)


def _human_metavars(command: Any) -> None:
    """Set every parameter's placeholder, on the command and its subcommands. An argument is shown by
    its name (RUN_DIR), with no type column; Typer builds --help on demand, so its option is wrapped."""
    for param in command.params:
        if param.param_type_name == "argument":
            param.metavar = param.metavar or (param.name or "value").upper()
            param.display_type_rich = lambda ctx: None
        elif param.metavar is None:
            param.metavar = _metavar(param)
    make_help_option = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = make_help_option(ctx)
        if option is not None:
            option.metavar = ""
        return option

    command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        _human_metavars(sub)


class _OneLineErrors(TyperGroup):
    """Bad input ends in one line naming the file and the problem, and exit code 2, never a traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _human_metavars(self)

    def invoke(self, ctx: Any) -> Any:
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


# The module that registers each top-level command. `main` imports only the one the command line names
# (a test checks this table against what every module registers).
COMMANDS = {
    "corpus": "groundjudge.grounding.cli",
    "ground": "groundjudge.judging.cli_ground",
    "score": "groundjudge.judging.cli",
    "judges": "groundjudge.judging.cli",
    "rubric": "groundjudge.rubrics.cli",
    "rename": "groundjudge.rename.cli",
    "rename-questions": "groundjudge.rename.cli",
    "rename-verify": "groundjudge.rename.cli",
    "report": "groundjudge.validation.cli_analysis",
    "retest": "groundjudge.validation.cli_analysis",
    "blind": "groundjudge.validation.cli_analysis",
    "show": "groundjudge.validation.cli_show",
    "view": "groundjudge.validation.cli_view",
    "agreement": "groundjudge.validation.cli_agreement",
    "demo": "groundjudge.demo",
}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"groundjudge {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Score answers about a codebase with LLM judges, grounded in a frozen corpus snapshot."""


def build_app(command: str | None = None) -> typer.Typer:
    """The root command with every package's subcommands; given a known command name, with only the
    subcommands of the module that owns it (all of them for anything else: --help, --version, a typo)."""
    root = typer.Typer(
        cls=_OneLineErrors,
        help="Score answers about a codebase with LLM judges, grounded in a frozen corpus snapshot.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )
    root.callback()(_root)
    modules = [COMMANDS[command]] if command in COMMANDS else dict.fromkeys(COMMANDS.values())
    for name in modules:
        importlib.import_module(name).register(root)
    _reflow_help(root)
    return root


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


def __getattr__(name: str) -> typer.Typer:
    """`app`, the fully registered command (for `typer.testing.CliRunner`), built on first use."""
    if name == "app":
        globals()["app"] = built = build_app()
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """The console script: registers only what the command line asks for, which keeps start-up short."""
    try:
        build_app(sys.argv[1] if len(sys.argv) > 1 else None)()
    finally:
        # The process is about to end: spare the interpreter's final garbage collections, which would
        # traverse every object still alive (measured: 30 ms of a cold index build). Files and connections
        # are closed by then; a cycle left uncollected at exit loses nothing.
        gc.freeze()
