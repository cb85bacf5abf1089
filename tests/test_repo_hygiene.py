"""What a fresh checkout needs: no tracked file outside docs/ names an absolute path of one machine (a
test that ran a tool by such a path passed on the machine it was written on and failed everywhere else),
and the package installs as one namespace."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# The grounding set's answers, labels and recorded replies quote the public codebases they are about (a
# makefile's `cgibin=/srv/www/cgi-bin`): paths of those projects' machines, as data, never read here.
QUOTED_CORPUS = re.compile(
    r"bench/grounding_set/[^/]+/(?:answers/[^/]+\.md|labels[\w-]*\.jsonl)|bench/grounding_set/llm_replies[\w-]*\.jsonl"
)
# Home and work directories of machines; a temporary directory (/tmp) and the system's own tools
# (/usr/bin, /dev, /proc) are the same on every machine.
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:home|root|Users|work|opt|srv|mnt|var/lib|usr/local)/[\w.-]+")


def _tracked() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [REPO / name for name in out.decode().split("\0") if name]


def test_no_tracked_file_names_an_absolute_path_of_a_machine():
    hits = []
    for path in _tracked():
        rel = path.relative_to(REPO).as_posix()
        if rel.startswith("docs/") or rel == Path(__file__).relative_to(REPO).as_posix() or not path.is_file():
            continue
        if QUOTED_CORPUS.fullmatch(rel):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for match in MACHINE_PATH.finditer(line):
                if not match.group(0).startswith(str(REPO)):
                    hits.append(f"{rel}:{number}: {match.group(0)}")
    assert not hits, "absolute paths of one machine:\n" + "\n".join(hits)


def test_the_pattern_catches_what_broke_a_fresh_checkout():
    # The line that broke a fresh checkout, built here so this file does not hold it literally.
    assert MACHINE_PATH.search('GROUNDJUDGE = Path("/' + 'work/venv/bin/groundjudge")')
    assert MACHINE_PATH.search("see /home/alice/project")
    assert not MACHINE_PATH.search("tmp_path / 'x'  # /tmp/run, /usr/bin/chromium, https://example.org/opt/x")
    # only what quotes a codebase of the grounding set is passed over, not its README or the bench scripts
    assert QUOTED_CORPUS.fullmatch("bench/grounding_set/cgiform/answers/q01-request-flow.md")
    assert QUOTED_CORPUS.fullmatch("bench/grounding_set/cgiform/labels.jsonl")
    assert not QUOTED_CORPUS.fullmatch("bench/grounding_set/README.md")
    assert not QUOTED_CORPUS.fullmatch("bench/bench_grounding.py")


def test_every_package_installs_under_the_groundjudge_namespace():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert all(name == "groundjudge" or name.startswith("groundjudge.") for name in config["packages"])
    mapped = {Path(folder) for folder in config["package-dir"].values()}
    for init in REPO.glob("*/__init__.py"):
        assert init.parent.relative_to(REPO) in mapped, f"{init.parent.name}/ is a package outside the namespace"
