"""Aggregation of score files: exclusions, the three means, per-judge means, inventory, sensitivity.

Everything here is pure: it takes a ``RunScores`` (already read) and returns pandas tables. The
central table is the *slot table*: one row per expected (cell, question, judge, dimension) with the
score, or nan and the reason it is missing. Missing data is never read as zero; every mean is taken
over the valid rows only, and the sensitivity table shows how far the missing rows could move it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from groundjudge.errors import UserError
from groundjudge.validation.scores_io import RunScores

TOTAL = "total"

# Why a slot has no score. The first three are the judge's doing; the next three are the pipeline's
# (infrastructure); a void answer broke the rules of a blind cell and is excluded on purpose.
JUDGE_FAILURES = ("judge_error", "judge_missing", "dimension_missing")
INFRASTRUCTURE_FAILURES = ("malformed_score_file", "no_score_file", "no_answer")
VOID = "void_blind"
REASONS = JUDGE_FAILURES + INFRASTRUCTURE_FAILURES + (VOID,)

CELL_DIMENSION_COLUMNS = [
    "cell",
    "dimension",
    "mean_question_balanced",
    "mean_pooled",
    "mean_judge_balanced",
    "n_questions",
    "n_judgements",
]
CELL_JUDGE_DIMENSION_COLUMNS = ["cell", "judge", "dimension", "mean_question_balanced", "n"]
EXCLUSION_COLUMNS = ["cell", "judge", "expected", "excluded", *REASONS]
INVENTORY_COLUMNS = ["cell", "answers", "judged", "included", "reason"]
SENSITIVITY_COLUMNS = [
    "cell",
    "dimension",
    "mean_question_balanced",
    "judge_failures_at_min",
    "judge_failures_at_max",
    "all_missing_at_min",
    "all_missing_at_max",
    "n_judge_failures",
    "n_infrastructure_failures",
]
INTERVAL_COLUMNS = [
    "cell",
    "dimension",
    "mean_question_balanced",
    "ci_low",
    "ci_high",
    "n_questions",
    "confidence",
    "n_resamples",
    "seed",
]


def dimensions(run: RunScores) -> list[str]:
    if run.rubric is not None and TOTAL in run.rubric.dimensions:
        raise UserError(
            f"rubric {run.rubric.name} has a dimension named {TOTAL!r}, which would be mixed up with the judgement total",
            run.run_dir,
        )
    return [*(run.rubric.dimensions if run.rubric else {}), TOTAL]


def score_bounds(run: RunScores) -> dict[str, tuple[float, float]]:
    """Per dimension the rubric's (minimum, maximum); the total's are the sums."""
    if run.rubric is None:
        return {}
    lo = {d: float(run.rubric.minimum.get(d, 0.0)) for d in run.rubric.dimensions}
    hi = {d: float(m) for d, m in run.rubric.dimensions.items()}
    return {**{d: (lo[d], hi[d]) for d in hi}, TOTAL: (sum(lo.values()), sum(hi.values()))}


def slot_table(
    run: RunScores,
    *,
    expected_qids: Iterable[str] | None = None,
    void: Iterable[tuple[str, str]] = (),
) -> pd.DataFrame:
    """One row per expected (cell, qid, judge, dimension): ``value`` (nan if missing) and ``reason``
    ("" when valid). Expected questions default to every question seen anywhere in the run."""
    qids = sorted(set(expected_qids)) if expected_qids is not None else run.qids()
    void_set = set(void)
    dims = dimensions(run)
    judged_dims = dims[:-1]
    cols: dict[str, list] = {"cell": [], "qid": [], "judge": [], "reason": [], **{d: [] for d in dims}}
    nan_row = [np.nan] * len(dims)

    def add(cell: str, qid: str, judge: str, reason: str, values: list[float]) -> None:
        cols["cell"].append(cell)
        cols["qid"].append(qid)
        cols["judge"].append(judge)
        cols["reason"].append(reason)
        for d, v in zip(dims, values):
            cols[d].append(v)

    for cell, files in run.cells.items():
        for qid in qids:
            score = files.scores.get(qid)
            if (cell, qid) in void_set:
                whole = VOID
            elif score is not None:
                whole = ""
            elif qid in files.malformed:
                whole = "malformed_score_file"
            elif qid in files.answers:
                whole = "no_score_file"
            else:
                whole = "no_answer"
            by_judge = {j.judge: j for j in score.judgements} if score is not None else {}
            for judge in run.judges:
                if whole:
                    add(cell, qid, judge, whole, nan_row)
                    continue
                j = by_judge.get(judge)
                if j is None:
                    add(cell, qid, judge, "judge_missing", nan_row)
                elif j.error is not None:
                    add(cell, qid, judge, "judge_error", nan_row)
                else:
                    scores = j.scores or {}
                    values = [scores.get(d) for d in judged_dims] + [j.total]
                    add(cell, qid, judge, "", [np.nan if v is None else float(v) for v in values])

    wide = pd.DataFrame(cols)
    long = wide.melt(id_vars=["cell", "qid", "judge", "reason"], value_vars=dims, var_name="dimension", value_name="value")
    long["value"] = long["value"].astype(float)
    long.loc[(long["reason"] == "") & long["value"].isna(), "reason"] = "dimension_missing"
    long["dimension"] = pd.Categorical(long["dimension"], categories=dims, ordered=True)
    return long.sort_values(["cell", "dimension", "qid", "judge"], kind="stable").reset_index(drop=True)


def _cell_dims(slots: pd.DataFrame) -> pd.MultiIndex:
    return pd.MultiIndex.from_frame(slots[["cell", "dimension"]].drop_duplicates()).sort_values()


def _question_balanced(frame: pd.DataFrame, keys: list[str], value: str = "value") -> pd.DataFrame:
    """Mean within each question first, then over the questions; returns mean and question count."""
    per_q = frame.groupby([*keys, "qid"], observed=True)[value].mean().dropna()
    g = per_q.groupby(level=list(range(len(keys))), observed=True)
    return pd.DataFrame({"mean": g.mean(), "n": g.size()})


def three_means(slots: pd.DataFrame) -> pd.DataFrame:
    """``cell_dimension.csv``: question-balanced (primary), pooled and judge-balanced means."""
    valid = slots[slots["value"].notna()]
    keys = ["cell", "dimension"]
    qb = _question_balanced(valid, keys)
    g = valid.groupby(keys, observed=True)["value"]
    per_judge = valid.groupby([*keys, "judge"], observed=True)["value"].mean()
    out = pd.DataFrame(
        {
            "mean_question_balanced": qb["mean"],
            "mean_pooled": g.mean(),
            "mean_judge_balanced": per_judge.groupby(level=[0, 1], observed=True).mean(),
            "n_questions": qb["n"],
            "n_judgements": g.size(),
        }
    ).reindex(_cell_dims(slots))
    out[["n_questions", "n_judgements"]] = out[["n_questions", "n_judgements"]].fillna(0).astype(int)
    return out.reset_index()[CELL_DIMENSION_COLUMNS]


def per_judge_means(slots: pd.DataFrame) -> pd.DataFrame:
    """``cell_judge_dimension.csv``: each judge's question-balanced mean per cell and dimension."""
    keys = ["cell", "judge", "dimension"]
    full = pd.MultiIndex.from_frame(slots[keys].drop_duplicates()).sort_values()
    qb = _question_balanced(slots[slots["value"].notna()], keys).reindex(full)
    qb["n"] = qb["n"].fillna(0).astype(int)
    return qb.rename(columns={"mean": "mean_question_balanced"}).reset_index()[CELL_JUDGE_DIMENSION_COLUMNS]


