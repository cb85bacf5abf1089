"""Grounding one answer: read it, extract its claims, verify each, and count the verdicts.

An empty (or whitespace-only) answer, a binary file and a non-UTF-8 file are refused. An answer with
text but no claim units (only headings, code blocks or rules) gets a complete report with zero claims,
all four counts 0 and a ``note`` saying so: it is an answer that asserts nothing, not a failed one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.storage import read_input_bytes
from groundjudge.hashing import sha256_bytes
from grounding.claims import ClaimExtractor, MarkdownClaimExtractor
from grounding.models import AnswerRef, CorpusRef, GroundingReport, Verdict, VerifiedClaim
from grounding.snapshot import Snapshot
from grounding.verify import DeterministicVerifier, Verifier

NO_CLAIMS_NOTE = "the answer has no claim units (only headings, code blocks or rules)"


def read_answer(path: str | Path) -> tuple[str, str]:
    """(text, sha256 of the bytes); every way an answer file can be unusable is a one-line UserError."""
    path = Path(path)
    if path.is_dir():
        raise UserError("is a directory (use --out-dir to ground every *.md in it)", path)
    data = read_input_bytes(path, "answer file")
    if b"\0" in data[:8192]:
        raise UserError("answer is a binary file, not Markdown text", path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(f"answer is not UTF-8 text (bad byte at offset {exc.start})", path) from None
    if not text.strip():
        raise UserError("answer is empty", path)
    return text, sha256_bytes(data)


def count_verdicts(claims: list[VerifiedClaim]) -> dict[Verdict, int]:
    counts = {v: 0 for v in Verdict}
    for c in claims:
        counts[c.verdict] += 1
    return counts


def ground_text(
    snapshot: Snapshot,
    index: Any,
    text: str,
    answer: AnswerRef,
    extractor: ClaimExtractor | None = None,
    verifier: Verifier | None = None,
) -> GroundingReport:
    extractor = extractor or MarkdownClaimExtractor()
    verifier = verifier or DeterministicVerifier()
    claims = [verifier.verify(c, index, snapshot) for c in extractor.extract(text)]
    return GroundingReport(
        tool_version=__version__,
        corpus=CorpusRef(name=snapshot.name, tree_hash=snapshot.tree_hash),
        answer=answer,
        extractor=extractor.name,
        claims=claims,
        counts=count_verdicts(claims),
        note=None if claims else NO_CLAIMS_NOTE,
    )


def ground_answer(
    snapshot: Snapshot,
    index: Any,
    answer_path: str | Path,
    extractor: ClaimExtractor | None = None,
    verifier: Verifier | None = None,
) -> GroundingReport:
    """One answer file -> its GroundingReport, for library use. The CLI and the runner read their answers
    first (to refuse bad input before any work) and call ``ground_text``."""
    text, digest = read_answer(answer_path)
    answer = AnswerRef(path=Path(answer_path).as_posix(), sha256=digest)
    return ground_text(snapshot, index, text, answer, extractor, verifier)
