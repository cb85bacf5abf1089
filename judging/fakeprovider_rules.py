"""The request rules the real services enforce, as the loopback provider applies them.

A stand-in that accepts what OpenAI or Anthropic refuse proves nothing about the real contract, so
every request the fake provider serves is checked here first, and a broken rule is answered with
HTTP 400 in that provider's own error shape, with the message the service sends (as users have
reported it in public issues, or as documented, where noted). Each rule names its source.

This table is deliberately independent of ``judging/capabilities.py`` (what the client chooses to
send): if both were derived from one table, a wrong rule would pass its own test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# OpenAI API reference, Chat > Create chat completion > tools[].function.name: "Must be a-z, A-Z, 0-9,
# or contain underscores and dashes, with a maximum length of 64."
OPENAI_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]+$")
OPENAI_TOOL_NAME_MAX = 64
# Anthropic API reference, Messages > tools[].name: "^[a-zA-Z0-9_-]{1,128}$" (older API versions
# answered with {1,64}; the engine's own name is far shorter than either).
ANTHROPIC_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
# OpenAI reasoning models guide: the o-series and the gpt-5 family take max_completion_tokens, and only
# the default temperature (1).
OPENAI_REASONING = re.compile(r"^(o\d|gpt-5)")
# Reported for o1, o3, o3-mini and o4-mini (langchain#29416, llama_index#20865, fast-agent#279):
# "Unsupported parameter: 'parallel_tool_calls' is not supported with this model."
OPENAI_NO_PARALLEL_TOOL_CALLS = re.compile(r"^o\d")

# OpenAI API reference, Create chat completion: the request body's parameters. Anything else is
# answered "Unrecognized request argument supplied: X".
OPENAI_FIELDS = frozenset(
    {
        "messages",
        "model",
        "audio",
        "frequency_penalty",
        "function_call",
        "functions",
        "logit_bias",
        "logprobs",
        "max_completion_tokens",
        "max_tokens",
        "metadata",
        "modalities",
        "n",
        "parallel_tool_calls",
        "prediction",
        "presence_penalty",
        "prompt_cache_key",
        "reasoning_effort",
        "response_format",
        "safety_identifier",
        "seed",
        "service_tier",
        "stop",
        "store",
        "stream",
        "stream_options",
        "temperature",
        "tool_choice",
        "tools",
        "top_logprobs",
        "top_p",
        "user",
        "verbosity",
        "web_search_options",
    }
)
# Anthropic API reference, Create a Message: the body's fields. Others are answered
# "<field>: Extra inputs are not permitted" (as for `seed`, which the Messages API does not take).
# `temperature` stays accepted (range-checked below) for clients of older SDKs, which still send it.
ANTHROPIC_FIELDS = frozenset(
    {
        "model",
        "messages",
        "max_tokens",
        "system",
        "temperature",
        "top_p",
        "top_k",
        "tools",
        "tool_choice",
        "stop_sequences",
        "stream",
        "metadata",
        "thinking",
        "service_tier",
        "container",
        "mcp_servers",
        "context_management",
        "cache_control",
        "diagnostics",
        "inference_geo",
        "output_config",
        "speed",
        "user_profile_id",
        "workspace_id",
    }
)


@dataclass(frozen=True)
class Refusal:
    """A request the service refuses: the HTTP status and the error body it answers with."""

    status: int
    body: dict[str, Any]


def _openai(message: str, param: str | None, code: str | None, status: int = 400, kind: str = "invalid_request_error") -> Refusal:
    # OpenAI error object: {"error": {"message", "type", "param", "code"}} (API reference, Errors).
    return Refusal(status, {"error": {"message": message, "type": kind, "param": param, "code": code}})


def _anthropic(message: str, status: int = 400, kind: str = "invalid_request_error") -> Refusal:
    # Anthropic error shape (API reference, Errors): {"type": "error", "error": {"type", "message"}}.
    return Refusal(status, {"type": "error", "error": {"type": kind, "message": message}, "request_id": "req_fake"})


def check_openai(request: dict[str, Any], headers: dict[str, str]) -> Refusal | None:
    """The first OpenAI chat-completions rule the request breaks, or None."""
    if not headers.get("authorization", "").startswith("Bearer "):
        # API reference, Authentication: every request carries "Authorization: Bearer KEY".
        return _openai("You didn't provide an API key.", None, None, status=401)
    for field in sorted(request):
        if field not in OPENAI_FIELDS:
            return _openai(f"Unrecognized request argument supplied: {field}", None, None)
    model = request.get("model")
    if not isinstance(model, str) or not model:
        return _openai("you must provide a model parameter", None, None)
    messages = request.get("messages")
    if not isinstance(messages, list) or not messages:
        return _openai(
            "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
            "messages",
            "empty_array",
        )
    tools = request.get("tools") or []
    names: list[str] = []
    for i, tool in enumerate(tools):
        name = (tool.get("function") or {}).get("name", "")
        if not OPENAI_TOOL_NAME.match(name):
            return _openai(
                f"Invalid 'tools[{i}].function.name': string does not match pattern. Expected a string that "
                f"matches the pattern '^[a-zA-Z0-9_-]+$'.",
                f"tools[{i}].function.name",
                "invalid_value",
            )
        if len(name) > OPENAI_TOOL_NAME_MAX:
            return _openai(
                f"Invalid 'tools[{i}].function.name': string too long. Expected a string with maximum length "
                f"{OPENAI_TOOL_NAME_MAX}, but got a string with length {len(name)} instead.",
                f"tools[{i}].function.name",
                "string_above_max_length",
            )
        names.append(name)
    choice = request.get("tool_choice")
    if choice is not None:
        if not tools:
            # Reported (writer-framework#1013): tool_choice without tools.
            return _openai(
                "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", "tool_choice", None
            )
        if isinstance(choice, dict):
            chosen = (choice.get("function") or {}).get("name")
            if chosen not in names:
                # API reference, tool_choice: a named function "forces the model to call that tool".
                return _openai(
                    f"Invalid value for 'tool_choice': function '{chosen}' is not among the tools provided.",
                    "tool_choice",
                    "invalid_value",
                )
    if "parallel_tool_calls" in request:
        if OPENAI_NO_PARALLEL_TOOL_CALLS.match(model):
            return _openai(
                "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.",
                "parallel_tool_calls",
                "unsupported_parameter",
            )
        if not tools:
            return _openai(
                "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
                "parallel_tool_calls",
                None,
            )
    temperature = request.get("temperature")
    if OPENAI_REASONING.match(model):
        if "max_tokens" in request:
            return _openai(
                "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
                "max_tokens",
                "unsupported_parameter",
            )
        if temperature is not None and temperature != 1:
            return _openai(
                f"Unsupported value: 'temperature' does not support {temperature:g} with this model. Only the "
                f"default (1) value is supported.",
                "temperature",
                "unsupported_value",
            )
    if temperature is not None and not 0 <= temperature <= 2:
        # API reference, temperature: "between 0 and 2".
        side, bound, code = (
            ("above maximum", "<= 2", "decimal_above_max_value")
            if temperature > 2
            else ("below minimum", ">= 0", "decimal_below_min_value")
        )
        return _openai(
            f"Invalid 'temperature': decimal {side} value. Expected a value {bound}, but got {temperature:g} instead.",
            "temperature",
            code,
        )
    return None


def check_anthropic(request: dict[str, Any], headers: dict[str, str]) -> Refusal | None:
    """The first Anthropic Messages rule the request breaks, or None."""
    if not headers.get("x-api-key") and not headers.get("authorization"):
        # API reference, Authentication: "x-api-key" on every request.
        return _anthropic("x-api-key header is required", status=401, kind="authentication_error")
    if not headers.get("anthropic-version"):
        # API reference, Versions: "anthropic-version" is required.
        return _anthropic("anthropic-version: header is required")
    for field in sorted(request):
        if field not in ANTHROPIC_FIELDS:
            return _anthropic(f"{field}: Extra inputs are not permitted")
    for field in ("model", "messages", "max_tokens"):
        if field not in request:
            # API reference, Create a Message: model, messages and max_tokens are required.
            return _anthropic(f"{field}: Field required")
    if not isinstance(request["max_tokens"], int) or request["max_tokens"] < 1:
        return _anthropic("max_tokens: Input should be greater than or equal to 1")
    messages = request["messages"]
    if not isinstance(messages, list) or not messages:
        return _anthropic("messages: at least one message is required")
    previous = None
    for i, message in enumerate(messages):
        role = message.get("role")
        if role == "system":
            # The Messages API takes the system prompt as a top-level field, never as a message.
            return _anthropic(
                'messages: Unexpected role "system". The Messages API accepts a top-level `system` '
                'parameter, not "system" as an input message role.'
            )
        if role not in ("user", "assistant"):
            return _anthropic(f"messages.{i}.role: Input should be 'user' or 'assistant'")
        if i == 0 and role != "user":
            return _anthropic('messages: first message must use the "user" role')
        if role == previous:
            # Newer API versions merge consecutive turns of one role; the engine must not rely on it.
            return _anthropic(
                f'messages: roles must alternate between "user" and "assistant", but found multiple "{role}" roles in a row'
            )
        previous = role
    temperature = request.get("temperature")
    if temperature is not None and not 0 <= temperature <= 1:
        # API reference, temperature: "Ranges from 0.0 to 1.0."
        bound = "less than or equal to 1" if temperature > 1 else "greater than or equal to 0"
        return _anthropic(f"temperature: Input should be {bound}")
    tools = request.get("tools") or []
    names: list[str] = []
    for i, tool in enumerate(tools):
        name = tool.get("name", "")
        if not ANTHROPIC_TOOL_NAME.match(name):
            return _anthropic(f"tools.{i}.custom.name: String should match pattern '{ANTHROPIC_TOOL_NAME.pattern}'")
        names.append(name)
    if len(set(names)) != len(names):
        # Reported (LibreChat#13162): "tools: Tool names must be unique."
        return _anthropic("tools: Tool names must be unique.")
    choice = request.get("tool_choice")
    if choice is not None:
        if not tools:
            return _anthropic("tool_choice: tool_choice may only be specified while providing tools.")
        if choice.get("type") == "tool" and choice.get("name") not in names:
            # API reference, tool_choice {"type": "tool", "name"}: "The name of the tool to use".
            return _anthropic(f"tool_choice.tool.name: Tool '{choice.get('name')}' not found in the provided tools.")
    return None
