"""The client of an LLM grounding helper (the claim extractor or the verifier), made from a judge spec the way
the judges' clients are: the config's provider, model, parameters, retries and price, an endpoint's concurrency
and rate limits, and the response cache and budget of the run. `score` (the runner) and `ground` both make
theirs here."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from groundjudge.errors import UserError
from groundjudge.judging.cache import ResponseCache
from groundjudge.judging.config import JudgeConfig, JudgingConfig, parse_judge_spec
from groundjudge.judging.judge import Budget, Endpoint, StructuredClient
from groundjudge.judging.llm_grounding import GroundingCaller


def grounding_caller(
    flag: str,
    spec: str,
    role: Literal["claims", "verify"],
    *,
    config: JudgingConfig,
    cache: ResponseCache,
    budget: Budget,
    endpoint: Callable[[JudgeConfig], Endpoint],
    offline: bool,
    seed: int,
    warn: Callable[[str], None],
) -> GroundingCaller:
    """The caller for ``flag``'s spec (NAME=PROVIDER:MODEL[@BASE_URL]). A missing API key is a UserError
    before any work (offline, only the cache answers, and it needs none); a model with no price is warned
    about, since its cost can be neither recorded nor counted toward a budget."""
    judge = config.resolve(parse_judge_spec(spec))
    if not offline and judge.provider != "openai-compatible" and not judge.api_key():
        raise UserError(f"{flag} {judge.name}: set {judge.api_key_env} (or run with --offline to replay from the cache)")
    price = config.price(judge.model)
    if price is None:
        warn(
            f"warning: {flag} {judge.name}: no price for model {judge.model!r} in the config; its cost is "
            "not recorded and does not count toward a budget"
        )
    client = StructuredClient(
        config=judge,
        policy=config.retry,
        price=price,
        endpoint=endpoint(judge),
        cache=cache,
        budget=budget,
        offline=offline,
        rng=random.Random(seed),
    )
    return GroundingCaller(client, role)
