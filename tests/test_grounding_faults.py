"""Grounding-side faults of bad input and a damaged or interrupted store: FIFOs and other special files as
answers, symlink loops in a corpus, manifests and objects that no longer match, killed index builds,
oversized answers and corpus files, and a snapshot name repointed to another tree."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.errors import UserError
from groundjudge.grounding.ground import read_answer

runner = CliRunner()

GUARD_SECONDS = 10


def _guarded(fn, fifo: Path):
    """fn() run in a thread; should it block reading the FIFO, a writer is opened and closed so the read
    ends (a regression fails the test instead of hanging the suite)."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["value"] = fn()
        except BaseException as exc:  # handed to the test thread, which asserts on it
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(GUARD_SECONDS)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_WRONLY))  # the blocked reader now sees end of file
        thread.join(GUARD_SECONDS)
        pytest.fail(f"reading {fifo} blocked for {GUARD_SECONDS} s")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("value")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "src").mkdir(parents=True)
    (root / "src" / "m.py").write_text("def f():\n    return 1\n")
    return root


# 1. special files as answers ------------------------------------------------------------------------


def test_a_fifo_answer_is_refused_unopened(tmp_path):
    fifo = tmp_path / "a.md"
    os.mkfifo(fifo)
    with pytest.raises(UserError) as err:
        _guarded(lambda: read_answer(fifo), fifo)
    assert str(err.value) == f"{fifo}: answer is a named pipe (FIFO), not a regular file"


def test_a_socket_answer_is_refused(tmp_path):
    path = tmp_path / "s.md"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(path))
        with pytest.raises(UserError, match=r"s\.md: answer is a socket, not a regular file$"):
            read_answer(path)
    finally:
        sock.close()


def test_a_device_answer_is_refused():
    # /dev/null, not /dev/zero: a regression that reads it ends at once instead of filling memory
    with pytest.raises(UserError, match=r"^/dev/null: answer is a character device, not a regular file$"):
        read_answer("/dev/null")


def test_ground_refuses_a_fifo_answer_with_one_line(tmp_path, corpus):
    fifo = tmp_path / "a.md"
    os.mkfifo(fifo)
    result = _guarded(lambda: runner.invoke(app, ["ground", str(fifo), "--corpus", str(corpus)]), fifo)
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {fifo}: answer is a named pipe (FIFO), not a regular file"


def test_ground_refuses_a_fifo_in_a_directory_of_answers_and_writes_nothing(tmp_path, corpus):
    answers, out = tmp_path / "answers", tmp_path / "out"
    answers.mkdir()
    (answers / "q1.md").write_text("`src/m.py` defines `f`.\n")
    os.mkfifo(answers / "q2.md")
    result = _guarded(
        lambda: runner.invoke(app, ["ground", str(answers), "--corpus", str(corpus), "--out-dir", str(out)]), answers / "q2.md"
    )
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {answers / 'q2.md'}: answer is a named pipe (FIFO), not a regular file"
    assert not out.exists()


def test_score_refuses_a_fifo_answer_in_the_run_directory(tmp_path):
    from _fake_provider_helpers import score_args, write_project

    project = write_project(tmp_path)
    answer = next((project / "run").glob("*/answers/*.md"))
    answer.unlink()
    os.mkfifo(answer)
    args = score_args(project, ["judge-claude=anthropic:fake-claude@http://127.0.0.1:9"])
    result = _guarded(lambda: CliRunner(env={"ANTHROPIC_API_KEY": "k"}).invoke(app, args), answer)
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"error: {answer}: answer is a named pipe (FIFO), not a regular file"


# 5. oversized answers ---------------------------------------------------------------------------------


def test_an_answer_over_the_limit_is_refused_naming_size_limit_and_how_to_raise_it(tmp_path, corpus, monkeypatch):
    answer = tmp_path / "big.md"
    answer.write_bytes(b"- `src/m.py` defines `f`.\n" * 40_000)  # 1,040,000 bytes
    size = answer.stat().st_size
    with pytest.raises(UserError) as err:
        read_answer(answer)
    assert str(err.value) == (
        f"{answer}: answer is {size} bytes, over the limit of 1000000 bytes "
        "(raise it with GROUNDJUDGE_MAX_ANSWER_BYTES, or ground's --max-answer-bytes)"
    )
    result = runner.invoke(app, ["ground", str(answer), "--corpus", str(corpus)])
    assert result.exit_code == 2 and result.output.strip() == f"error: {err.value}"
    # raised by the option, or by the environment (which `score` reads too)
    assert read_answer(answer, max_bytes=size)[0].startswith("- `src/m.py`")
    monkeypatch.setenv("GROUNDJUDGE_MAX_ANSWER_BYTES", str(size))
    assert read_answer(answer)[1]
    monkeypatch.setenv("GROUNDJUDGE_MAX_ANSWER_BYTES", "100")
    result = runner.invoke(app, ["ground", str(answer), "--corpus", str(corpus), "--max-answer-bytes", str(size)])
    assert result.exit_code == 0, result.output


