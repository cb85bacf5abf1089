"""CLI: ``rename``, ``rename-questions``, ``rename-verify``."""

from __future__ import annotations

from pathlib import Path

import typer

from groundjudge.errors import UserError


def _seeds(seed: int | None, seeds: str | None) -> list[int]:
    if seed is not None and seeds:
        raise UserError("give --seed or --seeds, not both")
    if seeds:
        try:
            values = [int(s) for s in seeds.split(",") if s.strip()]
        except ValueError:
            raise UserError(f"--seeds must be comma-separated integers, got {seeds!r}") from None
        if not values:
            raise UserError(f"--seeds lists no seed, got {seeds!r}")
        if len(set(values)) != len(values):
            raise UserError(f"--seeds must list distinct integers, got {seeds!r}")
        return values
    if seed is None:
        raise UserError("give --seed N or --seeds 1,2,3")
    return [seed]


def rename_cmd(
    corpus: str = typer.Argument(..., help="Stored snapshot name or corpus directory."),
    out: Path = typer.Option(..., "--out", help="Directory to write the renamed tree to (OUT-<seed> with --seeds)."),
    map_out: Path = typer.Option(..., "--map-out", help="Where to write the map JSON (MAP-<seed>.json with --seeds)."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the token generator."),
    seeds: str | None = typer.Option(None, "--seeds", help="Several seeds, comma-separated: one renamed tree per seed."),
    classes: str | None = typer.Option(
        None,
        "--classes",
        help="Comma-separated identifier classes; 'default' (every COBOL, JCL, BMS and CSD name but DD and step names), 'all' or names such as program,copybook,jcl_dd.",
    ),
    keep: Path | None = typer.Option(
        None,
        "--keep",
        help="Domain vocabulary never renamed nor generated (English words are kept already): a word list, one or more words a line.",
    ),
    include: Path | None = typer.Option(
        None,
        "--include",
        help="Names to rename even if discovery did not select them or kept them as English words (matched ignoring case); NAME* takes every token starting with NAME.",
    ),
    exclude: Path | None = typer.Option(None, "--exclude", help="Names never to rename."),
    force: bool = typer.Option(False, "--force", help="Replace an existing output directory."),
    scrub_prose: bool = typer.Option(
        False,
        "--scrub-prose",
        help="Also rename what identifies the corpus in comments and documents: product and place names, URL words, copyright owners.",
    ),
) -> None:
    """Rename repository-specific identifiers to novel tokens of the same shape; write the tree and the map."""
    from rich.console import Console
    from rich.table import Table

    from groundjudge.grounding.snapshot import open_corpus
    from groundjudge.rename.mapping import parse_classes
    from groundjudge.rename.run import rename_corpus

    seed_list = _seeds(seed, seeds)
    chosen = parse_classes(classes)
    console = Console(stderr=True)
    with console.status("renaming"):
        snap = open_corpus(corpus)
        written = rename_corpus(snap, out, map_out, seed_list, chosen, keep, include, exclude, force, scrub_prose)
    for tree_out, m_out, rmap in written:
        table = Table(title=f"seed {rmap.seed}: {tree_out}  (map {m_out})")
        table.add_column("class")
        table.add_column("identifiers", justify="right")
        table.add_column("occurrences", justify="right")
        for cls, n in rmap.per_class().items():
            table.add_row(cls, str(n), str(rmap.occurrences.get(cls, 0)))
        console.print(table)
        words = sorted(n for n, why in rmap.kept.items() if why.startswith("English word"))
        shown = f": {', '.join(words[:8])}{', ...' if len(words) > 8 else ''}" if words else ""
        console.print(
            f"{len(rmap.renamed_paths)} paths renamed, {len(rmap.copied_verbatim)} files copied byte-identical, "
            f"{len(rmap.kept)} names kept ('kept' in the map says why), {len(words)} of them English words{shown}"
        )


def rename_questions_cmd(
    questions: Path = typer.Argument(..., help="Question set (JSONL)."),
    map_path: Path = typer.Option(..., "--map", help="Map written by 'rename'."),
    out: Path = typer.Option(..., "--out", help="Renamed question set to write."),
) -> None:
    """Apply a rename map to a question set: text and must_touch renamed; ids and labels unchanged."""
    from groundjudge.rename.mapping import Lookup
    from groundjudge.rename.models import RenameMap
    from groundjudge.rename.phrase import Phrases
    from groundjudge.rename.questions import rename_questions
    from groundjudge.storage import read_model

    rmap = read_model(map_path, RenameMap)
    n = rename_questions(questions, Lookup(rmap.identifiers, rmap.classes, rmap.kept), Phrases(rmap.phrases), out)
    typer.echo(f"{n} questions renamed -> {out}")


def rename_verify_cmd(
    original: str = typer.Argument(..., help="Original corpus: stored snapshot name or directory."),
    renamed: str = typer.Argument(..., help="Renamed corpus: stored snapshot name or directory."),
    map_path: Path = typer.Option(..., "--map", help="Map written by 'rename'."),
    questions: tuple[Path, Path] | None = typer.Option(
        None, "--questions", help="Original and renamed question sets to check too (two paths)."
    ),
    report: Path | None = typer.Option(None, "--report", help="Also write the JSON report to this file."),
) -> None:
    """Check that two trees are structurally equivalent under the map; JSON on stdout, summary on stderr, exit 1 on any failure."""
    from groundjudge.grounding.snapshot import open_corpus
    from groundjudge.rename.apply import ensure_parent
    from groundjudge.rename.models import RenameMap
    from groundjudge.rename.verify import report_json, summary, verify_trees
    from groundjudge.storage import read_model, write_model

    rmap = read_model(map_path, RenameMap)
    if report:
        ensure_parent(report)
    result = verify_trees(
        open_corpus(original), open_corpus(renamed), rmap, map_path, questions if questions and questions[0] else None
    )
    if report:
        write_model(report, result)
    typer.echo(report_json(result))
    typer.echo(summary(result), err=True)
    if not result.ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("rename")(rename_cmd)
    app.command("rename-questions")(rename_questions_cmd)
    app.command("rename-verify")(rename_verify_cmd)
