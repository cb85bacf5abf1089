"""A loopback LLM provider for tests and benchmarks.

Speaks enough of the OpenAI chat-completions protocol (``POST /v1/chat/completions``) and the
Anthropic messages protocol (``POST /v1/messages``) for the real SDKs and instructor to talk to it
by base URL. Before answering, every request is checked against the rules the real services enforce
(``judging/fakeprovider_rules.py``): a broken rule is answered with HTTP 400 in that provider's error
shape, as the service would, so a request the real API refuses never passes a test here.
Replies are built from the JSON schema the client sends (the tool's parameters or ``input_schema``),
so a structured-output request gets a structurally valid answer unless a fault is scripted. Faults
cover what real providers do to a judge run: 5xx, 429 with Retry-After, responses slower than the
client timeout or trickling in byte by byte, broken JSON, truncated output, schema violations,
out-of-range scores, refusals, and replies with no tool call, two tool calls or another tool's call.

The server is a minimal HTTP/1.1 implementation on asyncio (keep-alive, Content-Length bodies)
running in a daemon thread, so it serves many concurrent requests and a test can start one in
a fixture without a subprocess.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

from groundjudge.judging.fakeprovider_rules import check_anthropic, check_openai

FaultKind = Literal[
    "ok",
    "status",  # an HTTP error status (500 by default, 429 with retry_after)
    "malformed_body",  # HTTP 200 whose body is not JSON
    "malformed_args",  # the tool-call arguments are not JSON (OpenAI only: Anthropic sends an object)
    "truncated",  # output cut at max tokens: finish_reason "length" / stop_reason "max_tokens"
    "schema_violation",  # a score field holds a string
    "out_of_range",  # a score one above its maximum
    "refusal",  # the model declines: OpenAI ``refusal``, Anthropic stop_reason "refusal"
    "no_tool_call",  # plain text where a tool call was forced
    "two_tool_calls",  # the tool called twice in one reply (different scores in each call)
    "wrong_tool",  # a call to a tool the request did not send
    "trickle",  # a valid reply written one byte at a time, ``byte_interval`` seconds apart
]

Responder = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


@dataclass
class Fault:
    kind: FaultKind = "ok"
    status: int = 500
    retry_after: float | None = None
    delay: float = 0.0  # extra seconds before replying, e.g. past the client timeout
    arguments: dict[str, Any] | None = None  # the structured reply for kind "ok"
    byte_interval: float = 0.05  # kind "trickle": seconds between the bytes of the body


@dataclass
class _Rule:
    fault: Fault
    match: str | None
    model: str | None
    remaining: int | None


def _default_value(prop: dict[str, Any], defs: dict[str, Any]) -> Any:
    if "$ref" in prop:
        return _default_value(defs.get(prop["$ref"].rsplit("/", 1)[-1], {}), defs)
    options = prop.get("anyOf") or prop.get("oneOf")
    if options:
        typed = [o for o in options if o.get("type") != "null"]
        return _default_value(typed[0], defs) if typed else None
    if "enum" in prop:
        return prop["enum"][0]
    if "const" in prop:
        return prop["const"]
    kind = prop.get("type")
    if kind == "integer":
        return (int(prop.get("maximum", 4)) * 3) // 4
    if kind == "number":
        return float(prop.get("maximum", 1.0)) * 0.75
    if kind == "boolean":
        return True
    if kind == "array":
        return []
    if kind == "object":
        return {name: _default_value(p, defs) for name, p in sorted(prop.get("properties", {}).items())}
    return "Scripted reply from the fake provider."


def default_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """A valid reply: bounded integers at three quarters of their maximum, the first enum value,
    empty arrays, strings filled in."""
    return _default_value({**schema, "type": "object"}, schema.get("$defs", {}))


def _first_int_field(schema: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for name, prop in sorted(schema.get("properties", {}).items()):
        if prop.get("type") == "integer":
            return name, prop
    raise ValueError("the request schema has no integer field to corrupt")


class FakeProvider:
    """``with FakeProvider(latency=0.01) as fp: OpenAI(base_url=fp.openai_base_url, ...)``."""

    def __init__(self, latency: float = 0.0, responder: Responder | None = None, port: int = 0):
        self.latency = latency
        self.responder = responder
        self.counts: Counter[str] = Counter()
        self.refused: list[str] = []  # the 400 messages sent for requests that broke a service's rule
        self.requests: list[dict[str, Any]] = []
        self.keep_requests = True
        self._rules: list[_Rule] = []
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.base_events.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = port

    # -- scripting -------------------------------------------------------------------------
    def add(self, fault: Fault, match: str | None = None, times: int | None = 1, model: str | None = None) -> None:
        """Apply fault to the next ``times`` requests (None: forever) whose body contains ``match``
        and whose model is ``model``; the first rule that applies wins."""
        with self._lock:
            self._rules.append(_Rule(fault, match, model, times))

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()
            self.counts.clear()
            self.requests.clear()
            self.refused.clear()

    @property
    def total_requests(self) -> int:
        return sum(self.counts.values())

    def _pick(self, raw: str, model: str | None) -> Fault:
        with self._lock:
            for rule in self._rules:
                if rule.remaining == 0 or (rule.match is not None and rule.match not in raw):
                    continue
                if rule.model is not None and rule.model != model:
                    continue
                if rule.remaining is not None:
                    rule.remaining -= 1
                return rule.fault
        return Fault()

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    def start(self) -> FakeProvider:
        ready = threading.Event()

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self._loop)
            self._server = self._loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", self.port, backlog=512))
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            self._loop.run_forever()
            self._server.close()
            pending = asyncio.all_tasks(self._loop)
            for task in pending:
                task.cancel()
            self._loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            self._loop.close()

        self._thread = threading.Thread(target=run, name="fake-provider", daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop = None

    def __enter__(self) -> FakeProvider:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ------------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request_line = await reader.readline()
                if not request_line:
                    break
                method, path, _ = request_line.decode("latin-1").split(" ", 2)
                headers: dict[str, str] = {}
                while True:
                    line = await reader.readline()
                    if line in (b"\r\n", b"\n", b""):
                        break
                    key, _, value = line.decode("latin-1").partition(":")
                    headers[key.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                status, extra, payload, interval = await self._respond(method, path.split("?", 1)[0], headers, body)
                head = [
                    f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}",
                    "content-type: application/json",
                    f"content-length: {len(payload)}",
                    "connection: keep-alive",
                ]
                head += [f"{k}: {v}" for k, v in extra.items()]
                writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
                if interval:
                    for i in range(len(payload)):
                        writer.write(payload[i : i + 1])
                        await writer.drain()
                        await asyncio.sleep(interval)
                else:
                    writer.write(payload)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, ValueError, asyncio.CancelledError):
            pass  # the client went away (e.g. its timeout fired); nothing to answer
        finally:
            writer.close()

    async def _respond(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes, float]:
        if method != "POST" or path not in ("/v1/chat/completions", "/v1/messages"):
            return 404, {}, b'{"error": {"message": "not found"}}', 0.0
        raw = body.decode("utf-8")
        with self._lock:
            self.counts[path] += 1
        request = json.loads(raw)
        if self.keep_requests:
            with self._lock:
                self.requests.append(request)
        anthropic = path == "/v1/messages"
        refusal = check_anthropic(request, headers) if anthropic else check_openai(request, headers)
        if refusal is not None:
            with self._lock:
                self.refused.append(refusal.body["error"]["message"])
            return refusal.status, {}, json.dumps(refusal.body).encode(), 0.0
        fault = self._pick(raw, request.get("model"))
        if self.latency or fault.delay:
            await asyncio.sleep(self.latency + fault.delay)
        if fault.kind == "status":
            extra = {"retry-after": f"{fault.retry_after:g}"} if fault.retry_after is not None else {}
            kind = "rate_limit_error" if fault.status == 429 else "api_error"
            err = {"type": "error", "error": {"type": kind, "message": f"scripted {fault.status}"}}
            return fault.status, extra, json.dumps(err).encode(), 0.0
        if fault.kind == "malformed_body":
            return 200, {}, b'{"id": "broken", "choices": [ {"message": ', 0.0
        reply = self._anthropic_reply(request, raw, fault) if anthropic else self._openai_reply(request, raw, fault)
        return 200, {}, json.dumps(reply).encode(), fault.byte_interval if fault.kind == "trickle" else 0.0

    # -- replies ---------------------------------------------------------------------------
    def _arguments(self, request: dict[str, Any], schema: dict[str, Any], fault: Fault) -> dict[str, Any]:
        if fault.arguments is not None:
            return dict(fault.arguments)
        args = self.responder(request, schema) if self.responder else default_arguments(schema)
        if fault.kind == "schema_violation":
            name, _ = _first_int_field(schema)
            args[name] = "high"
        elif fault.kind == "out_of_range":
            name, prop = _first_int_field(schema)
            args[name] = int(prop.get("maximum", 10**6)) + 1
        return args

    @staticmethod
    def _second_call(schema: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
        """The same call with every score at its minimum, so a client that scores either call is caught."""
        out = dict(args)
        for name, prop in schema.get("properties", {}).items():
            if prop.get("type") == "integer":
                out[name] = int(prop.get("minimum", 0))
        return out

    def _openai_reply(self, request: dict[str, Any], raw: str, fault: Fault) -> dict[str, Any]:
        tools = request.get("tools") or []
        response_format = request.get("response_format") or {}
        if tools:
            fn = tools[0]["function"]
            name, schema = fn["name"], fn.get("parameters", {})
        else:
            name, schema = "", response_format.get("json_schema", {}).get("schema", {})
        message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
        finish = "tool_calls" if tools else "stop"
        if fault.kind == "refusal":
            message.update(content="I can't help with that.", refusal="I can't help with that.")
            finish = "stop"
            text = message["content"]
        elif fault.kind == "no_tool_call":
            text = "The answer looks accurate to me; I would give it full marks."
            message["content"], finish = text, "stop"
        else:
            text = json.dumps(self._arguments(request, schema, fault))
            if fault.kind == "malformed_args":
                text = text.replace('"', "'").replace(":", " =")
            elif fault.kind == "truncated":
                text, finish = text[: len(text) // 2], "length"
            if tools:
                called = "another_tool" if fault.kind == "wrong_tool" else name
                message["tool_calls"] = [{"id": "call_fake", "type": "function", "function": {"name": called, "arguments": text}}]
                if fault.kind == "two_tool_calls":
                    second = json.dumps(self._second_call(schema, json.loads(text)))
                    message["tool_calls"].append(
                        {"id": "call_fake2", "type": "function", "function": {"name": name, "arguments": second}}
                    )
            else:
                message["content"] = text
        prompt_tokens, completion_tokens = len(raw) // 4, max(1, len(text) // 4)
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": request.get("model", ""),
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _anthropic_reply(self, request: dict[str, Any], raw: str, fault: Fault) -> dict[str, Any]:
        tools = request.get("tools") or []
        name, schema = (tools[0]["name"], tools[0].get("input_schema", {})) if tools else ("", {})
        if fault.kind == "refusal":
            content: list[dict[str, Any]] = [{"type": "text", "text": "I can't help with that."}]
            stop, text = "refusal", content[0]["text"]
        elif fault.kind == "no_tool_call":
            text = "The answer looks accurate to me; I would give it full marks."
            content, stop = [{"type": "text", "text": text}], "end_turn"
        else:
            args = self._arguments(request, schema, fault)
            text = json.dumps(args)
            stop = "tool_use"
            if fault.kind in ("truncated", "malformed_args"):
                # Anthropic sends tool input as an object; a cut-off reply is partial and stops at max_tokens.
                args = dict(list(args.items())[: max(1, len(args) // 2)])
                stop = "max_tokens"
            called = "another_tool" if fault.kind == "wrong_tool" else name
            content = [{"type": "tool_use", "id": "toolu_fake", "name": called, "input": args}]
            if fault.kind == "two_tool_calls":
                content.append({"type": "tool_use", "id": "toolu_fake2", "name": name, "input": self._second_call(schema, args)})
        return {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": request.get("model", ""),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": len(raw) // 4, "output_tokens": max(1, len(text) // 4)},
        }


def parse_fault(spec: str) -> tuple[Fault, dict[str, Any]]:
    """``KIND[,status=N][,retry_after=S][,delay=S][,byte_interval=S][,match=TEXT][,model=M][,times=N|inf]`` for ``--fault``."""
    kind, *pairs = spec.split(",")
    if kind not in get_args(FaultKind):
        raise ValueError(f"unknown fault kind {kind!r} (one of: {', '.join(get_args(FaultKind))})")
    fault = Fault(kind=cast(FaultKind, kind))
    rule: dict[str, Any] = {"times": None}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            raise ValueError(f"expected key=value, got {pair!r}")
        if key == "status":
            fault.status = int(value)
        elif key in ("retry_after", "delay", "byte_interval"):
            setattr(fault, key, float(value))
        elif key in ("match", "model"):
            rule[key] = value
        elif key == "times":
            rule["times"] = None if value == "inf" else int(value)
        else:
            raise ValueError(f"unknown fault option {key!r}")
    return fault, rule


def main() -> None:
    """``python -m groundjudge.judging.fakeprovider``: serve until interrupted, e.g. to try ``groundjudge score`` offline."""
    import argparse
    import signal
    import time

    ap = argparse.ArgumentParser(
        description="Loopback OpenAI/Anthropic-protocol server with scripted replies and injectable faults.",
        epilog="Fault kinds: " + ", ".join(k for k in get_args(FaultKind) if k != "ok") + ". "
        "Example: --fault refusal,model=m2 --fault status,status=429,retry_after=1,times=3 "
        "--fault out_of_range,match=q03. Rules apply in order; the first that matches a request wins.",
    )
    ap.add_argument("--latency", type=float, default=0.0, help="seconds before each reply")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    ap.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="KIND[,key=value...]",
        help="inject a fault; keys: status, retry_after, delay (s), byte_interval (s, for trickle), match (text in the request body), "
        "model, times (default: every matching request; 'inf' also means every)",
    )
    ap.add_argument("--stats", action="store_true", help="print the request counts per path when stopped")
    args = ap.parse_args()
    try:
        rules = [parse_fault(spec) for spec in args.fault]
    except ValueError as exc:
        ap.error(f"--fault: {exc}")

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # stops like Ctrl-C, so --stats is printed either way
    with FakeProvider(latency=args.latency, port=args.port) as fp:
        fp.keep_requests = False
        for fault, rule in rules:
            fp.add(fault, match=rule.get("match"), model=rule.get("model"), times=rule["times"])
        print(
            f"serving on {fp.url} (OpenAI base URL {fp.openai_base_url}, Anthropic base URL {fp.anthropic_base_url})", flush=True
        )
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        if args.stats:
            print("requests: " + json.dumps(dict(sorted(fp.counts.items()))), flush=True)


if __name__ == "__main__":
    main()
