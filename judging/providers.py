"""One structured-output call to a judge's provider, through instructor, with its failure classified.

The SDK clients get ``max_retries=0`` and instructor gets ``max_retries=0``: retries belong to
``judging.retry`` alone, so attempt counts are exact and a reply that fails validation is recorded
as an error instead of being re-asked with a changed prompt (a re-ask would cost money silently and
make the cached prompt differ from the one recorded in the score file).

The request follows the services' contract: one tool with a fixed, valid name, a ``tool_choice``
naming that tool, parallel calls turned off where the model takes the switch, and parameters in the
form the model's family takes (``judging/capabilities.py``). A reply with no call, two calls or a
call to another tool is an error, never a score.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from groundjudge.judging.capabilities import capabilities
from groundjudge.judging.config import JudgeConfig
from groundjudge.judging.models import FailureKind

# Tool names must match ^[a-zA-Z0-9_-]{1,64}$ on both services: fixed names, never built from a rubric.
JUDGEMENT_TOOL = "submit_judgement"
MAX_ERROR_CHARS = 240


class RetryableError(Exception):
    """A transient failure (429, 5xx, timeout, connection): worth another attempt."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class JudgeError(Exception):
    """A failure another attempt with the same prompt will not fix; the message is recorded with its
    kind, and with the tokens the failed reply used when the provider sent one (a refusal or a bad
    reply is still billed). ``status`` is the HTTP status of a refused request."""

    def __init__(
        self,
        message: str,
        kind: FailureKind = FailureKind.OTHER,
        input_tokens: int = 0,
        output_tokens: int = 0,
        status: int | None = None,
    ):
        super().__init__(one_line(message))
        self.kind = kind
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens
        self.status = status


def one_line(message: str) -> str:
    """Errors are recorded and printed as one line: SDK and instructor messages span several."""
    flat = " ".join(message.split())
    return flat if len(flat) <= MAX_ERROR_CHARS else flat[: MAX_ERROR_CHARS - 3] + "..."


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
        total = getattr(e, "total_usage", None)
        if total is not None:
            return usage_tokens(total)
    return 0, 0


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    while exc is not None and exc not in out:
        out.append(exc)
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return out


def validation_error(err: ValidationError) -> JudgeError:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "<root>"
    if first.get("type") in ("less_than_equal", "greater_than_equal", "less_than", "greater_than"):
        return JudgeError(
            f"out-of-range score: {where}: {first.get('msg')} (got {first.get('input')!r})", FailureKind.OUT_OF_RANGE
        )
    if first.get("type") == "json_invalid":
        return JudgeError(f"malformed output: {first.get('msg')}", FailureKind.MALFORMED)
    return JudgeError(f"schema violation: {where}: {first.get('msg')}", FailureKind.SCHEMA_VIOLATION)


