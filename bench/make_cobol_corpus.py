"""Write a synthetic fixed-format COBOL corpus (programs, copybooks, JCL) of about N lines, deterministically.

    python bench/make_cobol_corpus.py OUT_DIR [--lines 60000] [--seed 7]

Programs carry what real mainframe code carries and the grammar finds hard: sequence numbers and
columns 73-80, comment and debug lines, EXEC CICS and EXEC SQL blocks, continued literals, COPY,
PERFORM THRU, GO TO, file I/O and 88-levels.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path


def _fixed(lines: list[str], tag: str) -> str:
    """Number lines in columns 1-6 and tag columns 73-80, as card-image source is; each code line's first
    character is its column-7 indicator."""
    out = []
    for i, code in enumerate(lines, start=1):
        indicator, body = code[:1] or " ", code[1:]
        out.append(f"{i * 100:06d}{indicator}{body[:65]:<65}{tag:<8}")
    return "\n".join(out) + "\n"


def copybook(name: str, rng: random.Random) -> list[str]:
    lines = [f"*   {name}: RECORD LAYOUT", f" 01  {name}-REC."]
    for k in range(rng.randint(20, 45)):
        field = f"{name}-F{k:02d}"
        pic = rng.choice(["X(10)", "9(7)", "S9(7)V99 COMP-3", "X(30)", "9(4) COMP", "X"])
        lines.append(f"     05  {field:<24} PIC {pic}.")
        if pic == "X" and rng.random() < 0.7:
            lines.append(f"         88  {field}-YES        VALUE 'Y'.")
            lines.append(f"         88  {field}-NO         VALUE 'N'.")
    return lines


def program(name: str, books: list[str], peers: list[str], rng: random.Random, target: int) -> list[str]:
    lines = [
        " IDENTIFICATION DIVISION.",
        f" PROGRAM-ID. {name}.",
        "*   GENERATED FOR THE INDEX BENCHMARK",
        " ENVIRONMENT DIVISION.",
        " INPUT-OUTPUT SECTION.",
        " FILE-CONTROL.",
        "     SELECT IN-FILE ASSIGN TO INFILE",
        "            ORGANIZATION IS SEQUENTIAL.",
        "     SELECT OUT-FILE ASSIGN TO OUTFILE.",
        " DATA DIVISION.",
        " FILE SECTION.",
        " FD  IN-FILE.",
        " 01  IN-REC                   PIC X(80).",
        " FD  OUT-FILE.",
        " 01  OUT-REC                  PIC X(132).",
        " WORKING-STORAGE SECTION.",
        " 01  WS-FLAGS.",
        "     05  WS-EOF               PIC X VALUE 'N'.",
        "         88  END-OF-FILE      VALUE 'Y'.",
        f" 01  WS-NEXT-PGM              PIC X(8) VALUE '{rng.choice(peers)}'.",
        " 01  WS-MSG                   PIC X(60) VALUE 'A MESSAGE TEXT THAT IS LONG",
        "-    'ER THAN ONE CARD IMAGE'.",
    ]
    for k in range(rng.randint(10, 30)):
        lines.append(f" 01  WS-V{k:03d}                  PIC {rng.choice(['9(5)', 'X(12)', 'S9(9) COMP-3'])}.")
    for b in rng.sample(books, k=min(3, len(books))):
        lines.append(f"     COPY {b}.")
    lines += [" PROCEDURE DIVISION.", " 0000-MAIN.", "     PERFORM 1000-INIT THRU 1000-INIT-EXIT"]
    # each paragraph below costs about ten lines, its PERFORM one more
    paras = [f"{2000 + n * 10:04d}-STEP-{n:03d}" for n in range(1, max(2, (target - len(lines)) // 11))]
    lines += [f"     PERFORM {para}" for para in paras]
    lines += ["     GOBACK.", " 1000-INIT.", "     OPEN INPUT IN-FILE OUTPUT OUT-FILE", " 1000-INIT-EXIT.", "     EXIT."]
    for k, para in enumerate(paras):
        body = [f" {para}."]
        choice = rng.random()
        if choice < 0.15:
            body += ["     EXEC CICS READ", f"          DATASET('{name[:4]}DAT')", "          INTO(IN-REC)", "     END-EXEC"]
        elif choice < 0.25:
            body += [
                "     EXEC SQL",
                "         SELECT COL1 INTO :WS-V000",
                f"           FROM TBL{k % 7} WHERE ID = 1",
                "     END-EXEC",
            ]
        elif choice < 0.35:
            body += ["     EXEC CICS XCTL PROGRAM(WS-NEXT-PGM) END-EXEC"]
        elif choice < 0.45:
            body += [f"     CALL '{rng.choice(peers)}' USING WS-FLAGS"]
        elif choice < 0.55:
            body += ["     READ IN-FILE AT END SET END-OF-FILE TO TRUE END-READ", "     WRITE OUT-REC"]
        elif choice < 0.6:
            body += ["D    DISPLAY 'TRACE'"]
        body += ["*   A COMMENT LINE INSIDE THE PARAGRAPH"] if rng.random() < 0.3 else []
        body += ["     IF WS-EOF = 'Y'", "        MOVE 1 TO WS-V000", "     ELSE", "        ADD 1 TO WS-V000", "     END-IF."]
        lines += body
    return lines


def generate(out: Path, lines: int = 60_000, seed: int = 7) -> tuple[int, int]:
    """Write the corpus; returns (files, lines) written."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    books = [f"CPY{k:03d}" for k in range(max(4, lines // 1500))]
    written = files = 0
    for b in books:
        text = _fixed(copybook(b, rng), b)
        (out / "cpy").mkdir(exist_ok=True)
        (out / "cpy" / f"{b}.cpy").write_text(text)
        written += text.count("\n")
        files += 1
    names = [f"PGM{k:05d}" for k in range(max(2, (lines - written) // 300))]  # CALL/XCTL targets
    for name in names:
        if written >= lines:
            break
        text = _fixed(program(name, books, names, rng, rng.randint(300, 600)), name)
        (out / "cbl").mkdir(exist_ok=True)
        (out / "cbl" / f"{name}.cbl").write_text(text)
        written += text.count("\n")
        files += 1
    return files, written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="Directory to write the corpus into.")
    ap.add_argument("--lines", type=int, default=60_000, help="Approximate total lines.")
    ap.add_argument("--seed", type=int, default=7, help="Random seed (same seed, same corpus).")
    args = ap.parse_args()
    files, written = generate(args.out, args.lines, args.seed)
    print(f"{files} files, {written} lines in {args.out}")


if __name__ == "__main__":
    main()