def test_a_bad_answer_limit_in_the_environment_is_one_line(tmp_path, monkeypatch):
    answer = tmp_path / "a.md"
    answer.write_text("text\n")
    monkeypatch.setenv("GROUNDJUDGE_MAX_ANSWER_BYTES", "1MB")
    with pytest.raises(UserError, match=r"^GROUNDJUDGE_MAX_ANSWER_BYTES='1MB' is not a positive number of bytes$"):
        read_answer(answer)


# 2. symlink loops in a corpus -------------------------------------------------------------------------


def test_symlink_loops_are_skipped_and_listed(tmp_path):
    root = tmp_path / "looped"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("kept\n")
    (root / "loop").symlink_to("loop")
    (root / "sub" / "ping").symlink_to("pong")
    (root / "sub" / "pong").symlink_to("ping")
    result = runner.invoke(app, ["corpus", "snapshot", str(root), "--name", "looped"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "snapshot looped: 1 files (0 binary or unread), 3 skipped"
    from groundjudge.grounding.snapshot import load_snapshot

    manifest = load_snapshot("looped").manifest
    assert [f.path for f in manifest.files] == ["a.txt"]
    assert {s.path: s.reason for s in manifest.skipped} == {
        "loop": "symlink loop",
        "sub/ping": "symlink loop",
        "sub/pong": "symlink loop",
    }


# 3. snapshot integrity on load ------------------------------------------------------------------------


def _two_file_corpus(root: Path, tag: str) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text(f"def a():\n    return '{tag}'\n")
    (root / "src" / "b.py").write_text(f"def b():\n    '''{tag}'''\n    return 2\n")
    return root


def test_a_manifest_with_swapped_digests_is_refused_on_load(tmp_path):
    import json

    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import _manifest_path, load_snapshot, snapshot_directory

    src = _two_file_corpus(tmp_path / "src", "swapped digests")
    snap = snapshot_directory(src, "swapped")
    load_index(snap).close()  # an index the damaged manifest would otherwise reuse
    path = _manifest_path("swapped")
    raw = json.loads(path.read_text())
    first, second = raw["files"]
    first["sha256"], second["sha256"] = second["sha256"], first["sha256"]
    path.write_text(json.dumps(raw))
    for verify in (True, False):  # every stored object still matches its own digest: only the tree hash tells
        with pytest.raises(UserError) as err:
            load_snapshot("swapped", verify=verify)
        assert str(err.value) == (
            f"{path}: manifest entries do not hash to its tree hash {snap.tree_hash[:12]} (edited or damaged): "
            f"run `groundjudge corpus snapshot {src} --name swapped --replace` again"
        )
    result = runner.invoke(app, ["corpus", "index", "swapped"])
    assert result.exit_code == 2 and result.output.strip() == f"error: {err.value}"
    assert runner.invoke(app, ["corpus", "snapshot", str(src), "--name", "swapped", "--replace"]).exit_code == 0
    assert load_snapshot("swapped").tree_hash == snap.tree_hash


def test_a_damaged_object_is_named_with_the_fix_and_the_fix_works(tmp_path):
    from groundjudge.grounding.snapshot import _object_path, load_snapshot, snapshot_directory

    src = _two_file_corpus(tmp_path / "src", "damaged object")
    snap = snapshot_directory(src, "damaged")
    entry = snap.manifest.files[1]
    obj = _object_path(entry.sha256)
    obj.write_bytes(b"bit rot\n")
    fix = f"run `groundjudge corpus snapshot {src} --name damaged --replace` again to rewrite it"
    with pytest.raises(UserError) as err:
        load_snapshot("damaged")
    assert str(err.value) == f"object {obj} (src/b.py in snapshot damaged) is damaged (sha256 mismatch): {fix}"
    obj.unlink()
    with pytest.raises(UserError) as err:
        load_snapshot("damaged")
    assert str(err.value) == f"object {obj} (src/b.py in snapshot damaged) is missing: {fix}"
    assert runner.invoke(app, ["corpus", "snapshot", str(src), "--name", "damaged", "--replace"]).exit_code == 0
    assert load_snapshot("damaged").read_bytes("src/b.py", verify=True) == (src / "src" / "b.py").read_bytes()


# 6. a snapshot name is not silently repointed ---------------------------------------------------------


def test_a_name_is_repointed_to_another_tree_only_with_replace(tmp_path):
    from groundjudge.grounding.snapshot import load_snapshot

    first = _two_file_corpus(tmp_path / "first", "one tree")
    second = _two_file_corpus(tmp_path / "second", "another tree")
    ok = runner.invoke(app, ["corpus", "snapshot", str(first), "--name", "bank"])
    assert ok.exit_code == 0, ok.output
    tree = ok.output.splitlines()[-1]
    again = runner.invoke(app, ["corpus", "snapshot", str(first), "--name", "bank"])  # the same tree: no change, no error
    assert again.exit_code == 0 and again.output == ok.output
    refused = runner.invoke(app, ["corpus", "snapshot", str(second), "--name", "bank"])
    assert refused.exit_code == 2
    lines = refused.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: {second}: snapshot 'bank' already holds another tree ({tree[:12]}, from {first}), "
    )
    assert lines[0].endswith("give --replace to repoint the name, or choose another --name")
    assert load_snapshot("bank").tree_hash == tree
    replaced = runner.invoke(app, ["corpus", "snapshot", str(second), "--name", "bank", "--replace"])
    assert replaced.exit_code == 0, replaced.output
    assert load_snapshot("bank").tree_hash == replaced.output.splitlines()[-1] != tree


# 4. killed index builds -------------------------------------------------------------------------------

BUILD_SCRIPT = """
import os, sys
from groundjudge.grounding.index.build import build_index
from groundjudge.grounding.snapshot import snapshot_directory

def hang(path, language, text):
    # a parse that never ends and never reads its pipe, as the COBOL grammar's loop in C code does
    open(os.path.join(sys.argv[2], str(os.getpid())), "w").close()
    while True:
        pass

build_index(snapshot_directory(sys.argv[1]), workers=2, time_limit=lambda size: 600.0, parse=hang)
"""


def _gone(pid: int) -> bool:
    """No such process, or a zombie (dead, waiting to be reaped by whoever adopted it)."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return stat_line.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _wait_for(condition, seconds: float) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _start_hanging_build(tmp_path: Path):
    """A real `build_index` in a child process, its two workers busy forever; (process, worker pids, store)."""
    import subprocess
    import sys

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("a", "b", "c"):
        (corpus / f"{name}.py").write_text(f"def {name}():\n    return 1\n")
    pids, home = tmp_path / "pids", tmp_path / "home"
    pids.mkdir()
    script = tmp_path / "build.py"
    script.write_text(BUILD_SCRIPT)
    env = {**os.environ, "GROUNDJUDGE_HOME": str(home), "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    proc = subprocess.Popen(
        [sys.executable, str(script), str(corpus), str(pids)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    if not _wait_for(lambda: len(list(pids.iterdir())) == 2 or proc.poll() is not None, 60):
        proc.kill()
    workers = [int(p.name) for p in pids.iterdir()]
    if len(workers) != 2:
        proc.kill()
        pytest.fail(f"the build did not start its workers: {proc.communicate()[1].decode()[-2000:]}")
    return proc, workers, home


def _kill_leftovers(proc, workers: list[int]) -> None:
    import signal

    proc.kill()
    proc.wait()
    for pid in workers:  # a regression must not leave processes spinning after the test
        if not _gone(pid):
            os.kill(pid, signal.SIGKILL)


def _temps(home: Path) -> list[str]:
    return sorted(p.name for p in (home / "indexes").iterdir() if p.name.endswith(".tmp"))


needs_linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")


@needs_linux
def test_sigkill_of_a_build_kills_its_workers_and_the_next_build_removes_its_temp_file(tmp_path, monkeypatch):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    proc, workers, home = _start_hanging_build(tmp_path)
    try:
        assert len(_temps(home)) == 1
        proc.kill()
        proc.wait(timeout=30)
        assert _wait_for(lambda: all(_gone(pid) for pid in workers), 10), "parse workers outlived their parent"
        assert len(_temps(home)) == 1  # nothing could clean up after SIGKILL ...
        monkeypatch.setenv("GROUNDJUDGE_HOME", str(home))
        (tmp_path / "other").mkdir()
        (tmp_path / "other" / "x.py").write_text("def x():\n    return 2\n")
        load_index(snapshot_directory(tmp_path / "other")).close()
        assert _temps(home) == []  # ... so the next build does
    finally:
        _kill_leftovers(proc, workers)


@needs_linux
def test_sigterm_of_a_build_stops_its_workers_and_deletes_its_temp_file(tmp_path):
    import signal

    proc, workers, home = _start_hanging_build(tmp_path)
    try:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM
        assert _wait_for(lambda: all(_gone(pid) for pid in workers), 10), "parse workers outlived their parent"
        assert _temps(home) == []
        assert [p.name for p in (home / "indexes").iterdir()] == []  # and no index: the build did not finish
        assert b"Traceback" not in proc.stderr.read()
    finally:
        _kill_leftovers(proc, workers)


def test_a_live_builds_temp_file_is_kept_and_an_old_one_removed(tmp_path):
    import time

    from groundjudge.grounding.index.build import _HOST, STALE_TEMP_SECONDS, remove_stale_temporaries

    live = tmp_path / f".{'a' * 64}.sqlite.{_HOST}-{os.getppid()}.tmp"  # pytest's parent: running
    other_host = tmp_path / f".{'b' * 64}.sqlite.elsewhere-{os.getpid()}.tmp"
    old = tmp_path / f".{'c' * 64}.sqlite.elsewhere-1.tmp"
    unrelated = tmp_path / ".notes.tmp"
    for p in (live, other_host, old, unrelated):
        p.write_bytes(b"")
    long_ago = time.time() - STALE_TEMP_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    assert remove_stale_temporaries(tmp_path) == [old]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in (live, other_host, unrelated))


# 5. oversized corpus files ----------------------------------------------------------------------------


def test_a_corpus_file_over_the_limit_is_listed_as_skipped_not_read(tmp_path, monkeypatch):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.index.build import index_path
    from groundjudge.grounding.snapshot import snapshot_directory

    root = tmp_path / "corpus"
    root.mkdir()
    (root / "small.py").write_text("def small():\n    return 1\n")
    (root / "huge.py").write_text("".join(f"def huge_{i}():\n    return 2\n" for i in range(10_000)))  # ~290 kB
    size = (root / "huge.py").stat().st_size
    monkeypatch.setenv("GROUNDJUDGE_MAX_FILE_BYTES", "100000")
    snap = snapshot_directory(root)
    result = runner.invoke(app, ["corpus", "index", str(root)])
    assert result.exit_code == 0, result.output
    assert "2 files, 1 definitions, 0 references, 0 timeouts, 0 lexical only, 1 too large (skipped), " in result.output
    with load_index(snap) as idx:
        assert idx.cached
        info = idx.file_info("huge.py")
        assert (info.status, info.lines) == ("skipped", 0)
        assert info.note == f"too large to index: {size} bytes, over the limit of 100000 (GROUNDJUDGE_MAX_FILE_BYTES)"
        assert idx.definitions(path="huge.py") == [] and idx.search("huge_") == []
        assert [s.name for s in idx.definitions(path="small.py")] == ["small"]
    # a limit that changes nothing reuses the index; one that lets the file in rebuilds it, reading the file
    monkeypatch.setenv("GROUNDJUDGE_MAX_FILE_BYTES", str(size - 1))
    with load_index(snap) as idx:
        assert idx.cached
    monkeypatch.setenv("GROUNDJUDGE_MAX_FILE_BYTES", str(size))
    with load_index(snap) as idx:
        assert not idx.cached and idx.file_info("huge.py").status == "ok"
        assert len(idx.definitions(path="huge.py")) == 10_000
    assert index_path(snap.tree_hash).exists()
    monkeypatch.setenv("GROUNDJUDGE_MAX_FILE_BYTES", "ten")
    result = runner.invoke(app, ["corpus", "index", str(root)])
    assert result.exit_code == 2
    assert result.output.strip() == "error: GROUNDJUDGE_MAX_FILE_BYTES='ten' is not a positive number of bytes"
