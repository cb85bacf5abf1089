"""Grounding measured against hand labels, on public codebases nobody here wrote (bench/grounding_set/).

For each codebase folder with a source.toml, the fetched source is snapshotted and indexed, every answer is
grounded with today's extractor and verifier, and each labelled claim unit is matched to the claims the
extractor produced from it. A unit owns the claims that start on its line or below it, up to the next
labelled unit of the same answer; two units starting on one line split that line's claims by shared words.
A unit split into several claims gets one verdict by the precision-first rule of ``combine``; a unit with
no claim is counted as not extracted, never scored. Printed per codebase and overall: agreement, per-verdict
precision and recall, the confusion matrix, every false SUPPORTED (the costliest error), and the verdicts
per kind of claim.

    python bench/bench_grounding.py [--corpora DIR] [--only NAME] [--fetch]

The corpora are looked up at DIR/<name> (default $GROUNDJUDGE_BENCH_CORPORA, else
/tmp/groundjudge-bench-corpora); a missing one is reported in one line and skipped. --fetch prints the
commands that put each codebase there.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from groundjudge.grounding.models import Verdict

HERE = Path(__file__).resolve().parent
SET_DIR = HERE / "grounding_set"
DEFAULT_CORPORA = "/tmp/groundjudge-bench-corpora"
CORPORA_ENV = "GROUNDJUDGE_BENCH_CORPORA"

V = Verdict
ORDER = [V.SUPPORTED, V.PARTIALLY_SUPPORTED, V.UNSUPPORTED, V.UNABLE_TO_VERIFY]
SHORT = {V.SUPPORTED: "SUP", V.PARTIALLY_SUPPORTED: "PART", V.UNSUPPORTED: "UNSUP", V.UNABLE_TO_VERIFY: "UTV"}
NOT_EXTRACTED = "not extracted"


@dataclass(frozen=True)
class Unit:
    """A labelled claim unit, reduced to what scoring needs (labels.Label carries more)."""

    answer: str
    line: int
    text: str
    expected: Verdict
    kind: str


@dataclass(frozen=True)
class Produced:
    """One claim the grounder produced from an answer."""

    answer: str
    line: int
    text: str
    verdict: Verdict


@dataclass
class Outcome:
    unit: Unit
    claims: list[Produced] = field(default_factory=list)

    @property
    def predicted(self) -> Verdict | None:
        return combine([c.verdict for c in self.claims]) if self.claims else None


def combine(verdicts: list[Verdict]) -> Verdict:
    """One verdict for a unit the extractor split into several claims, precision first: any part
    contradicted makes the unit UNSUPPORTED; else any part partly supported, or a mix of supported and
    unverifiable parts, makes it PARTIALLY_SUPPORTED (something holds, not everything was shown to);
    SUPPORTED needs every part supported; UNABLE_TO_VERIFY when no part could be checked."""
    if not verdicts:
        raise ValueError("combine needs at least one verdict")
    kinds = set(verdicts)
    if V.UNSUPPORTED in kinds:
        return V.UNSUPPORTED
    if V.PARTIALLY_SUPPORTED in kinds or kinds == {V.SUPPORTED, V.UNABLE_TO_VERIFY}:
        return V.PARTIALLY_SUPPORTED
    return verdicts[0]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9_][A-Za-z0-9_.:-]*", text.lower()))


def assign(units: list[Unit], claims: list[Produced]) -> tuple[list[Outcome], list[Produced]]:
    """Each claim to the unit it came from: the last unit of its answer starting at or above its line;
    among units starting on that same line, the one sharing the most words with it. Returns the outcomes
    in unit order and the claims no unit owns (text before an answer's first labelled unit)."""
    outcomes = [Outcome(u) for u in units]
    by_answer: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_answer.setdefault(o.unit.answer, []).append(o)
    for group in by_answer.values():
        group.sort(key=lambda o: o.unit.line)
    stray = []
    for claim in claims:
        above = [o for o in by_answer.get(claim.answer, []) if o.unit.line <= claim.line]
        if not above:
            stray.append(claim)
            continue
        start = above[-1].unit.line
        same_start = [o for o in above if o.unit.line == start]
        words = _words(claim.text)
        best = max(same_start, key=lambda o: len(words & _words(o.unit.text)))
        best.claims.append(claim)
    return outcomes, stray


@dataclass
class Scores:
    units: int
    extracted: int
    agree: int
    confusion: dict[Verdict, Counter]  # expected -> Counter of predicted (a Verdict or NOT_EXTRACTED)
    precision: dict[Verdict, float | None]
    recall: dict[Verdict, float | None]
    false_supported: list[Outcome]
    per_kind: dict[str, Counter]  # kind -> Counter of predicted (a Verdict or NOT_EXTRACTED)

    @property
    def agreement(self) -> float | None:
        return self.agree / self.extracted if self.extracted else None


def score(outcomes: list[Outcome]) -> Scores:
    """Agreement, precision and recall over the extracted units (a unit not extracted has no verdict to
    score; the matrix and the per-kind table count it in a column of its own)."""
    confusion: dict[Verdict, Counter] = {v: Counter() for v in ORDER}
    per_kind: dict[str, Counter] = {}
    false_supported = []
    for o in outcomes:
        predicted = o.predicted
        column = predicted if predicted is not None else NOT_EXTRACTED
        confusion[o.unit.expected][column] += 1
        per_kind.setdefault(o.unit.kind, Counter())[column] += 1
        if predicted is V.SUPPORTED and o.unit.expected is not V.SUPPORTED:
            false_supported.append(o)
    extracted = sum(1 for o in outcomes if o.predicted is not None)
    agree = sum(confusion[v][v] for v in ORDER)
    precision: dict[Verdict, float | None] = {}
    recall: dict[Verdict, float | None] = {}
    for v in ORDER:
        said = sum(confusion[e][v] for e in ORDER)
        meant = sum(n for p, n in confusion[v].items() if p != NOT_EXTRACTED)
        precision[v] = confusion[v][v] / said if said else None
        recall[v] = confusion[v][v] / meant if meant else None
    return Scores(len(outcomes), extracted, agree, confusion, precision, recall, false_supported, per_kind)


# --- reporting ----------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "  n/a" if x is None else f"{100 * x:5.1f}%"


def render(title: str, s: Scores, stray: int) -> str:
    out = [f"== {title}"]
    out.append(f"units {s.units}, extracted {s.extracted}, not extracted {s.units - s.extracted}; unowned claims {stray}")
    out.append(f"agreement {s.agree}/{s.extracted} = {_pct(s.agreement).strip()} (over all units: {s.agree}/{s.units})")
    cols = [*ORDER, NOT_EXTRACTED]
    head = "expected \\ predicted".ljust(22) + "".join(f"{SHORT.get(c, 'none'):>7}" for c in cols)
    out += ["", head]
    for e in ORDER:
        out.append(SHORT[e].ljust(22) + "".join(f"{s.confusion[e][c]:>7}" for c in cols))
    out += ["", "verdict    precision  recall"]
    for v in ORDER:
        out.append(f"{SHORT[v]:<10} {_pct(s.precision[v]):>9} {_pct(s.recall[v]):>7}")
    out += ["", "kind".ljust(16) + "".join(f"{SHORT.get(c, 'none'):>7}" for c in cols) + "  above UNSUP"]
    for kind in sorted(s.per_kind):
        row = s.per_kind[kind]
        above = row[V.SUPPORTED] + row[V.PARTIALLY_SUPPORTED] + row[V.UNABLE_TO_VERIFY]
        note = f"{above:>12}" if kind in ("fabricated-name", "wrong-relation") else ""
        out.append(kind.ljust(16) + "".join(f"{row[c]:>7}" for c in cols) + note)
    out += ["", f"false SUPPORTED: {len(s.false_supported)}"]
    for o in sorted(s.false_supported, key=lambda o: (o.unit.answer, o.unit.line)):
        u = o.unit
        out.append(f"  {u.answer}:{u.line} [{u.kind}, expected {SHORT[u.expected]}] {u.text[:110]}")
    return "\n".join(out) + "\n"


# --- codebases ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    name: str
    folder: Path
    repository: str
    commit: str
    snapshot_dir: str  # inside the repository; "" for its root

    def fetch_commands(self, dest: Path) -> list[str]:
        clone = f"/tmp/groundjudge-bench-clones/{self.name}"
        strip = len(Path(self.snapshot_dir).parts) if self.snapshot_dir else 0
        # a snapshot directory may hold spaces ("Plan COBOL 30 jours/ASSURANCE-SYSTEM")
        archive = f"git -C {clone} archive {self.commit}" + (f" {shlex.quote(self.snapshot_dir)}" if self.snapshot_dir else "")
        return [
            f"git clone --quiet https://github.com/{self.repository}.git {clone}",
            f"mkdir -p {dest}",
            f"{archive} | tar x -C {dest}" + (f" --strip-components={strip}" if strip else ""),
        ]


def load_sources() -> list[Source]:
    sources = []
    for toml_path in sorted(SET_DIR.glob("*/source.toml")):
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        sources.append(
            Source(
                name=toml_path.parent.name,
                folder=toml_path.parent,
                repository=data["repository"],
                commit=data["commit"],
                snapshot_dir=data.get("snapshot_dir", ""),
            )
        )
    return sources


def run_codebase(src: Source, corpus: Path, verifier=None) -> tuple[list[Outcome], list[Produced]]:
    """verifier: the deterministic one when None (bench_llm_verify.py passes an LLM verifier)."""
    sys.path.insert(0, str(SET_DIR))
    from labels import read_labels

    from groundjudge.grounding.ground import ground_text, read_answer
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.models import AnswerRef
    from groundjudge.grounding.snapshot import snapshot_directory

    snapshot = snapshot_directory(corpus, name=f"bench-grounding-{src.name}")
    index = load_index(snapshot)
    units = [
        Unit(f"{src.name}/{lb.answer}", lb.line, lb.text, lb.expected, lb.kind) for lb in read_labels(src.folder / "labels.jsonl")
    ]
    claims = []
    for answer in sorted((src.folder / "answers").glob("*.md")):
        text, digest = read_answer(answer)
        report = ground_text(snapshot, index, text, AnswerRef(path=answer.name, sha256=digest), verifier=verifier)
        claims += [Produced(f"{src.name}/{answer.name}", c.answer_line, c.text, c.verdict) for c in report.claims]
    return assign(units, claims)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--corpora",
        type=Path,
        help=f"folder holding one fetched codebase per name (default ${CORPORA_ENV}, else {DEFAULT_CORPORA})",
    )
    ap.add_argument("--only", action="append", help="run only this codebase (repeatable)")
    ap.add_argument("--fetch", action="store_true", help="print the commands that fetch each codebase, and exit")
    args = ap.parse_args()
    root = args.corpora or Path(os.environ.get(CORPORA_ENV) or DEFAULT_CORPORA)
    sources = [s for s in load_sources() if not args.only or s.name in args.only]
    if args.fetch:
        for s in sources:
            print(f"# {s.name}: {s.repository}@{s.commit}" + (f", directory {s.snapshot_dir}" if s.snapshot_dir else ""))
            print("\n".join(s.fetch_commands(root / s.name)))
        return
    run_all(sources, root)


def run_all(sources: list[Source], root: Path, verifier_for=None) -> None:
    """Each codebase's figures, then the overall ones; a corpus missing under root is said and skipped.
    verifier_for(source): the verifier of that codebase's answers (None: the deterministic one)."""
    everything: list[Outcome] = []
    stray_total = 0
    for s in sources:
        corpus = root / s.name
        if not corpus.is_dir():
            print(f"corpus {s.name} not found at {corpus}: fetch it with the commands of `bench_grounding.py --fetch`")
            continue
        outcomes, stray = run_codebase(s, corpus, verifier_for(s) if verifier_for else None)
        print(render(f"{s.name} ({s.repository}@{s.commit[:12]})", score(outcomes), len(stray)))
        everything += outcomes
        stray_total += len(stray)
    if everything:
        print(render("overall", score(everything), stray_total))


if __name__ == "__main__":
    main()
