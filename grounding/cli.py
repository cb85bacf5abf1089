"""``groundjudge corpus ...``: snapshots and the index."""

from __future__ import annotations

from pathlib import Path

import typer

corpus_app = typer.Typer(help="Frozen corpus snapshots and their index.", no_args_is_help=True)


@corpus_app.command("snapshot")
def snapshot_cmd(
    src: Path = typer.Argument(..., help="Directory to snapshot."),
    name: str = typer.Option(..., "--name", help="Name to store the snapshot under."),
    replace: bool = typer.Option(False, "--replace", help="Repoint NAME if it already holds another tree."),
) -> None:
    """Record every regular file under SRC in the content-addressed store and print the tree hash."""
    from groundjudge.grounding.snapshot import snapshot_directory

    snap = snapshot_directory(src, name, replace=replace)
    m = snap.manifest
    flagged = sum(1 for f in m.files if f.kind != "text")
    typer.echo(f"snapshot {m.name}: {len(m.files)} files ({flagged} binary or unread), {len(m.skipped)} skipped")
    typer.echo(m.tree_hash)


@corpus_app.command("list")
def list_cmd() -> None:
    """List stored snapshots."""
    from groundjudge.grounding.snapshot import list_snapshots

    for m in list_snapshots():
        typer.echo(f"{m.name}\t{m.tree_hash}\t{len(m.files)} files\t{m.source}")


@corpus_app.command("index")
def index_cmd(
    corpus: str = typer.Argument(..., help="A stored snapshot name, or a directory (snapshotted on the fly)."),
    workers: int = typer.Option(None, "--workers", min=1, help="Parse worker processes for the build (default: one per CPU)."),
) -> None:
    """Build (or reuse) the index of CORPUS and print its files, definitions, references and seconds."""
    import time

    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import open_corpus

    started = time.perf_counter()
    # a stored snapshot is re-verified inside load_index, overlapping the parse workers on a build
    snap = open_corpus(corpus, verify=False)
    idx = load_index(snap, progress=True, workers=workers, verify=not Path(corpus).is_dir())
    counts = idx.counts()
    seconds = time.perf_counter() - started
    state = "cached" if idx.cached else "built"
    typer.echo(
        f"index {snap.name} ({state}): {counts['files']} files, {counts['definitions']} definitions, "
        f"{counts['references']} references, {counts['timeouts']} timeouts, {counts['lexical_only']} lexical only, "
        f"{counts['too_large']} too large (skipped), {seconds:.2f} s"
    )
    idx.close()


def register(app: typer.Typer) -> None:
    app.add_typer(corpus_app, name="corpus")
