"""Verification speed: 1,000 claims against a built index in under a second.

The index is built once (not timed) for a corpus: by default the ~60k-line synthetic COBOL corpus of
bench/make_cobol_corpus.py, written to a temporary directory; or any directory given with --corpus.
1,000 distinct claims are generated from that index with a fixed seed (paragraph and line-range
citations, right and wrong; PIC clauses, right and wrong; PERFORM and COPY relations, true and false;
invented names; prose with nothing checkable), extracted from Markdown, then verified three times, each
by a fresh DeterministicVerifier on a fresh index handle with the cue and pattern caches cleared (cold caches); the
median is judged against the target, since this machine's speed swings from run to run. Baseline,
measured in the same run: 1,000 plain ``idx.definitions(name)`` look-ups of the claims' first names.

    python bench/bench_verify.py [--corpus DIR] [--claims 1000] [--seed 7]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


RUNS = 3


def make_claims(idx, n: int, seed: int) -> str:
    """A Markdown answer of n one-sentence paragraphs about the indexed corpus."""
    from groundjudge.grounding.index.model import RefKind, SymbolKind

    rng = random.Random(seed)
    paras = [s for s in idx.definitions(kind=SymbolKind.PARAGRAPH)] + [s for s in idx.definitions(kind=SymbolKind.SECTION)]
    items = [s for s in idx.definitions(kind=SymbolKind.DATA_ITEM) if s.detail.get("pic")]
    programs = idx.definitions(kind=SymbolKind.PROGRAM)
    performs = [r for r in idx.references(kind=RefKind.PERFORM) if r.context]
    copies = idx.references(kind=RefKind.COPY)
    paths = [f.path for f in idx.files()]
    if not (paras and items and programs and performs and copies):
        raise SystemExit("the corpus needs paragraphs, PIC items, programs, PERFORMs and COPYs")
    stem = {p.path: Path(p.path).stem for p in programs}

    def claim(k: int) -> str:
        kind = k % 10
        if kind in (0, 1):
            s = rng.choice(paras)
            return f"`{s.name}` is at {s.path}:{s.start_line}-{s.end_line}."
        if kind == 2:
            s = rng.choice(paras)
            return f"`{s.name}` is at {s.path} lines {s.start_line + 7}-{s.end_line + 9}."
        if kind == 3:
            s = rng.choice(paras)
            return f"The paragraph `{s.name}` is defined in {rng.choice(paths)}."
        if kind == 4:
            d = rng.choice(items)
            pic = d.detail["pic"] if rng.random() < 0.6 else "X(17)"
            return f"`{d.name}` in {d.path} is `PIC {pic}`."
        if kind == 5:
            r = rng.choice(performs)
            target = r.target if rng.random() < 0.7 else rng.choice(paras).name
            return f"`{r.context}` in {r.path} performs `{target}`."
        if kind == 6:
            r = rng.choice(copies)
            program = stem.get(r.path, Path(r.path).stem)
            return f"{program} copies `{r.target}`."
        if kind == 7:
            return f"Errors end in `{rng.choice(paras).name}-X{k}`."
        if kind == 8:
            p = rng.choice(programs)
            return f"## {p.name}\n\nIts main loop performs `{rng.choice(performs).target}`."
        return "The design is careful and easy to follow."

    return "\n\n".join(claim(k) for k in range(n)) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, help="corpus directory (default: a generated ~60k-line COBOL corpus)")
    ap.add_argument("--claims", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        os.environ.setdefault("GROUNDJUDGE_HOME", str(Path(tmp) / "home"))
        corpus = args.corpus
        if corpus is None:
            corpus = Path(tmp) / "corpus"
            subprocess.run([sys.executable, str(HERE / "make_cobol_corpus.py"), str(corpus), "--lines", "60000"], check=True)

        from groundjudge.grounding.claims import MarkdownClaimExtractor, relation_cues
        from groundjudge.grounding.index import load_index
        from groundjudge.grounding.lookup import word_pattern
        from groundjudge.grounding.snapshot import snapshot_directory
        from groundjudge.grounding.verify import DeterministicVerifier

        snapshot = snapshot_directory(corpus)
        t0 = time.perf_counter()
        idx = load_index(snapshot)
        t_index = time.perf_counter() - t0
        counts = idx.counts()

        answer = make_claims(idx, args.claims, args.seed)
        t0 = time.perf_counter()
        claims = MarkdownClaimExtractor().extract(answer)
        t_extract = time.perf_counter() - t0
        assert len(claims) == args.claims, len(claims)

        names = [next((r.value for r in c.refs if r.kind == "identifier"), "X") for c in claims]
        t0 = time.perf_counter()
        for name in names:
            idx.definitions(name=name)
        t_base = time.perf_counter() - t0

        # This machine's speed swings from run to run: verify three times, each with a fresh index handle,
        # verifier, cue cache and pattern cache (nothing carried over), and judge the median.
        times = []
        for _ in range(RUNS):
            run_idx = load_index(snapshot)
            relation_cues.cache_clear()
            word_pattern.cache_clear()
            verifier = DeterministicVerifier()
            t0 = time.perf_counter()
            verified = [verifier.verify(c, run_idx, snapshot) for c in claims]
            times.append(time.perf_counter() - t0)
        t_verify = statistics.median(times)

    verdicts = Counter(v.verdict.value for v in verified)
    print(
        f"corpus: {counts['files']} files, {counts['definitions']} definitions, {counts['references']} references "
        f"(index built in {t_index:.2f} s, not timed below)"
    )
    print(f"claims: {len(claims)}  " + "  ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    print(f"extract {len(claims)} claims:            {t_extract:.3f} s")
    print(f"verify {len(claims)} claims, {RUNS} runs:     {' '.join(f'{t:.3f}' for t in times)} s")
    print(
        f"verify {len(claims)} claims, median:     {t_verify:.3f} s  ({'meets' if t_verify < 1.0 else 'MISSES'} the 1 s target)"
    )
    print(f"baseline {len(names)} definitions() look-ups: {t_base:.3f} s")
    print(f"ratio verify / baseline:          {t_verify / t_base:.1f}x")


if __name__ == "__main__":
    main()
