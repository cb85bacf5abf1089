"""A command-line app holding only the ``rubric`` commands, with the root's one-line error handling.

The root ``groundjudge`` app registers ``rubrics.cli`` once the lead wires it in; until then the
tests drive the same commands through this app.
"""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from groundjudge.cli import _OneLineErrors
from groundjudge.rubrics import cli as rubrics_cli


def rubric_app() -> typer.Typer:
    app = typer.Typer(cls=_OneLineErrors, pretty_exceptions_enable=False, add_completion=False)

    @app.callback()
    def _root() -> None:
        """groundjudge (test root)"""

    rubrics_cli.register(app)
    return app


def run(*args: str):
    # Wide enough that rich never wraps a table cell, so rows can be read back.
    return CliRunner().invoke(rubric_app(), ["rubric", *args], env={"COLUMNS": "200"})
