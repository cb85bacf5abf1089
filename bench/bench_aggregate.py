"""Aggregation speed: 100,000 judgements within 5 s.

Score objects are generated in memory (no files): 20 cells x 2,500 questions x 2 judges on the
four-dimension rubric, about 2% of judgements failed and 1% of score files missing. Timed: building
the slot table from the score objects, then the three means, per-judge means, exclusions, inventory
and sensitivity (everything `report` computes except the bootstrap intervals, whose cost is that
of validation.stats.cluster_bootstrap_ci, benchmarked on its own). Baseline, measured in the same run: a plain pandas
groupby-mean of the same valid rows by cell and dimension.

    python bench/bench_aggregate.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from groundjudge.judging.models import Judgement, RubricRef, ScoreFile
from groundjudge.validation import aggregate as agg
from groundjudge.validation.scores_io import CellFiles, RunScores

N_CELLS, N_QUESTIONS, JUDGES = 20, 2_500, ("judge-claude", "judge-gpt")
RUBRIC = RubricRef(
    name="reference-free",
    sha256="0" * 64,
    dimensions={"accuracy": 30, "completeness": 25, "traceability": 25, "usefulness": 20},
)


def make_run(seed: int = 0) -> tuple[RunScores, int]:
    rng = np.random.default_rng(seed)
    dims = list(RUBRIC.dimensions)
    maxima = np.array(list(RUBRIC.dimensions.values()))
    cells: dict[str, CellFiles] = {}
    n_judgements = 0
    for c in range(N_CELLS):
        cell = f"cell-{c:02d}"
        scores: dict[str, ScoreFile] = {}
        answers = set()
        for q in range(N_QUESTIONS):
            qid = f"Q{q:05d}"
            answers.add(qid)
            if rng.random() < 0.01:
                continue  # an answer whose score file never got written
            js = []
            for judge in JUDGES:
                n_judgements += 1
                if rng.random() < 0.02:
                    js.append(
                        Judgement.model_construct(
                            judge=judge, model="m", error="timeout", scores=None, total=None, prompt_sha256="0"
                        )
                    )
                    continue
                values = np.floor(rng.random(len(dims)) * (maxima + 1))
                js.append(
                    Judgement.model_construct(
                        judge=judge,
                        model="m",
                        scores=dict(zip(dims, values.tolist())),
                        total=float(values.sum()),
                        error=None,
                        prompt_sha256="0",
                    )
                )
            scores[qid] = ScoreFile.model_construct(
                qid=qid,
                cell=cell,
                judged=any(j.error is None for j in js),
                judgements=js,
                rubric=RUBRIC,
                corpus_tree_hash="t",
                tool_version="bench",
            )
        cells[cell] = CellFiles(cell=cell, answers=frozenset(answers), scores=scores, malformed={})
    return RunScores(run_dir=Path("."), cells=cells, rubric=RUBRIC, judges=JUDGES), n_judgements


def aggregate_all(run: RunScores):
    slots = agg.slot_table(run)
    return slots, (
        agg.three_means(slots),
        agg.per_judge_means(slots),
        agg.exclusions(slots),
        agg.run_inventory(run),
        agg.sensitivity(slots, agg.score_bounds(run)),
    )


def main() -> None:
    t0 = time.perf_counter()
    run, n = make_run()
    print(f"generated {n:,} judgements in memory in {time.perf_counter() - t0:.2f} s (not timed below)")
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        slots, _ = aggregate_all(run)
        best = min(best, time.perf_counter() - t0)
    valid = slots[slots["value"].notna()]
    base = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        valid.groupby(["cell", "dimension"], observed=True)["value"].mean()
        base = min(base, time.perf_counter() - t0)
    expected = N_CELLS * N_QUESTIONS * len(JUDGES)
    print(
        f"aggregate {expected:,} expected judgements ({n:,} present, {len(slots):,} slot rows): {best:.2f} s (best of 3; target <= 5 s)"
    )
    print(f"baseline pandas groupby-mean over the same {len(valid):,} valid rows: {base:.4f} s")
    print(f"ratio aggregate / baseline: {best / base:.0f}x")
    print("PASS" if best <= 5.0 else "FAIL")


if __name__ == "__main__":
    main()
