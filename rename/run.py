"""``rename``: discover, plan, build, then write the tree and the map (I/O lives here and in the CLI)."""

from __future__ import annotations

from pathlib import Path

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.grounding.snapshot import Snapshot
from groundjudge.hashing import sha256_file
from groundjudge.rename.apply import build, ensure_parent, write_tree
from groundjudge.rename.discover import discover
from groundjudge.rename.leak import prose_names
from groundjudge.rename.mapping import plan_map
from groundjudge.rename.models import CASE_SENSITIVE_CLASSES, RenameMap
from groundjudge.rename.phrase import product_phrases
from groundjudge.rename.vocabulary import read_word_file
from groundjudge.storage import write_model


def rename_corpus(
    snapshot: Snapshot,
    out: Path,
    map_out: Path,
    seeds: list[int],
    classes: list[str],
    keep: Path | None = None,
    include: Path | None = None,
    exclude: Path | None = None,
    force: bool = False,
    scrub_prose: bool = False,
) -> list[tuple[Path, Path, RenameMap]]:
    """One renamed tree and map per seed. With several seeds, OUT-<seed> and MAP-<seed>.json.
    Every map and tree is computed (and collision-checked) before anything is written."""
    lists = {"keep": keep, "include": include, "exclude": exclude}
    words = {k: read_word_file(p) if p else [] for k, p in lists.items()}
    hashes = {k: sha256_file(p) for k, p in lists.items() if p}
    targets = [(out, map_out)] if len(seeds) == 1 else [(_suffixed(out, s), _suffixed(map_out, s)) for s in seeds]
    source = Path(snapshot.manifest.source)
    for tree_out, m_out in targets:
        if Path(tree_out).resolve().is_relative_to(source):
            raise UserError("output directory is inside the corpus being renamed", tree_out)
        if tree_out.exists() and not force:
            raise UserError("output exists (use --force to replace it)", tree_out)
        if Path(m_out).is_dir():
            raise UserError("map output is a directory", m_out)
        ensure_parent(tree_out)
        ensure_parent(m_out)
    found = discover(snapshot, index_classes=[c for c in classes if c in CASE_SENSITIVE_CLASSES])
    prose: set[str] = set()
    phrases: set[tuple[str, ...]] = set()
    if scrub_prose:
        shorts, phrases = product_phrases(snapshot)
        prose = prose_names(snapshot, {k.upper() for k in found.found}) | shorts
    results = []
    for seed in seeds:
        plan = plan_map(found, seed, classes, words["keep"], words["include"], words["exclude"], prose, phrases)
        if not plan.identifiers:
            # an unchanged copy would pass for a renamed corpus and show "no recall effect"
            hint = (
                ""
                if set(classes) & CASE_SENSITIVE_CLASSES
                else "; Python/Java/... names are opt-in: --classes module,class,function,method"
            )
            raise UserError(
                f"nothing to rename: no identifier of the classes {','.join(classes)} found{hint}", snapshot.manifest.source
            )
        tree = build(snapshot, plan.identifiers, plan.classes, found.corpus_tokens, plan.kept, plan.phrases)
        rmap = RenameMap(
            tool_version=__version__,
            seed=seed,
            corpus_name=snapshot.name,
            corpus_tree_hash=snapshot.tree_hash,
            renamed_tree_hash=tree.tree_hash,
            classes_selected=classes,
            inputs_sha256=hashes,
            identifiers=plan.identifiers,
            phrases=plan.phrases,
            classes=plan.classes,
            derived_from=plan.derived_from,
            kept=plan.kept,
            renamed_paths=tree.renamed_paths,
            copied_verbatim=tree.copied_verbatim,
            occurrences=tree.occurrences,
            rejected_candidates=len(plan.rejections),
        )
        results.append((tree, rmap))
    written = []
    for (tree_out, m_out), (tree, rmap) in zip(targets, results):
        write_tree(tree.files, tree_out, force, tree.links)
        write_model(m_out, rmap)
        written.append((tree_out, m_out, rmap))
    return written


def _suffixed(path: Path, seed: int) -> Path:
    path = Path(path)
    return path.with_name(f"{path.stem}-{seed}{path.suffix}")
