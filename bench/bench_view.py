"""Run viewer speed and page size: a run of 2,000 answers x 2 judges rendered within 10 s, every page
under 200 KB.

A run is generated into a temporary directory (not timed): 4 cells x 500 questions, each answer ~40
lines of Markdown (paragraphs, a list, a table, a code block) with 12 claims of mixed verdicts, half of
them with evidence snippets of 1-15 lines cut from 200 distinct places of a fixed-format COBOL file
(a run cites the same code many times), about 2% of judgements failed. Timed: validation.view.site.build_site,
everything `groundjudge view` does (reading the run, report's analysis with its 10,000-resample
bootstrap, every page). Baseline, measured in the same run: reading each answer's three files (answer,
grounding report, score file) with json.loads and nothing else.

    .venv/bin/python bench/bench_view.py
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from groundjudge.grounding.models import AnswerRef, CorpusRef, Evidence, GroundingReport, Verdict, VerifiedClaim
from groundjudge.judging.models import Judgement, RubricRef, ScoreFile
from groundjudge.validation.view.site import build_site

CELLS, QUESTIONS, JUDGES, CLAIMS = 4, 500, ("judge-claude", "judge-gpt"), 12
TARGET_S, TARGET_BYTES = 10.0, 200_000
RUBRIC = RubricRef(
    name="reference-free",
    sha256="0" * 64,
    dimensions={"accuracy": 30, "completeness": 25, "traceability": 25, "usefulness": 20},
)
CODE = [f"{n * 100:06d}     MOVE WS-FIELD-{n % 37:02d} TO ACCT-BAL-{n % 11:02d}." for n in range(1, 3001)]


def _answer(rng: random.Random, q: int) -> tuple[str, list[tuple[str, int]]]:
    """Markdown and its claim units (text, line)."""
    lines = [f"# Question {q}", ""]
    units = []
    for p in range(4):
        sentence = f"Program BKP{q % 97:03d}C calls `PARA-{p}-{q}` at cbl/BKP{q % 97:03d}C.cbl:{rng.randint(1, 3000)}."
        units.append((sentence, len(lines) + 1))
        lines += [sentence + " " + f"It moves **WS-FIELD-{p}** to the account balance.", ""]
        units.append((f"It moves WS-FIELD-{p} to the account balance.", len(lines) - 1))
    for i in range(3):
        item = f"`STEP-{i}` reads `ACCTFILE` and writes `REPORT-{i}`."
        units.append((item, len(lines) + 1))
        lines.append(f"- {item}")
    lines += ["", "| Name | Calls |", "|---|---|", f"| BKP{q % 97:03d}C | BKERR01C |", "", "```cobol", *CODE[:8], "```", ""]
    units.append((f"Name: BKP{q % 97:03d}C | Calls: BKERR01C", len(lines) - 11))
    lines += [f"In short, the account is updated by BKP{q % 97:03d}C in one pass over the file." for _ in range(10)]
    return "\n".join(lines) + "\n", units[:CLAIMS]


def _evidence(rng: random.Random) -> list[Evidence]:
    if rng.random() < 0.5:
        return []
    start = rng.randrange(200) * 15 + 1
    end = start + rng.choice((0, 4, 14))
    return [Evidence(path="cbl/BKPOST.cbl", start_line=start, end_line=end, snippet="\n".join(CODE[start - 1 : end]))]


def make_run(root: Path, seed: int = 0) -> None:
    rng = random.Random(seed)
    verdicts = list(Verdict)
    for c in range(CELLS):
        cell = f"cell-{c}"
        for sub in ("answers", "grounding", "scores"):
            (root / cell / sub).mkdir(parents=True)
        for q in range(QUESTIONS):
            qid = f"q{q:04d}"
            text, units = _answer(rng, q)
            (root / cell / "answers" / f"{qid}.md").write_text(text, encoding="utf-8")
            claims = [
                VerifiedClaim(
                    id=f"c{i + 1}",
                    text=t,
                    answer_line=line,
                    verdict=rng.choice(verdicts),
                    reason=f"PARA-{i} is a paragraph of BKP{q % 97:03d}C",
                    evidence=_evidence(rng),
                )
                for i, (t, line) in enumerate(units)
            ]
            report = GroundingReport(
                tool_version="bench",
                corpus=CorpusRef(name="bench", tree_hash="t" * 64),
                answer=AnswerRef(path=f"{cell}/answers/{qid}.md", sha256="0" * 64),
                extractor="markdown-v1",
                claims=claims,
                counts={v: sum(x.verdict == v for x in claims) for v in Verdict},
            )
            (root / cell / "grounding" / f"{qid}.json").write_text(report.model_dump_json(), encoding="utf-8")
            judgements = []
            for judge in JUDGES:
                if rng.random() < 0.02:
                    judgements.append(Judgement(judge=judge, model="m", error="timeout", prompt_sha256="0" * 64))
                    continue
                scores = {d: float(rng.randint(0, int(m))) for d, m in RUBRIC.dimensions.items()}
                judgements.append(
                    Judgement(
                        judge=judge,
                        model="m",
                        scores=scores,
                        total=sum(scores.values()),
                        rationale="The answer names the right programs. " * 8,
                        prompt_sha256="0" * 64,
                    )
                )
            score = ScoreFile(
                qid=qid,
                cell=cell,
                judged=any(j.valid for j in judgements),
                judgements=judgements,
                rubric=RUBRIC,
                tool_version="bench",
            )
            (root / cell / "scores" / f"{qid}.json").write_text(score.model_dump_json(), encoding="utf-8")


def read_three(root: Path) -> int:
    n = 0
    for cell in sorted(p for p in root.iterdir() if p.is_dir()):
        for answer in (cell / "answers").glob("*.md"):
            answer.read_text(encoding="utf-8")
            json.loads((cell / "grounding" / f"{answer.stem}.json").read_bytes())
            json.loads((cell / "scores" / f"{answer.stem}.json").read_bytes())
            n += 1
    return n


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "run"
        t0 = time.perf_counter()
        make_run(root)
        print(
            f"generated {CELLS * QUESTIONS:,} answers x {len(JUDGES)} judges in {time.perf_counter() - t0:.1f} s (not timed below)"
        )
        t0 = time.perf_counter()
        n = read_three(root)
        base = time.perf_counter() - t0
        t0 = time.perf_counter()
        index = build_site(root, Path(tmp) / "site")
        took = time.perf_counter() - t0
        pages = [index, *(index.parent / "a").rglob("*.html")]
        sizes = sorted(p.stat().st_size for p in pages)
        print(f"groundjudge view: {len(pages):,} pages in {took:.2f} s (target <= {TARGET_S:.0f} s)")
        print(
            f"baseline: reading the {n:,} answers' three files with json.loads: {base:.2f} s; ratio view / baseline: {took / base:.0f}x"
        )
        print(
            f"run page {index.stat().st_size / 1000:.0f} KB; answer pages median {sizes[len(sizes) // 2] / 1000:.0f} KB, "
            f"largest {sizes[-1] / 1000:.0f} KB (target < {TARGET_BYTES / 1000:.0f} KB each)"
        )
        print("PASS" if took <= TARGET_S and sizes[-1] < TARGET_BYTES else "FAIL")


if __name__ == "__main__":
    main()
