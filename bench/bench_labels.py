"""How far two independent labellers of the grounding set agree: the ceiling any verifier's agreement with
the labels can be read against.

A codebase folder of bench/grounding_set/ with a second labelling, ``labels_b.jsonl`` (the same units as
``labels.jsonl``, labelled again from the source by a reader who saw neither the first labels nor any
grounder output), is compared unit by unit: agreement, Cohen's kappa and the units the two labellings give
different verdicts, per codebase and overall. Needs no corpus and runs no grounder.

    python bench/bench_labels.py [--only NAME]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from groundjudge.errors import UserError
from groundjudge.validation.stats import cohen_kappa

SET_DIR = Path(__file__).resolve().parent / "grounding_set"
SECOND = "labels_b.jsonl"


def paired(first: list, second: list, where: Path) -> list[tuple[str, str]]:
    """(first verdict, second verdict) for each unit, in the first labelling's order. The two must label
    the same units, quoted the same: a unit missing from either, or quoted differently, is a UserError."""
    by_unit = {(b.answer, b.line): b for b in second}
    if len(by_unit) != len(second) or {(a.answer, a.line) for a in first} != set(by_unit):
        raise UserError("the second labelling does not label the same units as labels.jsonl", where)
    out = []
    for a in first:
        b = by_unit[(a.answer, a.line)]
        if a.text != b.text:
            raise UserError(f"{a.answer}:{a.line} is quoted differently in the two labellings", where)
        out.append((a.expected.value, b.expected.value))
    return out


def summary(pairs: list[tuple[str, str]]) -> tuple[int, float, float, Counter]:
    """Units, agreement (share of units with the same verdict), Cohen's kappa, and the disagreements
    counted as (first, second) verdict pairs."""
    same = sum(a == b for a, b in pairs)
    return (
        len(pairs),
        same / len(pairs),
        cohen_kappa([a for a, _ in pairs], [b for _, b in pairs]),
        Counter((a, b) for a, b in pairs if a != b),
    )


def _line(name: str, pairs: list[tuple[str, str]]) -> str:
    n, agreement, kappa, _ = summary(pairs)
    return f"{name:24s} {n:5d} units  agreement {100 * agreement:5.1f}%  kappa {kappa:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", help="this codebase only (repeatable)")
    args = ap.parse_args()
    sys.path.insert(0, str(SET_DIR))
    from labels import read_labels

    everything: list[tuple[str, str]] = []
    for second in sorted(SET_DIR.glob(f"*/{SECOND}")):
        folder = second.parent
        if args.only and folder.name not in args.only:
            continue
        pairs = paired(read_labels(folder / "labels.jsonl"), read_labels(second), second)
        everything += pairs
        print(_line(folder.name, pairs))
    if not everything:
        raise SystemExit(f"no codebase folder has a {SECOND}")
    print(_line("all", everything))
    print("units labelled differently (first -> second):")
    for (a, b), count in sorted(summary(everything)[3].items()):
        print(f"  {a} -> {b}: {count}")


if __name__ == "__main__":
    try:
        main()
    except UserError as exc:
        raise SystemExit(str(exc)) from None
