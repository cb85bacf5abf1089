"""Rename + verify of a ~60k-line synthetic fixed-format COBOL corpus, against a plain copy.

Generates the corpus (seeded) in a temporary directory, then times, as whole processes:
  (a) a plain read-and-write copy of the same tree (the baseline),
  (b) ``groundjudge rename`` (snapshot, discovery, generation, application, atomic write),
  (c) ``groundjudge rename-verify``.
Prints wall and CPU seconds and the ratio (b + c) / a. Target: b + c under 5 s on 2 cores.

    python bench/bench_rename.py [--lines 60000] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GJ = [str(Path(sys.executable).with_name("groundjudge"))]


def _line(code: str, seq: int, ind: str = " ") -> str:
    return f"{seq:06d}{ind}{code[:65]}"


def make_corpus(root: Path, target_lines: int, seed: int = 1) -> int:
    """Programs of about 500 lines with copybooks, CALL/LINK/XCTL, CICS file reads, BMS and JCL."""
    rng = random.Random(seed)
    n_programs = max(1, target_lines // 520)
    programs = [f"PG{i:04d}C" for i in range(n_programs)]
    copybooks = [f"CP{i:04d}" for i in range(max(1, n_programs // 2))]
    files = [f"FL{i:04d}D" for i in range(max(1, n_programs // 4))]
    total = 0
    for d in ("cbl", "cpy", "jcl", "bms"):
        (root / d).mkdir(parents=True, exist_ok=True)
    for cb in copybooks:
        lines = [_line(f" 01  {cb}-REC.", 100)] + [
            _line(f"     05 {cb}-F{j:02d}  PIC X({rng.randint(1, 30)}).", 200 + j) for j in range(30)
        ]
        (root / "cpy" / f"{cb}.cpy").write_text("\n".join(lines) + "\n")
        total += len(lines)
    for i, pg in enumerate(programs):
        seq = iter(range(100, 10**6, 100))
        out = [
            _line(" IDENTIFICATION DIVISION.", next(seq)),
            _line(f" PROGRAM-ID. {pg}.", next(seq)),
            _line(f"{pg}: synthetic program {i} for the rename benchmark.", next(seq), "*"),
            _line(" DATA DIVISION.", next(seq)),
            _line(" WORKING-STORAGE SECTION.", next(seq)),
        ]
        for j in range(80):
            out.append(_line(f" 01  WS-{pg}-V{j:02d}  PIC X(10) VALUE 'V{j:02d}'.", next(seq)))
        for cb in rng.sample(copybooks, min(3, len(copybooks))):
            out.append(_line(f"     COPY {cb}.", next(seq)))
        out.append(_line(" PROCEDURE DIVISION.", next(seq)))
        for p in range(40):
            out.append(_line(f" {p:04d}-PARA-{pg}.", next(seq)))
            callee = rng.choice(programs)
            out += [
                _line(f"     MOVE WS-{pg}-V{p:02d} TO WS-{pg}-V{(p + 1) % 80:02d}", next(seq)),
                _line(f"     CALL '{callee}' USING WS-{pg}-V{p:02d}", next(seq)),
                _line(f"     EXEC CICS READ DATASET('{rng.choice(files)}')", next(seq)),
                _line(f"          INTO(WS-{pg}-V00) END-EXEC", next(seq)),
                _line(f"     Calls {callee.lower()} then links to {rng.choice(programs)}.", next(seq), "*"),
                _line(f"     EXEC CICS LINK PROGRAM('{rng.choice(programs)}') END-EXEC", next(seq)),
                _line(f"     PERFORM {(p + 1) % 40:04d}-PARA-{pg}", next(seq)),
                _line(f"     DISPLAY 'STEP {p} OF {pg}'", next(seq)),
                _line("     CONTINUE.", next(seq)),
            ]
        out.append(_line(f"     EXEC CICS XCTL PROGRAM('{rng.choice(programs)}') END-EXEC.", next(seq)))
        (root / "cbl" / f"{pg}.cbl").write_text("\n".join(out) + "\n")
        total += len(out)
    for j in range(0, n_programs, 10):
        job = f"JB{j:04d}"
        body = [f"//{job} JOB (ACCT),'BENCH',CLASS=A"]
        for k, pg in enumerate(programs[j : j + 10]):
            body += [f"//S{k:02d} EXEC PGM={pg}", f"//IN{k:02d} DD DSN=BENCHQ.PRODQ.{rng.choice(files)},DISP=SHR"]
        (root / "jcl" / f"{job}.jcl").write_text("\n".join(body) + "\n")
        mapset = f"MS{j:04d}"
        (root / "bms" / f"{mapset}.bms").write_text(
            f"{mapset} DFHMSD TYPE=&SYSPARM,MODE=INOUT\nMP{j:04d}A DFHMDI SIZE=(24,80)\n         DFHMSD TYPE=FINAL\n"
        )
        total += len(body) + 3
    return total


COPY = "import sys\nfrom pathlib import Path\nsrc, dst = Path(sys.argv[1]), Path(sys.argv[2])\nfor p in sorted(src.rglob('*')):\n    if p.is_file():\n        t = dst / p.relative_to(src)\n        t.parent.mkdir(parents=True, exist_ok=True)\n        t.write_bytes(p.read_bytes())\n"


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one child process. CPU time is reported too
    because the 2 cores are shared: wall time moves with other people's load, CPU time much less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    res = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode != 0:
        sys.exit(f"failed ({res.returncode}): {' '.join(cmd)}\n{res.stderr[-2000:]}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=60_000, help="approximate size of the generated corpus")
    ap.add_argument("--corpus", type=Path, help="rename this directory instead of generating one")
    ap.add_argument("--classes", default="default", help="--classes passed to rename")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-rename-") as tmp:
        tmp_path = Path(tmp)
        env = dict(os.environ, GROUNDJUDGE_HOME=str(tmp_path / "home"))
        if args.corpus:
            corpus = args.corpus
            lines = sum(len(p.read_bytes().splitlines()) for p in corpus.rglob("*") if p.is_file())
        else:
            corpus = tmp_path / "corpus"
            lines = make_corpus(corpus, args.lines)
        n_files = sum(1 for p in corpus.rglob("*") if p.is_file())
        copy_s, copy_cpu = _timed([sys.executable, "-c", COPY, str(corpus), str(tmp_path / "copy")], env)
        rename_s, rename_cpu = _timed(
            [
                *GJ,
                "rename",
                str(corpus),
                "--out",
                str(tmp_path / "out"),
                "--map-out",
                str(tmp_path / "map.json"),
                "--seed",
                "1",
                "--classes",
                args.classes,
            ],
            env,
        )
        verify_s, verify_cpu = _timed(
            [*GJ, "rename-verify", str(corpus), str(tmp_path / "out"), "--map", str(tmp_path / "map.json")], env
        )
        total, total_cpu = rename_s + verify_s, rename_cpu + verify_cpu
        print(
            f"corpus: {n_files} files, {lines} lines ({'given' if args.corpus else 'generated'}), load average {os.getloadavg()[0]:.2f}"
        )
        print(f"{'':22}   wall s   cpu s")
        print(f"plain read+write copy : {copy_s:7.2f} {copy_cpu:7.2f}")
        print(f"rename                : {rename_s:7.2f} {rename_cpu:7.2f}")
        print(f"rename-verify         : {verify_s:7.2f} {verify_cpu:7.2f}")
        print(f"rename + verify       : {total:7.2f} {total_cpu:7.2f}")
        print(
            f"ratio to the plain copy: {total / copy_s:.1f}x wall, {total_cpu / copy_cpu:.1f}x cpu  (target < 5 s wall: {'met' if total < 5 else 'MISSED'})"
        )


if __name__ == "__main__":
    main()
