"""Judging configuration: judges, sampling parameters, retry policy and prices.

The bundled ``default_config.toml`` is always loaded first; ``./groundjudge.toml`` (or ``--config``)
is laid over it: keys of ``[defaults]`` and ``[retry]`` override one by one, ``[prices.*]`` add or
replace models, and a ``[[judges]]`` list replaces the default pair. ``--judge`` specs replace the
configured judges.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from groundjudge.errors import UserError, first_problem
from groundjudge.hashing import sha256_json
from groundjudge.judging.capabilities import capabilities, temperature_problem
from groundjudge.storage import read_input_text

DEFAULT_CONFIG = Path(__file__).resolve().parent / "default_config.toml"
LOCAL_CONFIG = "groundjudge.toml"

ProviderName = Literal["anthropic", "openai", "openai-compatible"]
PROVIDERS: tuple[str, ...] = ("anthropic", "openai", "openai-compatible")

# Which environment variable holds each provider's key. An OpenAI-compatible server (vLLM,
# llama.cpp, Ollama) usually needs none, so a missing key is not an error there.
KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY", "openai-compatible": "OPENAI_API_KEY"}
# The SDKs read these when given no base URL. Resolved here instead, so the endpoint a judge really
# talks to is in the manifest, the judgement's params_sha256 and the response-cache key: a reply
# cached from a proxy or another server is never replayed as if it came from the provider's own API.
BASE_URL_ENV = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Defaults(_Strict):
    temperature: float = Field(0.0, ge=0)
    max_tokens: int = Field(1024, gt=0)
    seed: int | None = None
    timeout_s: float = Field(60.0, gt=0)
    concurrency: int = Field(8, gt=0)
    expected_output_tokens: int = Field(300, ge=0)


class RetryPolicy(_Strict):
    max_attempts: int = Field(5, ge=1)
    max_total_s: float = Field(300.0, gt=0)
    initial_wait_s: float = Field(1.0, ge=0)
    max_wait_s: float = Field(30.0, ge=0)
    jitter_s: float = Field(1.0, ge=0)
    max_retry_after_s: float = Field(60.0, ge=0)


class Price(_Strict):
    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok) / 1_000_000


class JudgeEntry(_Strict):
    """A judge as written in the config file; unset parameters come from ``[defaults]``."""

    name: str = Field(min_length=1)
    provider: ProviderName
    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key_env: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    seed: int | None = None
    timeout_s: float | None = None


class JudgeConfig(_Strict):
    """A fully resolved judge: everything that shapes its calls."""

    name: str
    provider: ProviderName
    model: str
    base_url: str | None = None
    api_key_env: str
    temperature: float
    max_tokens: int
    seed: int | None
    timeout_s: float
    simulated: bool = False  # answered by judging/simulated.py on the loopback provider (keyless demo), not a model

    @property
    def endpoint(self) -> str:
        """Concurrency and rate limits are shared by judges that talk to the same endpoint."""
        return f"{self.provider}@{self.base_url or 'default'}"

    def sampling_params(self) -> dict[str, Any]:
        """The parameters actually sent, in the form the model's family takes (``judging/capabilities.py``):
        a reasoning model gets ``max_completion_tokens`` and no temperature, Anthropic no seed."""
        caps = capabilities(self.provider, self.model)
        params: dict[str, Any] = {caps.token_param.value: self.max_tokens}
        if caps.temperature_range is not None:
            params["temperature"] = self.temperature
        if caps.seed and self.seed is not None:
            params["seed"] = self.seed
        return params

    @property
    def params_sha256(self) -> str:
        """What shaped the reply besides the prompt: the endpoint (as in the cache key), model and parameters."""
        endpoint = self.base_url.rstrip("/") if self.base_url else None
        return sha256_json(
            {"provider": self.provider, "base_url": endpoint, "model": self.model, "params": self.sampling_params()}
        )

    def api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) or None


class JudgingConfig(_Strict):
    defaults: Defaults = Defaults()
    retry: RetryPolicy = RetryPolicy()
    judges: list[JudgeEntry] = []
    prices: dict[str, Price] = {}
    source: list[str] = []  # files read, for the run manifest

    def resolve(self, entry: JudgeEntry, origin: str | None = None) -> JudgeConfig:
        """The judge with defaults filled in. A temperature its model would refuse is an error now, not
        after every call of the run failed: one set on the judge always, the default one only where the
        model takes a temperature at all (a reasoning model just gets none)."""
        d = self.defaults
        caps = capabilities(entry.provider, entry.model)
        explicit = entry.temperature is not None
        if explicit or caps.temperature_range is not None:
            problem = temperature_problem(caps, d.temperature if entry.temperature is None else entry.temperature)
            if problem:
                where = "its temperature" if explicit else "the default temperature in [defaults]"
                raise UserError(f"judge {entry.name!r} ({entry.model}): {where} would be refused: {problem}", origin)
        return JudgeConfig(
            name=entry.name,
            provider=entry.provider,
            model=entry.model,
            base_url=entry.base_url or os.environ.get(BASE_URL_ENV.get(entry.provider, ""), "").strip() or None,
            api_key_env=entry.api_key_env or KEY_ENV[entry.provider],
            temperature=d.temperature if entry.temperature is None else entry.temperature,
            max_tokens=entry.max_tokens or d.max_tokens,
            seed=d.seed if entry.seed is None else entry.seed,
            timeout_s=entry.timeout_s or d.timeout_s,
        )

    def price(self, model: str) -> Price | None:
        return self.prices.get(model)


def _read_toml(path: Path) -> dict[str, Any]:
    text = read_input_text(path, "config file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"not valid TOML ({exc})", path) from None


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if key in ("defaults", "retry", "prices") and isinstance(value, dict):
            out[key] = {**base.get(key, {}), **value}
        else:
            out[key] = value
    return out


def load_config(path: str | Path | None = None, cwd: Path | None = None) -> JudgingConfig:
    """Bundled defaults, overlaid with ``path`` or, when not given, ``./groundjudge.toml`` if present."""
    data = _read_toml(DEFAULT_CONFIG)
    sources = [str(DEFAULT_CONFIG)]
    user = Path(path) if path is not None else (cwd or Path.cwd()) / LOCAL_CONFIG
    if path is not None or user.is_file():
        data = _merge(data, _read_toml(user))
        sources.append(str(user))
    try:
        config = JudgingConfig.model_validate({**data, "source": sources})
    except ValidationError as exc:
        raise UserError(f"invalid config: {first_problem(exc)}", sources[-1]) from None
    names = [j.name for j in config.judges]
    if len(set(names)) != len(names):
        raise UserError("duplicate judge name in [[judges]]", sources[-1])
    return config


def parse_judge_spec(spec: str) -> JudgeEntry:
    """``NAME=PROVIDER:MODEL[@BASE_URL]``. The model may contain ':' (``llama3:8b``), not '@'."""
    name, eq, rest = spec.partition("=")
    provider, colon, model_url = rest.partition(":")
    model, _, base_url = model_url.partition("@")
    problem = None
    if not eq or not name.strip():
        problem = "expected NAME=PROVIDER:MODEL[@BASE_URL]"
    elif not colon or not model.strip():
        problem = "expected NAME=PROVIDER:MODEL[@BASE_URL] (model missing)"
    elif provider not in PROVIDERS:
        problem = f"unknown provider {provider!r} (one of: {', '.join(PROVIDERS)})"
    elif provider == "openai-compatible" and not base_url:
        problem = "openai-compatible needs @BASE_URL, e.g. @http://127.0.0.1:8000/v1"
    elif "@" in base_url:
        problem = f"base URL {base_url!r} holds '@' (one @BASE_URL at most; the model may not contain '@')"
    elif base_url and not base_url.startswith(("http://", "https://")):
        problem = f"base URL {base_url!r} must start with http:// or https://"
    if problem:
        raise UserError(f"invalid --judge {spec!r}: {problem}")
    return JudgeEntry(name=name.strip(), provider=provider, model=model.strip(), base_url=base_url or None)


def select_judges(config: JudgingConfig, specs: list[str] | None) -> list[JudgeConfig]:
    entries = [parse_judge_spec(s) for s in specs] if specs else list(config.judges)
    if not entries:
        raise UserError("no judges: add [[judges]] to groundjudge.toml or pass --judge NAME=PROVIDER:MODEL")
    names = [e.name for e in entries]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise UserError(f"judge name used twice: {dupes[0]}")
    origin = "--judge" if specs else (config.source[-1] if config.source else None)
    return [config.resolve(e, origin) for e in entries]
