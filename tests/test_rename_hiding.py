"""Issue M: a renamed corpus must not be recognisable. Dataset names read through placeholders, names
glued into longer tokens and literals, only corpus-defined names renamed, the leak report, Python
packages that still import and test the same."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from groundjudge.cli import app

runner = CliRunner()


def _run(*args):
    return runner.invoke(app, [str(a) for a in args])


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def _rename(root: Path, tmp: Path, *extra, name: str = "out") -> tuple[Path, dict]:
    out, m = tmp / name, tmp / f"{name}.json"
    res = _run("rename", root, "--out", out, "--map-out", m, "--seed", 1, *extra)
    assert res.exit_code == 0, res.output
    return out, json.loads(m.read_text())


def _verify(root: Path, out: Path, tmp: Path, name: str = "out") -> dict:
    res = _run("rename-verify", root, out, "--map", tmp / f"{name}.json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout) | {"stderr": res.stderr}


def test_dataset_names_are_read_through_placeholders(tmp_path):
    root = _write(
        tmp_path / "ph",
        {
            "job1.jcl": "//MYJOBX1 JOB 1,'X',CLASS=A\n//S1 EXEC PGM=IDCAMS\n//DDOUT DD DISP=SHR,DSN=<USRHLQ>.GENAPP.KSDSCUST\n",
            "job2.jcl": "//MYJOBX2 JOB 1,NOTIFY=&SYSUID\n//S1 EXEC PGM=IEFBR14\n//A DD DSN=&SYSUID..ZAPPO.POLY,DISP=SHR\n"
            "//B DD DSN=&HLQ.ZAPPO.HIST(+1),DISP=SHR\n//SYSIN DD *\n  DEFINE CLUSTER (NAME(<USRHLQ>.ZAPPO.CUSTX))\n",
        },
    )
    out, m = _rename(root, tmp_path)
    assert {m["classes"][q] for q in ("GENAPP", "KSDSCUST", "ZAPPO", "POLY", "HIST", "CUSTX")} == {"dataset"}
    new = m["identifiers"]
    assert "USRHLQ" not in new and "SYSUID" not in new and "HLQ" not in new
    assert f"DSN=<USRHLQ>.{new['GENAPP']}.{new['KSDSCUST']}" in (out / "job1.jcl").read_text()
    job2 = (out / "job2.jcl").read_text()
    assert f"DSN=&SYSUID..{new['ZAPPO']}.{new['POLY']}" in job2 and f"NAME(<USRHLQ>.{new['ZAPPO']}.{new['CUSTX']})" in job2
    assert "ZAPPO" not in job2.upper()
    _verify(root, out, tmp_path)
