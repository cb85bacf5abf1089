"""Simulated judges: what ``groundjudge demo`` scores with when no provider key is set.

The demo's simulated judges are ordinary ``openai:`` and ``anthropic:`` judges whose base URL is the
loopback provider (``judging/fakeprovider.py``), so the real SDK and instructor path runs; this
module is the loopback provider's responder and decides the scores they get back. A score is a
deterministic function of what the request carries: the grounding verdict counts rendered in the
prompt, how many of the question's must-touch items the answer names, its code references, length
and structure; plus a bias per judge and noise per (judge, replicate, answer, dimension) drawn from
sha256. So scores move with the answer as a judge's would, the two judges disagree a little, and a
replicate run differs from the first: the intervals, agreement statistics and test-retest floor of
the analysis have something to show. They are no model's judgement, and every rationale says so.

The prompt is read as the bundled template ``judge-dimensions-v1`` renders it (its section headings
and ``<answer>`` markers, and the ``Counts:`` line of ``judging.prompts.render_grounding``); a prompt
without them scores as an answer with no grounding and no must-touch list.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from typing import Any

from groundjudge.grounding.models import Verdict

RATIONALE_PREFIX = "SIMULATED judgement (no model was called)"
NOISE = 0.08  # the noise is uniform in [-NOISE, NOISE) of a dimension's range
FULL_LENGTH_WORDS = 300  # an answer this long counts as fully developed
FULL_CODE_REFS = 10  # this many `code` spans count as fully anchored


@dataclass(frozen=True)
class SimulatedJudge:
    name: str
    provider: str  # one judge per protocol, so both SDK paths run
    model: str
    bias: float  # added to every dimension's share of its range: one lenient judge, one strict


JUDGES = (
    SimulatedJudge("simulated-a", "openai", "simulated-judge-a", 0.04),
    SimulatedJudge("simulated-b", "anthropic", "simulated-judge-b", -0.05),
)
_BY_MODEL = {j.model: j for j in JUDGES}


@dataclass(frozen=True)
class Features:
    """What a simulated judge looks at in one prompt."""

    counts: dict[Verdict, int]
    must_touch: int  # items the question lists
    touched: int  # of those, named in the answer (case-insensitive)
    words: int
    code_refs: int  # `backticked` spans in the answer
    structured: bool  # a heading, bullet or numbered line in the answer


_COUNTS = re.compile("^Counts: " + ", ".join(rf"{v.value} (\d+)" for v in Verdict) + "$", re.M)
_ANSWER = re.compile(r"<answer>\n(.*?)\n</answer>", re.S)
_MUST_TOUCH = re.compile(r"^## Files or symbols a complete answer must mention\n(.*?)(?=\n## |\Z)", re.S | re.M)
_CODE_REF = re.compile(r"`[^`\n]+`")
_STRUCTURE = re.compile(r"^\s*(#+ |[-*] |\d+\. )", re.M)


def _texts(content: Any) -> list[str]:
    """A message's text: a string, or (Anthropic, and OpenAI content parts) a list of text blocks."""
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [block["text"] for block in content if isinstance(block, dict) and isinstance(block.get("text"), str)]
    return []


def prompt_text(request: dict[str, Any]) -> str:
    """System and message texts in order; the same text for an OpenAI and an Anthropic request of one prompt."""
    parts = _texts(request.get("system"))
    for message in request.get("messages") or []:
        parts += _texts(message.get("content"))
    return "\n".join(parts)


def features(prompt: str) -> Features:
    # The last Counts line: the grounding report follows the answer, which could hold a line like it.
    counts_found = _COUNTS.findall(prompt)
    counts = {v: int(counts_found[-1][i]) if counts_found else 0 for i, v in enumerate(Verdict)}
    answer_match = _ANSWER.search(prompt)
    answer = answer_match.group(1) if answer_match else ""
    must_match = _MUST_TOUCH.search(prompt)
    items = [line[2:].strip() for line in must_match.group(1).splitlines() if line.startswith("- ")] if must_match else []
    lowered = answer.lower()
    return Features(
        counts=counts,
        must_touch=len(items),
        touched=sum(1 for item in items if item.lower() in lowered),
        words=len(answer.split()),
        code_refs=len(_CODE_REF.findall(answer)),
        structured=bool(_STRUCTURE.search(answer)),
    )


def qualities(f: Features) -> dict[str, float]:
    """Each reference-free dimension's quality as a share of its range, before bias and noise."""
    s, p, u = f.counts[Verdict.SUPPORTED], f.counts[Verdict.PARTIALLY_SUPPORTED], f.counts[Verdict.UNSUPPORTED]
    claims = sum(f.counts.values())
    length = min(1.0, f.words / FULL_LENGTH_WORDS)
    # As the judge prompt's grounding policy asks: UNABLE_TO_VERIFY claims do not count against accuracy.
    accuracy = (s + 0.5 * p) / (s + p + u) if s + p + u else 0.5
    coverage = f.touched / f.must_touch if f.must_touch else length
    return {
        "accuracy": accuracy,
        "completeness": 0.7 * coverage + 0.3 * length,
        "traceability": 0.5 * min(1.0, f.code_refs / FULL_CODE_REFS) + 0.5 * ((s + p) / claims if claims else 0.0),
        "usefulness": 0.4 + 0.3 * f.structured + 0.3 * length,
    }


def noise(replicate: int, model: str, dimension: str, prompt: str) -> float:
    digest = hashlib.sha256(f"{replicate}\0{model}\0{dimension}\0{prompt}".encode()).digest()
    return NOISE * (2 * int.from_bytes(digest[:8], "big") / 2**64 - 1)


def score(quality: float, low: int, high: int) -> int:
    """``quality`` (a share of the range, clamped to [0, 1]) as an integer score, halves rounded up."""
    return low + math.floor((high - low) * min(1.0, max(0.0, quality)) + 0.5)


def simulated_reply(request: dict[str, Any], schema: dict[str, Any], replicate: int) -> dict[str, Any]:
    """The structured reply of the simulated judge named by the request's model: an integer for each
    bounded integer field of ``schema`` (the tool's parameters), a SIMULATED rationale for each string
    field. A dimension other than the four reference-free ones gets the mean of their qualities."""
    judge = _BY_MODEL.get(request.get("model", ""))
    if judge is None:
        raise ValueError(f"{request.get('model')!r} is not a simulated judge's model ({', '.join(sorted(_BY_MODEL))})")
    prompt = prompt_text(request)
    f = features(prompt)
    q = qualities(f)
    fallback = sum(q.values()) / len(q)
    c = f.counts
    rationale = (
        f"{RATIONALE_PREFIX}: grounding {c[Verdict.SUPPORTED]} supported, {c[Verdict.PARTIALLY_SUPPORTED]} partially "
        f"supported, {c[Verdict.UNSUPPORTED]} unsupported, {c[Verdict.UNABLE_TO_VERIFY]} unable to verify; "
        f"{f.touched} of {f.must_touch} must-touch items named; {f.words} words, {f.code_refs} code references; "
        f"judge bias {judge.bias:+.2f}, replicate {replicate}."
    )
    reply: dict[str, Any] = {}
    for name, prop in sorted(schema.get("properties", {}).items()):
        if prop.get("type") == "integer":
            low, high = int(prop.get("minimum", 0)), int(prop["maximum"])
            reply[name] = score(q.get(name, fallback) + judge.bias + noise(replicate, judge.model, name, prompt), low, high)
        elif prop.get("type") == "string":
            reply[name] = rationale
    return reply
