"""Apply a corpus's identifier map to a question set, and check a renamed set against its original.

Only ``text`` and ``must_touch`` (files and symbols the answer must mention) are rewritten; ids,
category, difficulty and any other keys pass through unchanged, in their original order.
"""

from __future__ import annotations

import json
from pathlib import Path

from groundjudge.questions import load_questions
from groundjudge.rename.apply import ensure_parent, rewrite
from groundjudge.rename.compare import Checks, Tally, compare_text
from groundjudge.rename.mapping import Lookup
from groundjudge.rename.phrase import Phrases
from groundjudge.storage import atomic_write_text

RENAMED_FIELDS = ("text", "must_touch")


# JSON layouts a question line is commonly written in; the renamed line keeps its original's, so a
# diff of the two sets shows only the renamed tokens.
_LAYOUTS: list[tuple[tuple[str, str], bool]] = [(seps, a) for seps in ((", ", ": "), (",", ":")) for a in (False, True)]


def _layout(obj: dict, line: str) -> tuple[tuple[str, str], bool]:
    return next((lay for lay in _LAYOUTS if json.dumps(obj, separators=lay[0], ensure_ascii=lay[1]) == line), _LAYOUTS[0])


def rename_question_lines(raw: str, lookup: Lookup, phrases: Phrases) -> str:
    out: list[str] = []
    for line in raw.splitlines():
        if not line.strip():
            continue
        obj = json.loads(line)
        separators, ascii_only = _layout(obj, line.strip())
        obj["text"] = rewrite(obj["text"], "text", lookup, phrases)
        if isinstance(obj.get("must_touch"), list):
            obj["must_touch"] = [rewrite(item, "text", lookup, phrases) for item in obj["must_touch"]]
        out.append(json.dumps(obj, separators=separators, ensure_ascii=ascii_only))
    return "\n".join(out) + "\n"


def rename_questions(src: Path, lookup: Lookup, phrases: Phrases, out: Path) -> int:
    """Validate the set, write the renamed copy atomically, return the number of questions."""
    count = len(load_questions(src))
    ensure_parent(out)
    atomic_write_text(out, rename_question_lines(Path(src).read_text(encoding="utf-8"), lookup, phrases))
    return count


def compare_questions(original: Path, renamed: Path, lookup: Lookup, phrases: Phrases, checks: Checks, tally: Tally) -> None:
    a, b = load_questions(original), load_questions(renamed)
    if [q.id for q in a] != [q.id for q in b]:
        checks.fail("question_ids", f"{renamed}: ids differ from {original}")
        return
    for qa, qb in zip(a, b):
        da, db = qa.model_dump(), qb.model_dump()
        for key in sorted(set(da) | set(db)):
            if key not in RENAMED_FIELDS and da.get(key) != db.get(key):
                checks.fail("question_labels", f"{renamed}: question {qa.id}: {key} changed")
        if len(qa.text) != len(qb.text):
            checks.fail("question_text_lengths", f"{renamed}: question {qa.id}: text length {len(qa.text)} became {len(qb.text)}")
            continue
        compare_text(qa.text, qb.text, "text", lookup, phrases, f"{renamed} question {qa.id}", checks, tally)
        if len(qa.must_touch) != len(qb.must_touch):
            checks.fail("question_labels", f"{renamed}: question {qa.id}: must_touch length changed")
            continue
        for x, y in zip(qa.must_touch, qb.must_touch):
            compare_text(x, y, "text", lookup, phrases, f"{renamed} question {qa.id} must_touch", checks, tally)
