"""What `--llm-verify` does to the grounding bench's verdicts, with the model's replies exchanged through files.

Where no model can be called (as where this bench was written), the LLM verifier's calls are written out and
their replies read back, over the same labelled answers as bench/bench_grounding.py:

    python bench/bench_llm_verify.py [--replies REPLIES.jsonl] [--export CALLS.jsonl] [--only NAME ...]
    python bench/bench_llm_verify.py --model NAME=PROVIDER:MODEL[@BASE_URL] [--config F] [--cache F] [--only ...]

grounds the answers with the LLM verifier (grounding/verify's checks, then one call per claim about the facts
they left unchecked and about the claim as a whole) and answers each call with the reply of the same
id in REPLIES ({"id": ..., "reply": {...}}, the reply in the call's schema: FactReplies, or OffReply for the
follow-up that asks what is off in a claim found partly held). A call with no
reply, or one that does not fit the schema, fails as a model call would: its facts stay unchecked. Prints
the bench's figures for the verdicts so made and how many calls were answered; --export writes the calls
left without a reply (id, codebase, system prompt, user message) for the model to answer. A reply can change
what the next claim is asked (its subject carries over only from a SUPPORTED claim), so a run may export
new calls until every call has its reply.

With --model the calls go to that model instead (the judges' config, retries and key; a response cache if
given), as `groundjudge score --llm-verify` sends them: the figures are that model's.

A call's id is the sha256 of its system prompt and user message, so a reply answers the very question asked;
a change to the checks, the prompt or the excerpts asks new questions, which the old replies do not answer.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from bench_grounding import CORPORA_ENV, DEFAULT_CORPORA, Source, load_sources, run_all
from pydantic import BaseModel, ValidationError

from groundjudge.hashing import sha256_json
from groundjudge.judging.cache import ResponseCache
from groundjudge.judging.config import load_config, parse_judge_spec
from groundjudge.judging.judge import StructuredClient
from groundjudge.judging.llm_grounding import GroundingCaller, LLMVerifier
from groundjudge.judging.providers import JudgeError


def call_id(system: str, user: str) -> str:
    return sha256_json({"system": system, "user": user})


class FileCaller:
    """Stands where GroundingCaller does in the LLM verifier: records each call, and answers it from the
    replies read, if any, instead of sending it."""

    def __init__(self, model: str, replies: dict[str, Any] | None = None):
        self._model = model
        self.replies = replies or {}
        self.codebase = ""
        self.calls: dict[str, dict[str, str]] = {}
        self.answered = 0
        self.invalid: list[str] = []

    @property
    def model(self) -> str:
        return self._model

    def fingerprint(self, system: str, schema: type[BaseModel]) -> str:
        return sha256_json({"system": system, "schema": schema.model_json_schema(), "model": self._model})

    def call(self, system: str, user: str, schema: type[BaseModel], tool: str) -> Any:
        key = call_id(system, user)
        self.calls.setdefault(key, {"id": key, "codebase": self.codebase, "system": system, "user": user})
        if key not in self.replies:
            raise JudgeError(f"no reply recorded for call {key[:12]}")
        try:
            reply = schema.model_validate(self.replies[key])
        except ValidationError as exc:
            self.invalid.append(key)
            raise JudgeError(f"the reply to call {key[:12]} does not fit {schema.__name__}: {exc}") from None
        self.answered += 1
        return reply


def model_caller(spec: str, config: Path | None, cache: Path | None) -> GroundingCaller:
    """A caller of a real model (a judge spec, as --llm-verify takes), with the judges' config (retries,
    prices, the provider's key from its environment variable) and, if given, a response cache, so a rerun
    asks nothing again."""
    settings = load_config(config)
    judge = settings.resolve(parse_judge_spec(spec))
    if judge.provider != "openai-compatible" and not judge.api_key():
        raise SystemExit(f"--model {judge.name}: set {judge.api_key_env}")
    client = StructuredClient(
        config=judge, policy=settings.retry, price=settings.price(judge.model), cache=ResponseCache(cache) if cache else None
    )
    return GroundingCaller(client, "verify")


def read_replies(path: Path) -> dict[str, Any]:
    """The replies by call id; a line that is not a JSON object with an id and a reply stops the run."""
    if not path.is_file():
        raise SystemExit(f"{path}: no such file")
    out: dict[str, Any] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SystemExit(f"{path}:{n}: not JSON: {exc.msg}") from None
        if not (isinstance(row, dict) and isinstance(row.get("id"), str) and "reply" in row):
            raise SystemExit(f'{path}:{n}: expected an object with an "id" and a "reply"')
        if row["id"] in out:
            raise SystemExit(f"{path}:{n}: a second reply to call {row['id'][:12]}")
        out[row["id"]] = row["reply"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = ap.add_mutually_exclusive_group()
    source.add_argument("--replies", type=Path, help="answer the calls from this JSONL file")
    source.add_argument("--model", help="ask this model instead (NAME=PROVIDER:MODEL[@BASE_URL], as --llm-verify takes)")
    ap.add_argument("--config", type=Path, help="with --model: the judging config (default ./groundjudge.toml if present)")
    ap.add_argument("--cache", type=Path, help="with --model: a response cache (SQLite) kept between runs")
    ap.add_argument("--export", type=Path, help="write the calls left without a reply to this JSONL file")
    ap.add_argument("--corpora", type=Path, help=f"default ${CORPORA_ENV}, else {DEFAULT_CORPORA}")
    ap.add_argument("--only", action="append", help="run only this codebase (repeatable)")
    args = ap.parse_args()
    if args.model and args.export:
        ap.error("--export writes the calls a file of replies leaves unanswered; with --model every call is sent")
    root = args.corpora or Path(os.environ.get(CORPORA_ENV) or DEFAULT_CORPORA)
    sources = [s for s in load_sources() if not args.only or s.name in args.only]
    if args.model:
        model = model_caller(args.model, args.config, args.cache)
        try:
            run_all(sources, root, lambda _: LLMVerifier(model))
        finally:
            model.close()
        return
    caller = FileCaller("replies-from-file", read_replies(args.replies) if args.replies else {})
    verifier = LLMVerifier(caller)  # type: ignore[arg-type]

    def verifier_for(source: Source) -> LLMVerifier:
        caller.codebase = source.name  # the calls say which codebase they are about
        return verifier

    run_all(sources, root, verifier_for)
    unanswered = [c for key, c in caller.calls.items() if key not in caller.replies or key in caller.invalid]
    print(
        f"LLM verifier calls: {len(caller.calls)}, answered {caller.answered}, "
        f"reply not fitting the schema {len(caller.invalid)}, no reply {len(unanswered) - len(caller.invalid)}"
    )
    if args.export:
        args.export.write_text("".join(json.dumps(c) + "\n" for c in unanswered), encoding="utf-8")
        print(f"{len(unanswered)} calls without a fitting reply written to {args.export}")


if __name__ == "__main__":
    main()
