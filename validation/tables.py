"""CSV output: exactly the named columns, sorted rows, fixed float format, written atomically."""

from __future__ import annotations

from pathlib import Path

from groundjudge.storage import atomic_write_text


def write_csv(path: str | Path, frame, columns: list[str]) -> None:
    """``frame`` is a DataFrame or a list of row dicts; rows keep the order given (callers sort)."""
    import pandas as pd

    table = frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(list(frame), columns=columns)
    atomic_write_text(path, table[columns].to_csv(index=False, float_format="%.6f", na_rep="", lineterminator="\n"))
