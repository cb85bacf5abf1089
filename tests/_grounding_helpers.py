"""Shared set-up for the grounding tests: a snapshot and index of a bundled sample corpus, and a
one-call way to ground a Markdown snippet against it."""

from __future__ import annotations

from pathlib import Path

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.ground import ground_text
from groundjudge.grounding.index import load_index
from groundjudge.grounding.models import AnswerRef, GroundingReport, Verdict, VerifiedClaim
from groundjudge.grounding.snapshot import Snapshot, snapshot_directory
from groundjudge.grounding.verify import DeterministicVerifier

REPO = Path(__file__).resolve().parent.parent
CORPORA = REPO / "corpora"


class Grounder:
    """One corpus, indexed once; `claims(md)` grounds an answer given as text."""

    def __init__(self, corpus: str | Path):
        """corpus: a sample corpus's name, or a directory."""
        root = corpus if isinstance(corpus, Path) else CORPORA / corpus
        self.snapshot: Snapshot = snapshot_directory(root, root.name)
        self.index = load_index(self.snapshot)
        self.verifier = DeterministicVerifier()

    def report(self, md: str, subject: str | None = None) -> GroundingReport:
        answer = AnswerRef(path="answer.md", sha256="0" * 64)
        return ground_text(self.snapshot, self.index, md, answer, MarkdownClaimExtractor(), self.verifier, subject)

    def claims(self, md: str, subject: str | None = None) -> list[VerifiedClaim]:
        return self.report(md, subject).claims

    def one(self, md: str, subject: str | None = None) -> VerifiedClaim:
        """The last claim of md (earlier units only set context); subject: the question's."""
        return self.claims(md, subject)[-1]


def fixture_grounder(root: Path, files: dict[str, str]) -> Grounder:
    """A Grounder over a small corpus written from (relative path -> text)."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return Grounder(root)


def expect_verdict(grounder: Grounder, md: str, verdict: Verdict, reason: str | None = None) -> None:
    """The last claim of md gets the verdict (its reason shown when not), and a reason that starts so, if given."""
    claim = grounder.one(md)
    assert claim.verdict == verdict, claim.reason
    if reason is not None:
        assert claim.reason.startswith(reason), claim.reason
