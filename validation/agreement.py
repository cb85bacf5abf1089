"""Agreement computations over tables (pandas DataFrames in, DataFrames or dicts out; no I/O).

Judges vs judges, generated vs reference rubric scores, criterion verdicts vs a human reference, a
documentation-need gate vs maintainer decisions, and criterion coverage from a match file. Every
statistic comes from ``validation.stats``; an undefined statistic is nan in the returned tables (the
CLI writes it as "undefined"), never 0 or 1.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from groundjudge.validation import stats
from groundjudge.validation.aggregate import TOTAL

# Priority weights for the priority-weighted recall: a missed P0 criterion costs four times a missed P3.
PRIORITY_WEIGHTS = {"P0": 4.0, "P1": 3.0, "P2": 2.0, "P3": 1.0}
# Credit a reference criterion earns from its best match: a partial match is half a full one, and a
# conflicting criterion covers nothing.
MATCH_CREDIT = {"full": 1.0, "partial": 0.5, "conflict": 0.0}


def _dimension_order(dimension: pd.Series) -> list[str]:
    """The rubric's order (kept by ``judgement_rows``, as in the report); otherwise sorted; total last."""
    present = set(dimension.astype(str))
    ordered = [str(d) for d in dimension.cat.categories] if isinstance(dimension.dtype, pd.CategoricalDtype) else sorted(present)
    return [d for d in ordered if d in present and d != TOTAL] + ([TOTAL] if TOTAL in present else [])


# --------------------------------------------------------------------------------------------------
# Between judges


def judgement_rows(slots: pd.DataFrame) -> pd.DataFrame:
    """Long table ``cell, qid, judge, dimension, score`` of the valid scores of a slot table
    (``validation.aggregate.slot_table``), so agreement and the report exclude exactly the same
    things: failed judgements, unjudged answers, missing dimension scores and void blind-cell answers
    contribute no row, never a 0. The total is the dimension ``total``.
    """
    valid = slots.loc[slots["value"].notna(), ["cell", "qid", "judge", "dimension", "value"]]
    return valid.rename(columns={"value": "score"}).reset_index(drop=True)


JUDGE_COLUMNS = [
    "scope",
    "dimension",
    "judge_a",
    "judge_b",
    "n",
    "alpha",
    "spearman",
    "mean_signed_diff",
    "mean_abs_diff",
]


def _judge_block(scope: str, dimension: str, wide: pd.DataFrame) -> list[dict]:
    """Rows for one scope and dimension; ``wide`` is units x judges with nan where a score is missing."""
    rows = []
    judges = list(wide.columns)
    for a, b in combinations(judges, 2):
        x, y = wide[a].to_numpy(), wide[b].to_numpy()
        diff = stats.mean_differences(x, y)
        rows.append(
            {
                "scope": scope,
                "dimension": dimension,
                "judge_a": a,
                "judge_b": b,
                "n": diff.n,
                "alpha": stats.krippendorff_interval_alpha(np.vstack([x, y])),
                "spearman": stats.spearman(x, y),
                "mean_signed_diff": diff.signed,
                "mean_abs_diff": diff.absolute,
            }
        )
    if len(judges) > 2:
        matrix = wide.to_numpy().T
        rows.append(
            {
                "scope": scope,
                "dimension": dimension,
                "judge_a": "all judges",
                "judge_b": "",
                "n": int(np.count_nonzero(np.count_nonzero(~np.isnan(matrix), axis=0) >= 2)),
                "alpha": stats.krippendorff_interval_alpha(matrix),
                "spearman": np.nan,
                "mean_signed_diff": np.nan,
                "mean_abs_diff": np.nan,
            }
        )
    return rows


