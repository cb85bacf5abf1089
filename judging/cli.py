"""CLI commands of this package (being built)."""

import typer


def register(app: typer.Typer) -> None:
    pass