def exclusions(slots: pd.DataFrame) -> pd.DataFrame:
    """``exclusions.csv``: per cell and judge, the expected judgements, how many were excluded, and
    why. Whole-judgement reasons are counted on the total; ``dimension_missing`` counts dimension
    scores missing from otherwise valid judgements (those judgements are not in ``excluded``)."""
    total = slots[slots["dimension"] == TOTAL]
    keys = ["cell", "judge"]
    counts = pd.crosstab([total["cell"], total["judge"]], total["reason"])
    dim_missing = slots[slots["reason"] == "dimension_missing"].groupby(keys).size()
    out = pd.DataFrame(index=counts.index)
    out["expected"] = counts.sum(axis=1)
    out["excluded"] = counts.drop(columns=[""], errors="ignore").sum(axis=1)
    for reason in REASONS:
        out[reason] = counts.get(reason, 0)
    out["dimension_missing"] = dim_missing.reindex(out.index).fillna(0).astype(int)
    return out.reset_index().sort_values(keys).reset_index(drop=True)[EXCLUSION_COLUMNS]


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def run_inventory(run: RunScores, void: Iterable[tuple[str, str]] = ()) -> pd.DataFrame:
    """``run_inventory.csv``: every cell, its answer files, judged answers and whether it is included."""
    void_set = set(void)
    rows = []
    for cell, files in sorted(run.cells.items()):
        n_void = sum(1 for q in files.answers | set(files.scores) if (cell, q) in void_set)
        judged = sum(1 for q, s in files.scores.items() if s.judged and (cell, q) not in void_set)
        unscored = len(files.answers - set(files.scores) - set(files.malformed))
        if judged:
            parts = [_count(judged, "judged answer", "judged answers")]
        elif not files.answers and not files.scores:
            parts = ["no answers and no score files"]
        elif not files.scores:
            parts = ["no score files"]
        else:
            parts = ["no judged answers"]
        if n_void:
            parts.append(f"{n_void} void (blind-cell tool use)")
        if files.malformed:
            parts.append(_count(len(files.malformed), "malformed score file", "malformed score files"))
        if unscored and files.scores:
            parts.append(_count(unscored, "answer without a score file", "answers without a score file"))
        rows.append(
            {"cell": cell, "answers": len(files.answers), "judged": judged, "included": judged > 0, "reason": "; ".join(parts)}
        )
    return pd.DataFrame(rows, columns=INVENTORY_COLUMNS)


