"""The grounder's fingerprint: what made a grounding report, so a report made by other rules is redone.

The tool version alone is not enough: a fix to the claim extractor, the fact vocabulary, a checker or an
index query changes verdicts without a release. So the fingerprint hashes the source and data files of
the grounding package (its index included), and the LLM helpers' prompts, models and parameters when a
run uses them (each helper describes itself through a ``fingerprint`` attribute).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from groundjudge.hashing import sha256_text

_PACKAGE = Path(__file__).parent
_SUFFIXES = (".py", ".scm", ".toml")


@cache
def code_fingerprint() -> str:
    """sha256 over the grounding package's source and rule files (relative path, then content)."""
    files = sorted(p for p in _PACKAGE.rglob("*") if p.suffix in _SUFFIXES and "__pycache__" not in p.parts)
    return sha256_text("".join(f"{p.relative_to(_PACKAGE).as_posix()}\0{p.read_text()}\0" for p in files))


def grounder_fingerprint(extractor: Any = None, verifier: Any = None) -> str:
    """The code fingerprint, combined with the LLM helpers' own when the extractor or verifier has one."""
    parts = [code_fingerprint()]
    for helper in (extractor, verifier):
        described = getattr(helper, "fingerprint", None)
        if described:
            parts.append(described)
    return parts[0] if len(parts) == 1 else sha256_text("\0".join(parts))
