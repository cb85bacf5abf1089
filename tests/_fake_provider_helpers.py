"""Shared set-up for the judging tests: the loopback provider, fast retry policies, judges, and a
small scoring project (a one-program corpus, a question set, a run directory, a config)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from groundjudge.judging.config import KEY_ENV, JudgeConfig, Price, RetryPolicy
from groundjudge.judging.fakeprovider import FakeProvider
from groundjudge.judging.judge import Budget, Endpoint, Judge
from groundjudge.judging.limits import RateLimiter

# Small waits so retry tests run in milliseconds; no jitter so waits are exact.
FAST_RETRY = RetryPolicy(
    max_attempts=3, max_total_s=10.0, initial_wait_s=0.01, max_wait_s=0.05, jitter_s=0.0, max_retry_after_s=5.0
)

# Reference-free rubric maxima; the fake provider answers 3/4 of each maximum, rounded down.
DIMENSIONS = {"accuracy": 30, "completeness": 25, "traceability": 25, "usefulness": 20}
DEFAULT_SCORES = {
    "accuracy": 22.0,
    "completeness": 18.0,
    "traceability": 18.0,
    "usefulness": 15.0,
}  # 30*3//4=22, 25*3//4=18, 20*3//4=15
DEFAULT_TOTAL = 73.0  # 22 + 18 + 18 + 15


@pytest.fixture(scope="module")
def fake_server():
    with FakeProvider() as fp:
        yield fp


@pytest.fixture
def fake(fake_server):
    fake_server.clear()
    fake_server.latency = 0.0
    fake_server.responder = None
    yield fake_server
    fake_server.clear()


@pytest.fixture
def api_keys(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def judge_config(
    fp: FakeProvider,
    provider: str = "openai",
    name: str | None = None,
    model: str = "fake-model",
    timeout_s: float = 5.0,
    seed: int | None = 7,
) -> JudgeConfig:
    base = fp.anthropic_base_url if provider == "anthropic" else fp.openai_base_url
    return JudgeConfig(
        name=name or f"judge-{provider}",
        provider=provider,
        model=model,
        base_url=base,
        api_key_env=KEY_ENV[provider],
        temperature=0.0,
        max_tokens=512,
        seed=seed,
        timeout_s=timeout_s,
    )


def make_judge(
    config: JudgeConfig,
    cache=None,
    budget: Budget | None = None,
    offline: bool = False,
    policy: RetryPolicy = FAST_RETRY,
    price: Price | None = None,
    concurrency: int = 4,
) -> Judge:
    return Judge(
        config=config,
        price=price,
        endpoint=Endpoint(asyncio.Semaphore(concurrency), RateLimiter()),
        policy=policy,
        cache=cache,
        budget=budget or Budget(),
        offline=offline,
        rng=random.Random(0),
    )


def run_judge(judge: Judge, system: str = "You judge.", user: str = "Question q01. Answer text.", schema=None):
    from groundjudge.judging.prompts import judgement_schema
    from groundjudge.rubrics import load_rubric

    rubric = load_rubric("reference-free")
    schema = schema or judgement_schema(rubric)
    dims = [d.name for d in rubric.dimensions]

    async def go():
        try:
            return await judge.judge(system, user, "prompt-sha", schema, dims)
        finally:
            await judge.aclose()

    return asyncio.run(go())


PROGRAM = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. BKX01C.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-COUNT               PIC 9(4) VALUE 0.
       PROCEDURE DIVISION.
       0000-MAIN.
           PERFORM 1000-COUNT-RECORDS
           STOP RUN.
       1000-COUNT-RECORDS.
           ADD 1 TO WS-COUNT.
"""


@pytest.fixture
def indexed(tmp_path):
    """The one-program corpus, snapshotted and indexed: (snapshot, index)."""
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "corpus" / "cbl").mkdir(parents=True)
    (tmp_path / "corpus" / "cbl" / "BKX01C.cbl").write_text(PROGRAM)
    snap = snapshot_directory(tmp_path / "corpus")
    return snap, load_index(snap)


QUESTIONS = [
    {"id": "q01", "text": "What does BKX01C do?", "category": "architecture", "difficulty": "easy"},
    {"id": "q02", "text": "Where is WS-COUNT defined?", "category": "data-flow", "difficulty": "easy"},
]

ANSWERS = {
    ("cell-a", "q01"): "BKX01C is defined in `cbl/BKX01C.cbl`. Its main paragraph `0000-MAIN` performs `1000-COUNT-RECORDS`.\n",
    ("cell-a", "q02"): "`WS-COUNT` is declared with `PIC 9(4)` in `cbl/BKX01C.cbl`.\n",
    ("cell-b", "q01"): "The program `BKX01C` calls `9999-MISSING-PARA` to count records.\n",
}

# Prices for the fake models: $1 and $2 per million input tokens, $10 and $20 per million output tokens.
CONFIG = """\
[defaults]
concurrency = 4
[retry]
max_attempts = 2
max_total_s = 5.0
initial_wait_s = 0.01
max_wait_s = 0.02
jitter_s = 0.0
[prices.fake-claude]
input_per_mtok = 1.0
output_per_mtok = 10.0
[prices.fake-gpt]
input_per_mtok = 2.0
output_per_mtok = 20.0
"""


def write_project(root: Path) -> Path:
    """corpus/cbl/BKX01C.cbl, questions.jsonl, run/<cell>/answers/<qid>.md and groundjudge.toml under root."""
    (root / "corpus" / "cbl").mkdir(parents=True)
    (root / "corpus" / "cbl" / "BKX01C.cbl").write_text(PROGRAM)
    (root / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    for (cell, qid), text in ANSWERS.items():
        (root / "run" / cell / "answers").mkdir(parents=True, exist_ok=True)
        (root / "run" / cell / "answers" / f"{qid}.md").write_text(text)
    (root / "groundjudge.toml").write_text(CONFIG)
    return root


def score_args(project: Path, judges: list[str], *extra: str) -> list[str]:
    """`groundjudge score` on the project write_project laid out, with these --judge specs."""
    return [
        "score",
        str(project / "run"),
        "--corpus",
        str(project / "corpus"),
        "--questions",
        str(project / "questions.jsonl"),
        "--config",
        str(project / "groundjudge.toml"),
        "--cache",
        str(project / "cache.sqlite"),
        "--no-progress",
        *(arg for spec in judges for arg in ("--judge", spec)),
        *extra,
    ]