def sensitivity(slots: pd.DataFrame, bounds: dict[str, tuple[float, float]]) -> pd.DataFrame:
    """``sensitivity.csv``: the question-balanced mean if every excluded judgement had scored the
    rubric minimum, or maximum; first filling judge failures only, then also infrastructure failures.
    Void answers are never filled: they are excluded by rule, not missing."""
    keys = ["cell", "dimension"]
    lo = slots["dimension"].map({d: b[0] for d, b in bounds.items()}).astype(float)
    hi = slots["dimension"].map({d: b[1] for d, b in bounds.items()}).astype(float)
    judge_fail = slots["reason"].isin(JUDGE_FAILURES)
    infra_fail = slots["reason"].isin(INFRASTRUCTURE_FAILURES)
    any_fail = judge_fail | infra_fail
    value = slots["value"]
    frame = slots[["cell", "dimension", "qid"]].assign(
        mean_question_balanced=value,
        judge_failures_at_min=value.where(~judge_fail, lo),
        judge_failures_at_max=value.where(~judge_fail, hi),
        all_missing_at_min=value.where(~any_fail, lo),
        all_missing_at_max=value.where(~any_fail, hi),
        n_judge_failures=judge_fail.astype(int),
        n_infrastructure_failures=infra_fail.astype(int),
    )
    filled = SENSITIVITY_COLUMNS[2:7]
    # A question whose column is all nan drops out of the outer mean, as in _question_balanced.
    per_q = frame.groupby([*keys, "qid"], observed=True)[filled].mean()
    out = per_q.groupby(level=[0, 1], observed=True).mean().reindex(_cell_dims(slots))
    counts = frame.groupby(keys, observed=True)[SENSITIVITY_COLUMNS[7:]].sum().reindex(out.index).fillna(0).astype(int)
    out = out.join(counts)
    return out.reset_index()[SENSITIVITY_COLUMNS]


def intervals(slots: pd.DataFrame, *, n_resamples: int = 10_000, confidence: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """``cell_intervals.csv``: percentile intervals of the question-balanced mean by resampling
    questions (clusters) with replacement, with a fixed seed."""
    from groundjudge.validation.stats import cluster_bootstrap_ci

    valid = slots[slots["value"].notna()]
    groups = dict(iter(valid.groupby(["cell", "dimension"], observed=True)))
    rows = []
    for cell, dimension in _cell_dims(slots):
        g = groups.get((cell, dimension))
        if g is None:
            rows.append([cell, dimension, np.nan, np.nan, np.nan, 0])
            continue
        low, high = cluster_bootstrap_ci(
            g["value"].to_numpy(),
            g["qid"].to_numpy(),
            statistic="mean",
            n_resamples=n_resamples,
            confidence=confidence,
            seed=seed,
        )
        mean = g.groupby("qid")["value"].mean()
        rows.append([cell, dimension, float(mean.mean()), low, high, int(mean.size)])
    out = pd.DataFrame(rows, columns=INTERVAL_COLUMNS[:6])
    out["confidence"], out["n_resamples"], out["seed"] = confidence, n_resamples, seed
    return out
