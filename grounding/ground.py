"""Grounding one answer: read it, extract its claims, verify each, and count the verdicts.

An empty (or whitespace-only) answer, a binary file and a non-UTF-8 file are refused. An answer with
text but no claim units (only headings, code blocks or rules) gets a complete report with zero claims,
all four counts 0 and a ``note`` saying so: it is an answer that asserts nothing, not a failed one.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.grounding.claims import ClaimExtractor, MarkdownClaimExtractor
from groundjudge.grounding.fingerprint import grounder_fingerprint
from groundjudge.grounding.models import AnswerRef, CorpusRef, GroundingReport, Verdict, VerifiedClaim
from groundjudge.grounding.snapshot import Snapshot, env_byte_limit
from groundjudge.grounding.verify import DeterministicVerifier, Verifier
from groundjudge.hashing import sha256_bytes

NO_CLAIMS_NOTE = "the answer has no claim units (only headings, code blocks or rules)"


MAX_ANSWER_BYTES = 1_000_000
MAX_ANSWER_ENV = "GROUNDJUDGE_MAX_ANSWER_BYTES"


def max_answer_bytes() -> int:
    """The answer size limit: GROUNDJUDGE_MAX_ANSWER_BYTES, else MAX_ANSWER_BYTES. Grounding takes about
    200 times an answer's size in memory, so a stray log or dump given as an answer is refused up front."""
    return env_byte_limit(MAX_ANSWER_ENV, MAX_ANSWER_BYTES)


def _not_regular(mode: int) -> str:
    for test, what in (
        (stat.S_ISFIFO, "named pipe (FIFO)"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
    ):
        if test(mode):
            return what
    return "special file"


def read_answer(path: str | Path, max_bytes: int | None = None) -> tuple[str, str]:
    """(text, sha256 of the bytes); every way an answer file can be unusable is a one-line UserError.

    max_bytes: the size limit (default: max_answer_bytes()). Only a regular file is ever opened: reading
    a FIFO, socket or device could block forever or never end."""
    path = Path(path)
    limit = max_answer_bytes() if max_bytes is None else max_bytes
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise UserError("answer file not found", path) from None
    except OSError as exc:
        raise UserError(f"cannot read answer file ({exc.strerror})", path) from None
    if stat.S_ISDIR(mode):
        raise UserError("is a directory (use --out-dir to ground every *.md in it)", path)
    if not stat.S_ISREG(mode):
        raise UserError(f"answer is a {_not_regular(mode)}, not a regular file", path)
    data = _read_regular(path, limit)
    if b"\0" in data[:8192]:
        raise UserError("answer is a binary file, not Markdown text", path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(f"answer is not UTF-8 text (bad byte at offset {exc.start})", path) from None
    if not text.strip():
        raise UserError("answer is empty", path)
    return text, sha256_bytes(data)


def _read_regular(path: Path, limit: int) -> bytes:
    """At most limit bytes of a file just seen to be regular. O_NONBLOCK and the fstat cover a file swapped
    for a FIFO after the stat: the open cannot block, and the swapped file is refused unread."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise UserError("answer file not found", path) from None
    except OSError as exc:
        raise UserError(f"cannot read answer file ({exc.strerror})", path) from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"answer is a {_not_regular(st.st_mode)}, not a regular file", path)
        if st.st_size > limit:
            raise _too_large(path, st.st_size, limit)
        try:
            data = fh.read(limit + 1)  # one byte over the limit says the file grew past it since the fstat
        except OSError as exc:
            raise UserError(f"cannot read answer file ({exc.strerror})", path) from None
    if len(data) > limit:
        raise _too_large(path, len(data), limit)
    return data


def _too_large(path: Path, size: int, limit: int) -> UserError:
    return UserError(
        f"answer is {size} bytes, over the limit of {limit} bytes (raise it with {MAX_ANSWER_ENV}, or ground's --max-answer-bytes)",
        path,
    )


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
    subject: str | None = None,
) -> GroundingReport:
    """subject: the question's subject (a file of the corpus), which "the program" and "it" mean when
    neither a heading nor a claim whose facts held named one."""
    extractor = extractor or MarkdownClaimExtractor()
    verifier = verifier or DeterministicVerifier()
    claims: list[VerifiedClaim] = []
    verdicts: dict[str, Verdict] = {}
    for claim in extractor.extract(text):
        if claim.context_from is not None and verdicts.get(claim.context_from) is not Verdict.SUPPORTED:
            # The subject carried over came from a claim whose facts did not hold: "the program" means
            # the heading's subject, not a file the previous (wrong) claim named.
            claim = claim.model_copy(update={"context": claim.topic or subject, "topic": None, "context_from": None})
        elif claim.context is None and subject is not None:
            claim = claim.model_copy(update={"context": subject})
        verified = verifier.verify(claim, index, snapshot)
        verdicts[claim.id] = verified.verdict
        claims.append(verified)
    return GroundingReport(
        tool_version=__version__,
        corpus=CorpusRef(name=snapshot.name, tree_hash=snapshot.tree_hash),
        answer=answer,
        extractor=extractor.name,
        subject=subject,
        grounder=grounder_fingerprint(extractor, verifier),
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
