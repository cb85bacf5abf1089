"""One structured-output call to a judge's provider, through instructor, with its failure classified.

The SDK clients get ``max_retries=0`` and instructor gets ``max_retries=0``: retries belong to
``judging.retry`` alone, so attempt counts are exact and a reply that fails validation is recorded
as an error instead of being re-asked with a changed prompt (a re-ask would cost money silently and
make the cached prompt differ from the one recorded in the score file).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from judging.config import JudgeConfig

# instructor logs every failed attempt at ERROR level; the runner reports failures itself.
logging.getLogger("instructor").setLevel(logging.CRITICAL)


class RetryableError(Exception):
    """A transient failure (429, 5xx, timeout, connection): worth another attempt."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class JudgeError(Exception):
    """A failure another attempt with the same prompt will not fix; the message is recorded, with the
    tokens the failed reply used when the provider sent one (a refusal or a bad reply is still billed)."""

    def __init__(self, message: str, input_tokens: int = 0, output_tokens: int = 0):
        super().__init__(message)
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens


@dataclass
class CallResult:
    data: dict[str, Any]  # the validated structured reply, as JSON-able data
    input_tokens: int
    output_tokens: int


def _retry_after(response: Any) -> float | None:
    value = getattr(response, "headers", {}).get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date; fall back to exponential backoff


def usage_tokens(usage: Any) -> tuple[int, int]:
    """(input, output) tokens from an OpenAI (prompt/completion) or Anthropic (input/output) usage object."""
    if usage is None:
        return 0, 0
    tokens_in = getattr(usage, "input_tokens", None) or getattr(usage, "prompt_tokens", None) or 0
    tokens_out = getattr(usage, "output_tokens", None) or getattr(usage, "completion_tokens", None) or 0
    return int(tokens_in), int(tokens_out)


def _billed(exc: BaseException) -> tuple[int, int]:
    """Tokens of the reply behind an instructor failure, if the provider answered at all."""
    for e in _chain(exc):
        completion = getattr(e, "last_completion", None)
        if completion is not None and getattr(completion, "usage", None) is not None:
            return usage_tokens(completion.usage)
        if getattr(e, "total_usage", None) is not None:
            return usage_tokens(e.total_usage)
    return 0, 0


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    while exc is not None and exc not in out:
        out.append(exc)
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return out


def validation_message(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "<root>"
    if first.get("type") in ("less_than_equal", "greater_than_equal", "less_than", "greater_than"):
        return f"out-of-range score: {where}: {first.get('msg')} (got {first.get('input')!r})"
    if first.get("type") == "json_invalid":
        return f"malformed output: {first.get('msg')}"
    return f"schema violation: {where}: {first.get('msg')}"


def classify(exc: BaseException) -> Exception:
    """Map an SDK or instructor exception to RetryableError or JudgeError."""
    import anthropic
    import openai
    from instructor.core.exceptions import IncompleteOutputException, InstructorRetryException

    chain = _chain(exc)
    for e in chain:
        if isinstance(e, (openai.APITimeoutError, anthropic.APITimeoutError)):
            return RetryableError("timeout")
        if isinstance(e, (openai.APIConnectionError, anthropic.APIConnectionError)):
            return RetryableError("connection error")
        if isinstance(e, (openai.APIStatusError, anthropic.APIStatusError)):
            status = e.status_code
            if status == 429 or status >= 500:
                return RetryableError(f"HTTP {status}", _retry_after(e.response))
            return JudgeError(f"HTTP {status}: {e.message}"[:300])
        if isinstance(e, IncompleteOutputException):
            return JudgeError("truncated output: the reply hit the max-tokens limit")
    for e in chain:
        if isinstance(e, AssertionError) and "Unable to generate a response" in str(e):
            return JudgeError(f"refusal: {str(e).split('due to', 1)[-1].strip()}"[:300])
        if isinstance(e, InstructorRetryException):
            last = e.last_completion
            if getattr(last, "stop_reason", None) == "refusal":
                return JudgeError("refusal: the model declined to answer")
    for e in chain:
        if isinstance(e, ValidationError):
            return JudgeError(validation_message(e))
        if isinstance(e, json.JSONDecodeError):
            return JudgeError(f"malformed output: {e.msg}")
    return JudgeError(f"{type(exc).__name__}: {exc}"[:300])


@lru_cache(maxsize=32)
def _tool_model(schema: type[BaseModel]) -> type[BaseModel]:
    """The schema wrapped for instructor once, not on every call: handed a plain model, instructor builds
    a new wrapper class per call, which also defeats its cache of the generated tool schema (~1-2 ms)."""
    import instructor

    return instructor.openai_schema(schema)


class ProviderClient:
    """An instructor-patched async SDK client for one judge, reused across its calls."""

    def __init__(self, judge: JudgeConfig, api_key: str | None):
        import instructor

        self.judge = judge
        key = api_key or "not-needed"  # OpenAI-compatible local servers ignore the key
        if judge.provider == "anthropic":
            import anthropic

            sdk = anthropic.AsyncAnthropic(api_key=key, base_url=judge.base_url, max_retries=0, timeout=judge.timeout_s)
            self._client = instructor.from_anthropic(sdk, mode=instructor.Mode.ANTHROPIC_TOOLS)
        else:
            import openai

            sdk = openai.AsyncOpenAI(api_key=key, base_url=judge.base_url, max_retries=0, timeout=judge.timeout_s)
            self._client = instructor.from_openai(sdk, mode=instructor.Mode.TOOLS)
        self._sdk = sdk

    async def complete(self, system: str, user: str, schema: type[BaseModel]) -> CallResult:
        """One attempt. Raises RetryableError or JudgeError."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        kwargs = dict(model=self.judge.model, messages=messages, response_model=_tool_model(schema), max_retries=0,
                      **self.judge.sampling_params())
        try:
            if self.judge.provider == "anthropic":
                parsed, raw = await self._client.messages.create_with_completion(**kwargs)
            else:
                parsed, raw = await self._client.chat.completions.create_with_completion(**kwargs)
        except Exception as exc:  # every SDK/instructor failure is classified, none escapes unrecorded
            error = classify(exc)
            if isinstance(error, JudgeError):
                error.input_tokens, error.output_tokens = _billed(exc)
            raise error from exc
        tokens_in, tokens_out = usage_tokens(getattr(raw, "usage", None))
        return CallResult(data=parsed.model_dump(mode="json"), input_tokens=tokens_in, output_tokens=tokens_out)

    async def aclose(self) -> None:
        await self._sdk.close()
