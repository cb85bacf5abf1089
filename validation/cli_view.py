"""``groundjudge view``: a static site of a run (run page, one page per answer), optionally served
on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import typer


def _serve(root: Path, port: int, open_page: bool) -> None:
    import functools
    import http.server
    import webbrowser

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    # 127.0.0.1 only: the site shows answers and scores that are nobody else's business.
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        typer.echo(f"serving {root} at {url} (Ctrl-C stops)")
        if open_page:
            webbrowser.open(url)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            typer.echo("stopped")


def view(
    run_dir: Path = typer.Argument(..., help="Run directory holding <cell>/answers, <cell>/grounding and <cell>/scores."),
    out: Path | None = typer.Option(None, "--out", help="Where the site goes (default: RUN_DIR/view)."),
    questions: Path | None = typer.Option(
        None, "--questions", help="Question set (JSONL); default: the one RUN_DIR/manifest.json records."
    ),
    rename_map: Path | None = typer.Option(
        None,
        "--rename-map",
        help="The rename map (groundjudge rename --map-out) of a renamed corpus: shown on a page of its own.",
    ),
    open_page: bool = typer.Option(False, "--open", help="Open the run page in a browser."),
    serve: bool = typer.Option(False, "--serve", help="Serve the site on 127.0.0.1 (it reads as well from the disk)."),
    port: int = typer.Option(8000, "--port", help="Port for --serve (0: any free port)."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed, as report's."),
    resamples: int = typer.Option(10_000, "--resamples", min=1, help="Bootstrap resamples, as report's."),
    confidence: float = typer.Option(0.95, "--confidence", min=0.5, max=0.999, help="Interval confidence, as report's."),
) -> None:
    """Write a static site of a run: its provenance, each cell's means, intervals and exclusions (report's
    numbers), a grid of cells x questions, and a page per answer with its claims, evidence and judges.
    Nothing is fetched from the network; the pages read without a server."""
    import webbrowser

    from groundjudge.validation.view.site import build_site

    index = build_site(
        run_dir, out, questions=questions, rename_map=rename_map, seed=seed, n_resamples=resamples, confidence=confidence
    )
    typer.echo(f"wrote {index}")
    if serve:
        _serve(index.parent, port, open_page)
    elif open_page:
        webbrowser.open(index.resolve().as_uri())


def register(app: typer.Typer) -> None:
    app.command("view")(view)
