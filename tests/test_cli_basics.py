"""The command as a user meets it: help, version, one-line errors, a light start-up."""

from __future__ import annotations

import os
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
                yield from walk(sub, [*path, name])

    paths = list(walk(root, []))
    assert ["corpus", "snapshot"] in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
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
    from groundjudge.grounding.snapshot import load_snapshot

    assert result.stdout.splitlines()[-1] == load_snapshot("cli-test").tree_hash


def test_startup_imports_no_heavy_library():
    heavy = ["pandas", "numpy", "scipy", "matplotlib", "openai", "anthropic", "instructor", "tree_sitter", "statsmodels"]
    code = f"import sys; from groundjudge.cli import app; print(','.join(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def _run_main(*args: str) -> tuple[str, list[str]]:
    """The console script in a fresh interpreter: (its stdout, the subcommand modules it imported)."""
    code = (
        "import sys\n"
        "from groundjudge.cli import COMMANDS, main\n"
        f"sys.argv = ['groundjudge', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('MODULES:' + ','.join(sorted(m for m in set(COMMANDS.values()) if m in sys.modules)))\n"
    )
    env = {**os.environ, "COLUMNS": "200"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    body, _, modules = out.rpartition("MODULES:")
    return body, [m for m in modules.strip().split(",") if m]


def test_a_command_imports_only_the_module_that_registers_it():
    _, modules = _run_main("corpus", "list")
    assert modules == ["groundjudge.grounding.cli"]
    _, modules = _run_main("rename-verify", "--help")
    assert modules == ["groundjudge.rename.cli"]


def test_root_help_and_unknown_commands_see_every_command():
    from groundjudge.cli import COMMANDS

    out, modules = _run_main("--help")
    assert modules == sorted(set(COMMANDS.values()))
    listed = {line.strip("│ ").split(" ")[0] for line in out.splitlines()}
    assert set(COMMANDS) <= listed
    out, modules = _run_main("corpsu")
    assert modules == sorted(set(COMMANDS.values()))


def test_the_command_table_is_what_the_modules_register():
    import importlib

    import typer

    from groundjudge.cli import COMMANDS

    found = {}
    for module in set(COMMANDS.values()):
        one = typer.Typer()
        importlib.import_module(module).register(one)
        for name in [c.name for c in one.registered_commands] + [g.name for g in one.registered_groups]:
            found[name] = module
    assert found == COMMANDS


def test_help_keeps_square_brackets_and_whole_sentences():
    """Rich markup must not swallow `[defaults]`, and a docstring's wrapped lines must not become
    one-word lines (Typer keeps a docstring's single line breaks, then wraps again)."""
    result = runner.invoke(app, ["score", "--help"])
    assert result.exit_code == 0
    text = " ".join(w for w in result.output.split() if w not in ("│", "*"))  # the panels' borders
    assert "[defaults], [retry], [[judges]], [prices.MODEL]" in text
    # The score docstring wraps after "the rest," in the source: one paragraph on screen.
    assert "redoes the rest, failed ones included" in text
    lone_words = [line for line in result.output.splitlines() if len(line.split()) == 1 and line.strip().isalpha()]
    assert lone_words == []


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, tmp_path):
    """A command with no Ctrl-C handling of its own still ends in one line, never a traceback."""
    import groundjudge.grounding.snapshot as snapshot

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(snapshot, "snapshot_directory", interrupted)
    result = runner.invoke(app, ["corpus", "snapshot", str(tmp_path), "--name", "x"])
    assert result.exit_code == 130
    assert result.stderr.strip() == "interrupted: every file on disk is complete; run the same command again to finish"


def test_demo_out_that_is_a_file_or_under_one_is_one_line(tmp_path):
    (tmp_path / "f").write_text("x")
    result = runner.invoke(app, ["demo", "--out", str(tmp_path / "f")])
    assert (result.exit_code, result.stderr.strip()) == (2, f"error: {tmp_path / 'f'}: --out is a file, not a directory")
    # Under a file: the OSError the copy meets becomes one line naming the path, never a traceback.
    result = runner.invoke(app, ["demo", "--out", str(tmp_path / "f" / "sub")])
    assert result.exit_code == 2
    assert (
        result.stderr.strip() == f"error: {tmp_path / 'f' / 'sub' / 'cobol-bank' / 'notools-nosrc' / 'answers'}: Not a directory"
    )
    assert (tmp_path / "f").read_text() == "x"


def _command_paths(command, prefix=()):
    yield prefix
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _command_paths(sub, (*prefix, name))


def test_every_help_shows_human_placeholders_not_python_types():
    import re

    import typer.main

    from groundjudge.cli import build_app

    runner = CliRunner(env={"COLUMNS": "200"})
    paths = list(_command_paths(typer.main.get_command(build_app())))
    assert len(paths) > 15
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        leaked = re.findall(r"<(?:bool|str|int|float|path|list\[[^>]*\]|Path[^>]*)>", result.output)
        assert not leaked, (path, leaked)
