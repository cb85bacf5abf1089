"""The command as a user meets it: help, version, one-line errors, a light start-up."""

from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from groundjudge import __version__
from groundjudge.cli import app

runner = CliRunner()


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"groundjudge {__version__}"


def test_every_command_has_help():
    import typer.main

    root = typer.main.get_command(app)

    def walk(cmd, path):
        yield path
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                yield from walk(sub, path + [name])

    paths = list(walk(root, []))
    assert ["corpus", "snapshot"] in paths
    for path in paths:
        result = runner.invoke(app, path + ["--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage" in result.output


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    result = runner.invoke(app, ["corpus", "snapshot", str(tmp_path / "missing"), "--name", "x"])
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [f"error: {tmp_path / 'missing'}: corpus directory does not exist"]


def test_snapshot_command_prints_tree_hash(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "a.txt").write_text("a\n")
    result = runner.invoke(app, ["corpus", "snapshot", str(tmp_path / "c"), "--name", "cli-test"])
    assert result.exit_code == 0
    from grounding.snapshot import load_snapshot

    assert result.stdout.splitlines()[-1] == load_snapshot("cli-test").tree_hash


def test_startup_imports_no_heavy_library():
    heavy = ["pandas", "numpy", "scipy", "matplotlib", "openai", "anthropic", "instructor", "tree_sitter", "statsmodels"]
    code = "import sys, groundjudge.cli; print(','.join(m for m in %r if m in sys.modules))" % heavy
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
