"""Output of the validation commands: CSV files (exactly the named columns, rows in the order the
caller sorted them, written atomically) and the rich console, tables and progress bars they print."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from groundjudge.errors import UserError
from groundjudge.storage import atomic_write_text

# Piped output (a log, CI) has no width to respect; rich would otherwise assume 80 columns and cut
# numbers short with an ellipsis.
_PIPED_WIDTH = 160


def check_output_dir(path: str | Path) -> Path:
    """Refuse an ``--out`` that cannot be a directory; commands call this before any work so a bad
    option fails at once, in one line, and create the directory (``output_dir``) only to write."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UserError("--out is a file, not a directory", path)
    return path


def output_dir(path: str | Path) -> Path:
    """The directory outputs go to, created if missing."""
    path = check_output_dir(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the output directory ({exc.strerror})", path) from None
    return path


def write_csv(path: str | Path, frame, columns: list[str], *, float_format: str | None = "%.6f", na_rep: str = "") -> None:
    """``frame`` is a DataFrame or a list of row dicts; rows keep the order given (callers sort).
    ``float_format=None`` writes floats at full precision; ``na_rep`` spells a missing value."""
    import pandas as pd

    table = frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(list(frame), columns=columns)
    atomic_write_text(path, table[columns].to_csv(index=False, float_format=float_format, na_rep=na_rep, lineterminator="\n"))


def console():
    from rich.console import Console

    out = Console(soft_wrap=True)
    if not out.is_terminal:
        out.width = _PIPED_WIDTH
    return out


def progress(out):
    """A transient progress bar, shown only on a terminal (elsewhere it would leave blank lines)."""
    from rich.progress import Progress

    return Progress(transient=True, console=out, disable=not out.is_terminal)


def print_table(out, title: str, frame, fmt: Callable[[object], str] = str, *, right: Iterable[str] | None = None) -> None:
    """Print a DataFrame as a rich table. Numeric columns (or those named in ``right``) are right-
    aligned; a cell too wide for the terminal wraps rather than being cut short."""
    from rich.table import Table

    right = set(right) if right is not None else {c for c in frame.columns if frame[c].dtype.kind in "fiu"}
    table = Table(title=title)
    for col in frame.columns:
        table.add_column(str(col), justify="right" if col in right else "left", overflow="fold")
    for record in frame.itertuples(index=False):
        table.add_row(*(fmt(v) for v in record))
    out.print(table)
