"""Which request parameters each model family takes, so a judge's request is one its service accepts.

A parameter a model refuses fails every call of a run with the same HTTP 400; the table lets the
engine send what fits (``max_completion_tokens`` to OpenAI, no temperature to a reasoning model)
and refuse, before the first call, a judge configured with a value its model cannot take.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class TokenParam(str, Enum):
    MAX_TOKENS = "max_tokens"
    MAX_COMPLETION_TOKENS = "max_completion_tokens"


@dataclass(frozen=True)
class Capabilities:
    family: str
    token_param: TokenParam
    temperature_range: tuple[float, float] | None  # None: only the model's default, so none is sent
    seed: bool
    parallel_tool_calls: bool  # whether ``parallel_tool_calls: false`` may be sent


# First match wins; each row is a provider and a model-name pattern. Sources: OpenAI's reasoning-models
# guide (o-series and gpt-5 take max_completion_tokens and only the default temperature); OpenAI's
# chat reference (max_tokens is deprecated in favour of max_completion_tokens; temperature 0-2;
# seed); reports that o1/o3/o4-mini refuse parallel_tool_calls; Anthropic's Messages API as its SDK 2.x
# sends it (max_tokens required; no temperature, top_p or seed; parallel use is turned off in
# tool_choice instead).
# OpenAI-compatible servers (vLLM, llama.cpp, Ollama) take the classic max_tokens.
_TABLE: tuple[tuple[str, re.Pattern[str], Capabilities], ...] = (
    ("anthropic", re.compile(""), Capabilities("Anthropic", TokenParam.MAX_TOKENS, None, False, False)),
    (
        "openai",
        re.compile(r"^o\d"),
        Capabilities("OpenAI o-series (reasoning)", TokenParam.MAX_COMPLETION_TOKENS, None, False, False),
    ),
    (
        "openai",
        re.compile(r"^gpt-5"),
        Capabilities("OpenAI gpt-5 family (reasoning)", TokenParam.MAX_COMPLETION_TOKENS, None, False, True),
    ),
    ("openai", re.compile(""), Capabilities("OpenAI", TokenParam.MAX_COMPLETION_TOKENS, (0.0, 2.0), True, True)),
    (
        "openai-compatible",
        re.compile(""),
        Capabilities("OpenAI-compatible server", TokenParam.MAX_TOKENS, (0.0, 2.0), True, True),
    ),
)


def capabilities(provider: str, model: str) -> Capabilities:
    for name, pattern, caps in _TABLE:
        if name == provider and pattern.match(model):
            return caps
    raise ValueError(f"no capability row for provider {provider!r}")


def temperature_problem(caps: Capabilities, temperature: float) -> str | None:
    """Why a temperature set explicitly for this model would be refused, or None."""
    if caps.temperature_range is None:
        return f"{caps.family} models take only their default temperature: remove temperature from this judge"
    low, high = caps.temperature_range
    if not low <= temperature <= high:
        return f"{caps.family} takes a temperature from {low:g} to {high:g}, not {temperature:g}"
    return None
