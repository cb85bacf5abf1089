"""Worker processes with a hard time limit per task: an overrunning worker is killed and replaced.

concurrent.futures cannot stop a running task, and the COBOL grammar can loop forever inside C code
where no Python-level timeout reaches; killing the process is the only reliable stop.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any


@dataclass(frozen=True)
class TimedOut:
    seconds: float


@dataclass(frozen=True)
class Failed:
    error: str


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_WATCHDOG_SECONDS = 1.0


def _die_with_parent(parent: int) -> None:
    """End this worker when its parent dies, however it dies (SIGKILL included). A busy worker never
    reads the pipe, so it would not notice, and the COBOL grammar can keep one busy forever."""
    if sys.platform.startswith("linux"):
        try:
            if ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent died before the request was made
                    os._exit(1)
                return
        except (OSError, AttributeError):  # no usable libc: fall back to watching
            pass

    def watch() -> None:
        # needs the GIL, which a parse inside C code may hold: the fallback where prctl does not exist
        while os.getppid() == parent:
            time.sleep(_WATCHDOG_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _serve(conn: Connection, fn: Callable[..., Any], parent: int) -> None:
    _die_with_parent(parent)
    # Ctrl-C reaches the whole process group; the parent stops its workers itself, and a worker
    # that took the interrupt would print a traceback under the CLI's one-line message.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a handler the parent installed (the index build's, which cleans up its temp file) is inherited
    # by the fork, and is not the worker's to run
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        try:
            msg = conn.recv()
        except EOFError:  # the parent is gone
            return
        if msg is None:
            return
        key, args = msg
        try:
            result: Any = fn(*args)
        except Exception as exc:  # reported to the caller, who falls back; the worker stays usable
            result = Failed(f"{type(exc).__name__}: {exc}")
        conn.send((key, result))


class _Worker:
    def __init__(self, ctx, fn: Callable[..., Any]):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, fn, os.getpid()), daemon=True)
        self.proc.start()
        child.close()
        self.task: tuple[Any, float, float] | None = None  # (key, deadline, limit)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join()
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.kill()
        else:
            self.conn.close()


def run_timed(
    fn: Callable[..., Any],
    tasks: Iterable[tuple[Any, tuple, float]],
    workers: int = 2,
    idle: Callable[[], bool] | None = None,
) -> TimedRun:
    """Yield (key, fn(*args)) per task of (key, args, time limit in seconds), in completion order.

    A task that overruns its limit yields TimedOut; one that raises yields Failed. The workers start
    (and take their first tasks) at once; close() (or reading every result) stops them. Workers are
    forked: fn and anything it loaded before the call are inherited, never pickled.

    idle: the caller's own work, in small steps. While reading results, whenever no worker has one
    ready, idle() is called to do one step; it returns False once it has nothing left. Doing the
    caller's work here, rather than before reading, keeps every worker fed with its next task.
    """
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    # Nothing allocated so far becomes garbage during the run: keep the collector off it, in this process
    # and in the forked workers (which inherit the freeze), sparing its traversals and the copy-on-write
    # page copies they cause. The run unfreezes when it ends.
    gc.freeze()
    pending = iter(tasks)
    pool = [_Worker(ctx, fn) for _ in range(max(1, workers))]

    def feed(w: _Worker) -> None:
        nxt = next(pending, None)
        if nxt is not None:
            key, args, limit = nxt
            w.task = (key, time.monotonic() + limit, limit)
            w.conn.send((key, args))

    for w in pool:
        feed(w)
    return TimedRun(pool, _results(ctx, fn, pool, feed, idle))


class TimedRun:
    """The results of run_timed, as an iterator that can be closed before it was ever read."""

    def __init__(self, pool: list[_Worker], results: Generator[tuple[Any, Any]]):
        self._pool, self._results = pool, results

    def __iter__(self) -> TimedRun:
        return self

    def __next__(self) -> tuple[Any, Any]:
        return next(self._results)

    def close(self) -> None:
        self._results.close()  # a started generator stops its workers in its finally
        for w in self._pool:  # one never started has not
            if w.proc.exitcode is None:
                w.kill()
        gc.unfreeze()


def _results(ctx, fn, pool: list[_Worker], feed, idle: Callable[[], bool] | None) -> Generator[tuple[Any, Any]]:
    try:
        while True:
            busy = [(w, w.task) for w in pool if w.task is not None]
            if not busy:
                return
            conns = [w.conn for w, _ in busy]
            ready = wait(conns, timeout=0)
            if not ready:
                if idle is not None and idle():
                    # look again before judging deadlines: a task may have finished while idle() ran
                    ready = wait(conns, timeout=0)
                else:  # nothing else to do: sleep until a result or the nearest deadline
                    ready = wait(conns, timeout=max(0.0, min(task[1] for _, task in busy) - time.monotonic()))
            for w, task in busy:
                if w.conn in ready:
                    try:
                        key, result = w.conn.recv()
                    except EOFError:  # the worker died (e.g. a crash inside the grammar)
                        key, result = task[0], Failed("parser process died")
                        w.kill()
                        pool[pool.index(w)] = w = _Worker(ctx, fn)
                    w.task = None
                    feed(w)  # before the caller sees the result, so the worker is never kept waiting
                    yield key, result
                elif time.monotonic() >= task[1]:
                    key, _, limit = task
                    w.kill()
                    fresh = _Worker(ctx, fn)
                    pool[pool.index(w)] = fresh
                    feed(fresh)
                    yield key, TimedOut(limit)
    finally:
        for w in pool:
            if w.task is not None:
                w.kill()
            else:
                w.stop()
        gc.unfreeze()