def judge_agreement(rows: pd.DataFrame, *, by_cell: bool = False) -> pd.DataFrame:
    """Agreement between judges per dimension and total, over units (cell, question).

    One row per pair of judges (sorted names; signed difference = judge_a - judge_b; n = units both
    scored) with interval alpha over those two, Spearman's rho and the mean signed and absolute
    differences; with three or more judges, one more row ``all judges`` with the alpha over all of
    them (n = units scored by at least two). Scope ``all cells`` pools every cell; ``by_cell`` adds one
    scope per cell.
    """
    out: list[dict] = []
    if rows.empty:
        return pd.DataFrame(columns=JUDGE_COLUMNS)
    scopes: list[tuple[str, pd.DataFrame]] = [("all cells", rows)]
    if by_cell:
        scopes += [(str(cell), part) for cell, part in sorted(rows.groupby("cell"), key=lambda kv: str(kv[0]))]
    judges = sorted(rows["judge"].unique())
    for scope, part in scopes:
        for dim in _dimension_order(part["dimension"]):
            sub = part[part["dimension"] == dim]
            wide = sub.pivot(index=["cell", "qid"], columns="judge", values="score").reindex(columns=judges)
            out.extend(_judge_block(scope, dim, wide.sort_index()))
    return pd.DataFrame(out, columns=JUDGE_COLUMNS)


# --------------------------------------------------------------------------------------------------
# Two keyed tables


def join_pairs(generated: pd.DataFrame, reference: pd.DataFrame, keys: list[str], value: str) -> tuple[pd.DataFrame, int, int]:
    """Inner join on ``keys``: columns keys + ``generated`` + ``reference``, sorted by the keys; plus
    the number of rows found only in the generated and only in the reference table."""
    merged = pd.merge(
        generated[[*keys, value]].rename(columns={value: "generated"}),
        reference[[*keys, value]].rename(columns={value: "reference"}),
        on=keys,
        how="outer",
        indicator=True,
    )
    only_generated = int((merged["_merge"] == "left_only").sum())
    only_reference = int((merged["_merge"] == "right_only").sum())
    both = merged[merged["_merge"] == "both"].drop(columns="_merge").sort_values(keys).reset_index(drop=True)
    return both, only_generated, only_reference


def rubric_agreement(pairs: pd.DataFrame) -> dict:
    """Generated vs reference rubric scores of the same candidates (columns item, candidate,
    generated, reference): pooled Spearman, interval alpha, within-item ordering agreement."""
    x = pairs["generated"].to_numpy(dtype=float)
    y = pairs["reference"].to_numpy(dtype=float)
    order = stats.ordering_agreement(pairs["item"].to_numpy(), x, y)
    diff = stats.mean_differences(x, y)
    return {
        "n": diff.n,
        "items": int(pairs["item"].nunique()),
        "spearman": stats.spearman(x, y),
        "alpha": stats.krippendorff_interval_alpha(np.vstack([x, y])),
        "mean_signed_diff": diff.signed,
        "mean_abs_diff": diff.absolute,
        "pairs": order.pairs,
        "pairs_concordant": order.concordant,
        "pairs_discordant": order.discordant,
        "pairs_tied": order.tied,
        "ordering_agreement": order.share,
    }


def verdict_agreement(pairs: pd.DataFrame) -> tuple[dict, pd.DataFrame]:
    """Criterion verdicts vs a human reference: share agreeing (with its Wilson interval), Cohen's
    kappa, and the confusion counts as a long table ``generated, reference, count``."""
    gen = pairs["generated"].tolist()
    ref = pairs["reference"].tolist()
    n = len(gen)
    agree = sum(g == r for g, r in zip(gen, ref))
    lo, hi = stats.wilson_interval(agree, n)
    labels, table = stats.confusion_matrix(gen, ref)
    confusion = pd.DataFrame(
        [{"generated": g, "reference": r, "count": int(table[i, k])} for i, g in enumerate(labels) for k, r in enumerate(labels)],
        columns=["generated", "reference", "count"],
    )
    summary = {
        "n": n,
        "agree": agree,
        "agreement": agree / n if n else np.nan,
        "agreement_ci_low": lo,
        "agreement_ci_high": hi,
        "kappa": stats.cohen_kappa(gen, ref),
    }
    return summary, confusion


