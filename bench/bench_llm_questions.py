"""What `--llm-verify` would ask on the labelled answers of bench/grounding_set/, without calling a model: how
many claims get a call (one per claim), how many facts those calls list, split by kind (a judgement the
code cannot settle, a fact no checker reached, a claim asked as a whole), by deterministic verdict, and
how many claims with an unchecked fact are not asked because a made-up name already decides them.

    python bench/bench_llm_questions.py [--corpora DIR]

Corpora are found as bench/bench_grounding.py finds them; a missing one is reported in one line and skipped.
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from pathlib import Path

from bench_grounding import CORPORA_ENV, DEFAULT_CORPORA, load_sources

from groundjudge.grounding.ground import ground_text, read_answer
from groundjudge.grounding.index import load_index
from groundjudge.grounding.models import AnswerRef, CheckOutcome
from groundjudge.grounding.snapshot import snapshot_directory
from groundjudge.judging.llm_grounding import questions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, help=f"default ${CORPORA_ENV}, else {DEFAULT_CORPORA}")
    args = ap.parse_args()
    root = args.corpora or Path(os.environ.get(CORPORA_ENV) or DEFAULT_CORPORA)
    counts: Counter[str] = Counter()
    for src in load_sources():
        corpus = root / src.name
        if not corpus.is_dir():
            print(f"corpus {src.name} not found at {corpus}: fetch it with `python bench/bench_grounding.py --fetch`")
            continue
        snapshot = snapshot_directory(corpus, name=f"bench-grounding-{src.name}")
        index = load_index(snapshot)
        for answer in sorted((src.folder / "answers").glob("*.md")):
            text, digest = read_answer(answer)
            for claim in ground_text(snapshot, index, text, AnswerRef(path=answer.name, sha256=digest)).claims:
                counts["claims"] += 1
                asked = questions(claim)
                unchecked = [c for c in claim.checks or [] if c.fact is not None and c.outcome is CheckOutcome.UNCHECKED]
                if unchecked and not asked:
                    counts["not asked: a made-up name decides"] += 1
                if asked:
                    counts["calls"] += 1
                    counts[f"calls on {claim.verdict.value}"] += 1
                for q in asked:
                    record = claim.checks[q.at] if claim.checks is not None and q.at is not None else None
                    kind = "the claim as a whole" if record is None else "judgement" if record.ruled else "no checker reached"
                    counts[f"facts: {kind}"] += 1
    for key in sorted(counts, key=lambda k: (k != "claims", k != "calls", k)):
        print(f"{key:45s} {counts[key]}")


if __name__ == "__main__":
    main()