def _provider_message(e: Any) -> str:
    """The service's own error message from its error body, else the SDK's summary."""
    body = getattr(e, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"]
    return str(getattr(e, "message", e))


def classify(exc: BaseException) -> Exception:
    """Map an SDK or instructor exception to RetryableError or a classified JudgeError."""
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
            return JudgeError(f"HTTP {status}: {_provider_message(e)}", FailureKind.REFUSED_REQUEST, status=status)
        if isinstance(e, IncompleteOutputException):
            return JudgeError("truncated output: the reply hit the max-tokens limit", FailureKind.TRUNCATED)
    for e in chain:
        if isinstance(e, AssertionError) and "Unable to generate a response" in str(e):
            return JudgeError(f"refusal: {str(e).split('due to', 1)[-1].strip()}", FailureKind.REFUSAL)
        if isinstance(e, InstructorRetryException):
            last = e.last_completion
            if getattr(last, "stop_reason", None) == "refusal":
                return JudgeError("refusal: the model declined to answer", FailureKind.REFUSAL)
            if last is not None:
                shape = reply_shape_problem(last, None)
                if shape:
                    return JudgeError(shape, FailureKind.MALFORMED)
    for e in chain:
        if isinstance(e, ValidationError):
            return validation_error(e)
        if isinstance(e, json.JSONDecodeError):
            return JudgeError(f"malformed output: {e.msg}: character {e.pos}", FailureKind.MALFORMED)
    return JudgeError(f"{type(exc).__name__}: {exc}")


def _tool_calls(raw: Any) -> tuple[list[str], str | None] | None:
    """The names of the tool calls in a reply, and its stop reason; None for a reply of unknown shape."""
    choices = getattr(raw, "choices", None)
    if choices:  # OpenAI chat completion
        message = choices[0].message
        return [c.function.name for c in (message.tool_calls or [])], choices[0].finish_reason
    content = getattr(raw, "content", None)
    if isinstance(content, list):  # Anthropic message
        return [b.name for b in content if getattr(b, "type", None) == "tool_use"], getattr(raw, "stop_reason", None)
    return None


def reply_shape_problem(raw: Any, tool: str | None) -> str | None:
    """Why a reply is not exactly one call of ``tool`` (any tool when None), or None when it is."""
    found = _tool_calls(raw)
    if found is None:
        return None
    names, stop = found
    if not names:
        return f"malformed output: the reply has no tool call (stop reason {stop})"
    if len(names) > 1:
        return f"malformed output: the reply has {len(names)} tool calls, not one"
    if tool is not None and names[0] != tool:
        return f"malformed output: the reply calls tool {names[0]!r}, not {tool!r}"
    return None


@lru_cache(maxsize=32)
def tool_model(schema: type[BaseModel], tool: str) -> type[BaseModel]:
    """The schema as the tool that is sent: named ``tool`` (instructor names the tool after the model's
    title and Anthropic's tool_choice after its class name, so both are set), described by the schema's
    title and docstring. Built once per schema: handed a plain model, instructor builds a new wrapper
    class per call, which also defeats its cache of the generated tool schema."""
    import instructor

    described = " ".join(part for part in (schema.model_config.get("title"), schema.__doc__) if part)
    named = type(
        tool,
        (schema,),
        {
            "__doc__": described or None,
            "__module__": schema.__module__,
            "model_config": ConfigDict(**{**schema.model_config, "title": tool}),
        },
    )
    return instructor.openai_schema(named)


class ProviderClient:
    """An instructor-patched async SDK client for one judge, reused across its calls."""

    def __init__(self, judge: JudgeConfig, api_key: str | None):
        import instructor

        self.judge = judge
        key = api_key or "not-needed"  # OpenAI-compatible local servers ignore the key
        if judge.provider == "anthropic":
            import anthropic

            claude = anthropic.AsyncAnthropic(api_key=key, base_url=judge.base_url, max_retries=0, timeout=judge.timeout_s)
            self._client: Any = instructor.from_anthropic(claude, mode=instructor.Mode.ANTHROPIC_TOOLS)
            self._sdk: Any = claude
        else:
            import openai

            gpt = openai.AsyncOpenAI(api_key=key, base_url=judge.base_url, max_retries=0, timeout=judge.timeout_s)
            self._client = instructor.from_openai(gpt, mode=instructor.Mode.TOOLS)
            self._sdk = gpt

    def request_kwargs(self, system: str, user: str, schema: type[BaseModel], tool: str) -> dict[str, Any]:
        """What instructor is handed for one call (it adds the tool and the tool_choice naming it)."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        kwargs: dict[str, Any] = dict(
            model=self.judge.model,
            messages=messages,
            response_model=tool_model(schema, tool),
            max_retries=0,
            **self.judge.sampling_params(),
        )
        if self.judge.provider != "anthropic" and capabilities(self.judge.provider, self.judge.model).parallel_tool_calls:
            kwargs["parallel_tool_calls"] = False  # one judgement per reply; Anthropic's switch is in tool_choice
        return kwargs

    async def complete(
        self, system: str, user: str, schema: type[BaseModel], tool: str = JUDGEMENT_TOOL, deadline_s: float | None = None
    ) -> CallResult:
        """One attempt, ended after ``deadline_s`` seconds of wall-clock time (default: the judge's timeout)
        however the reply trickles in: the SDK's timeout bounds each read, not the whole reply.
        Raises RetryableError or JudgeError."""
        kwargs = self.request_kwargs(system, user, schema, tool)
        create = (
            self._client.messages.create_with_completion
            if self.judge.provider == "anthropic"
            else self._client.chat.completions.create_with_completion
        )
        try:
            async with asyncio.timeout(self.judge.timeout_s if deadline_s is None else deadline_s):
                parsed, raw = await create(**kwargs)
        except TimeoutError:
            raise RetryableError("timeout") from None
        except Exception as exc:  # every SDK/instructor failure is classified, none escapes unrecorded
            error = classify(exc)
            if isinstance(error, JudgeError):
                error.input_tokens, error.output_tokens = _billed(exc)
            raise error from exc
        tokens_in, tokens_out = usage_tokens(getattr(raw, "usage", None))
        problem = reply_shape_problem(raw, tool)
        if problem:
            raise JudgeError(problem, FailureKind.MALFORMED, tokens_in, tokens_out)
        return CallResult(data=parsed.model_dump(mode="json"), input_tokens=tokens_in, output_tokens=tokens_out)

    async def aclose(self) -> None:
        await self._sdk.close()
