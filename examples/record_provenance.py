"""Re-record the corpus tree hash and question-set sha256 in each example run.json.

Run after changing a sample corpus or a question set (tests/test_ground.py checks that they agree):

    python examples/record_provenance.py
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNS = [REPO / "examples" / "run", REPO / "examples" / "run-pyledger"]


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        os.environ["GROUNDJUDGE_HOME"] = home  # a throw-away store: hashing only
        from groundjudge.grounding.snapshot import snapshot_directory
        from groundjudge.hashing import sha256_file
        from groundjudge.storage import atomic_write_text

        for run in RUNS:
            path = run / "run.json"
            meta = json.loads(path.read_text(encoding="utf-8"))
            meta["corpus"]["tree_hash"] = snapshot_directory(REPO / meta["corpus"]["path"], meta["corpus"]["name"]).tree_hash
            meta["questions"]["sha256"] = sha256_file(REPO / meta["questions"]["path"])
            atomic_write_text(path, json.dumps(meta, indent=2) + "\n")
            print(
                f"{path.relative_to(REPO)}: corpus {meta['corpus']['tree_hash'][:12]}, questions {meta['questions']['sha256'][:12]}"
            )


if __name__ == "__main__":
    main()