def gate_agreement(pairs: pd.DataFrame) -> dict:
    """A documentation-need gate (generated) vs maintainer decisions (reference), both booleans:
    the 2 x 2 confusion counts, accuracy with its Wilson interval, and Cohen's kappa."""
    g = pairs["generated"].astype(bool).to_numpy()
    m = pairs["reference"].astype(bool).to_numpy()
    counts = {
        "gate_yes_maintainer_yes": int(np.count_nonzero(g & m)),
        "gate_yes_maintainer_no": int(np.count_nonzero(g & ~m)),
        "gate_no_maintainer_yes": int(np.count_nonzero(~g & m)),
        "gate_no_maintainer_no": int(np.count_nonzero(~g & ~m)),
    }
    n = int(g.size)
    correct = counts["gate_yes_maintainer_yes"] + counts["gate_no_maintainer_no"]
    lo, hi = stats.wilson_interval(correct, n)
    return {
        "n": n,
        **counts,
        "accuracy": correct / n if n else np.nan,
        "accuracy_ci_low": lo,
        "accuracy_ci_high": hi,
        "kappa": stats.cohen_kappa(g.tolist(), m.tolist()),
    }


# --------------------------------------------------------------------------------------------------
# Criterion coverage


def criterion_coverage(matches: pd.DataFrame, reference: pd.DataFrame, generated: pd.DataFrame) -> tuple[dict, pd.DataFrame]:
    """Coverage of reference criteria by generated ones, from a match file.

    ``reference``: item, id, priority (P0-P3); ``generated``: item, id; ``matches``: item, generated,
    reference, match (full | partial | conflict), ids already checked to exist. Each reference
    criterion earns the credit of its best match (full 1, partial 0.5, conflict or none 0):
    - recall = mean credit over reference criteria;
    - priority-weighted recall = sum(weight x credit) / sum(weight), weights P0 4, P1 3, P2 2, P3 1;
    - overlap precision = share of generated criteria with at least one full or partial match.
    Also returned: per reference criterion its best match, and the counts behind every share.
    """
    credit = matches.assign(credit=matches["match"].map(MATCH_CREDIT))
    best = credit.groupby(["item", "reference"], sort=True)["credit"].max()
    ref = reference.set_index(["item", "id"]).sort_index()
    ref_credit = best.reindex(ref.index).to_numpy(dtype=float)
    ref_credit = np.where(np.isnan(ref_credit), 0.0, ref_credit)
    weights = ref["priority"].map(PRIORITY_WEIGHTS).to_numpy(dtype=float)
    best_label = {1.0: "full", 0.5: "partial", 0.0: "conflict"}
    has_match = best.reindex(ref.index).notna().to_numpy()
    per_reference = pd.DataFrame(
        {
            "item": [i for i, _ in ref.index],
            "reference": [c for _, c in ref.index],
            "priority": ref["priority"].to_list(),
            "weight": weights,
            "best_match": [best_label[c] if m else "none" for c, m in zip(ref_credit, has_match)],
            "credit": ref_credit,
        }
    )
    overlapping = credit[credit["credit"] > 0]
    overlap_ids = set(zip(overlapping["item"], overlapping["generated"]))
    conflict_ids = set(
        zip(credit.loc[credit["match"] == "conflict", "item"], credit.loc[credit["match"] == "conflict", "generated"])
    )
    gen_ids = set(zip(generated["item"], generated["id"]))
    n_ref, n_gen = len(ref_credit), len(gen_ids)
    labels = per_reference["best_match"]
    summary = {
        "reference_criteria": n_ref,
        "reference_full": int((labels == "full").sum()),
        "reference_partial": int((labels == "partial").sum()),
        "reference_conflict": int((labels == "conflict").sum()),
        "reference_unmatched": int((labels == "none").sum()),
        "recall": float(ref_credit.mean()) if n_ref else np.nan,
        "priority_weighted_recall": float(weights @ ref_credit / weights.sum()) if n_ref else np.nan,
        "generated_criteria": n_gen,
        "generated_overlapping": len(overlap_ids & gen_ids),
        "generated_in_conflict": len(conflict_ids & gen_ids),
        "overlap_precision": len(overlap_ids & gen_ids) / n_gen if n_gen else np.nan,
    }
    return summary, per_reference
