"""rename / rename-questions / rename-verify end to end on the hand-built mini corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _rename_helpers import BINARY_BYTES, LEGACY_BYTES, make_bank, write_questions
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.errors import UserError
from groundjudge.grounding.snapshot import open_corpus
from groundjudge.rename.apply import check_map

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def bank(tmp_path) -> Path:
    return make_bank(tmp_path)


def _rename(bank: Path, tmp: Path, seed: int = 7, *extra: str, name: str = "out") -> tuple[Path, dict]:
    out, m = tmp / name, tmp / f"{name}.json"
    res = _run("rename", bank, "--out", out, "--map-out", m, "--seed", seed, *extra)
    assert res.exit_code == 0, res.output
    return out, json.loads(m.read_text())


# The classes that were the default before issue M round 2 (no data names, paragraphs, BMS fields or
# transactions): the tests of occurrences, keep/include and questions read data names unrenamed.
STRUCTURE = ("--classes", "program,copybook,jcl_job,jcl_proc,bms_mapset,bms_map,dataset,db2_plan")


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_default_classes_and_what_is_never_renamed(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    classes = m["classes"]
    assert classes == {
        "ACCTPGM": "program",
        "ACCTSUB": "program",
        "ACCTSET": "bms_mapset",
        "ACCTMAP": "bms_map",
        "ACCTMAPI": "bms_symbolic_map",
        "ACCTMAPO": "bms_symbolic_map",
        "ACCTREC": "copybook",
        "ACCTTAG": "copybook",
        "ACCTLDG": "copybook",
        "ACCTPRC": "jcl_proc",
        "ACCTJOB": "jcl_job",
        "ACCTFIL": "dataset",  # ACCTFIL2 is renamed through its part ACCTFIL (issue M)
        "BANKX": "dataset",
        "PRODA": "dataset",
        "ACCTMAST": "dataset",
        "ACT1": "transaction",
        "1000-INIT": "paragraph",
        "MAIN-PARA": "paragraph",
        "ACCTNM": "bms_field",
        **dict.fromkeys(("ACCTNML", "ACCTNMF", "ACCTNMI", "ACCTNMO"), "bms_field_suffixed"),
        "ACCT": "data_name",  # ACCT-ID, WS-ACCT-ID, ACCT-BAL are renamed through their part ACCT
        "WS-FILE": "data_name",
        # the job's steps and its DD, and the COBOL ASSIGN that names that DD
        "STEP1": "jcl_step",
        "STEP2": "jcl_step",
        "ACCTDD": "jcl_dd",
        "S-ACCTDD": "assign_name",
    }
    assert m["derived_from"] == {
        "ACCTMAPI": "ACCTMAP",
        "ACCTMAPO": "ACCTMAP",
        **dict.fromkeys(("ACCTNML", "ACCTNMF", "ACCTNMI", "ACCTNMO"), "ACCTNM"),
        "S-ACCTDD": "ACCTDD",
    }
    # names defined outside the repository and system datasets stay
    for kept in ("CEEDAYS", "DFHAID", "IEFBR14", "SYS1", "LINKLIB"):
        assert kept not in m["identifiers"]
    new = m["identifiers"]
    pgm = (out / f"cbl/{new['ACCTPGM']}.cbl").read_text()
    assert "CEEDAYS" in pgm and "COPY DFHAID." in pgm
    assert "SYS1.LINKLIB" in next((out / "jcl").iterdir()).read_text()


def test_every_occurrence_moves_comments_literals_case_and_derived_names(bank, tmp_path):
    out, m = _rename(bank, tmp_path, 7, *STRUCTURE)
    new = m["identifiers"]
    P, S, MAP, SET = new["ACCTPGM"], new["ACCTSUB"], new["ACCTMAP"], new["ACCTSET"]
    pgm = (out / f"cbl/{P}.cbl").read_text().splitlines()
    assert pgm[0][72:] == P  # identification area
    assert pgm[1] == f"000200  PROGRAM-ID. {P}."
    assert pgm[2] == f"000300*{P} reads the account master; see also {S.lower()}."  # comment, lower case
    assert f"CALL '{S}' USING ACCT" in pgm[17]
    assert f"LINK PROGRAM('{S}')" in pgm[19] and f"XCTL PROGRAM('{S}')" in pgm[28]
    assert f"DATASET('{new['ACCTFIL']}')" in pgm[20]
    assert f"VALUE '{new['ACCTFIL']}2'" in pgm[8]
    assert f"MAP('{MAP}') MAPSET('{SET}')" in pgm[24]
    assert f"ACCTNMO OF {MAP}O" in pgm[23] and f"FROM({MAP}O)" in pgm[25]
    assert f"COPY {SET}." in pgm[13]
    assert f"'{P[0]}{P[1:].lower()} done'" in pgm[26]  # mixed case kept per occurrence
    assert f"INTO({MAP}I)" in pgm[27]
    # data names are a class of their own: untouched without it, hyphenated relatives too
    assert "MOVE ACCT-ID TO WS-ACCT-ID" in pgm[16]
    jcl = (out / f"jcl/{new['ACCTJOB']}.jcl").read_text()
    assert f"//{new['ACCTJOB']}  JOB" in jcl and f"EXEC PGM={P}" in jcl and f"EXEC {new['ACCTPRC']}" in jcl
    assert f"DSN={new['BANKX']}.{new['PRODA']}.{new['ACCTMAST']},DISP=SHR" in jcl
    bms = (out / f"bms/{SET}.bms").read_text()
    assert bms.startswith(f"{SET}  DFHMSD") and f"\n{MAP}  DFHMDI" in bms
    csd = (out / "csd/BANK.csd").read_text()
    assert f"PROGRAM({P})" in csd and f"FILE({new['ACCTFIL']})" in csd


def test_file_and_directory_names_and_verbatim_files(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    new = m["identifiers"]
    files = _tree(out)
    assert f"{new['ACCTSUB']}/notes.md" in files  # directory named after a program
    assert f"cbl/{new['ACCTPGM']}.cbl" in files and f"cpy/{new['ACCTREC']}.cpy" in files
    # a Latin-1 text file is renamed like any other and written back in Latin-1
    assert files["data/legacy.dat"] == LEGACY_BYTES.replace(b"ACCTPGM", new["ACCTPGM"].encode())
    assert files[f"data/{new['ACCTPGM']}.bin"] == BINARY_BYTES  # renamed path, identical bytes
    assert sorted(m["copied_verbatim"]) == ["data/ACCTPGM.bin"]
    assert len(files) == len(_tree(bank))


def test_rerun_is_byte_identical_and_another_seed_differs(bank, tmp_path):
    a, ma = _rename(bank, tmp_path, 7, name="a")
    b, mb = _rename(bank, tmp_path, 7, name="b")
    _c, mc = _rename(bank, tmp_path, 8, name="c")
    assert _tree(a) == _tree(b) and ma == mb
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert ma["identifiers"] != mc["identifiers"]
    assert ma["corpus_tree_hash"] == open_corpus(bank).tree_hash == mc["corpus_tree_hash"]
    assert ma["renamed_tree_hash"] == open_corpus(a).tree_hash


def test_several_seeds_in_one_call(bank, tmp_path):
    res = _run("rename", bank, "--out", tmp_path / "r", "--map-out", tmp_path / "m.json", "--seeds", "1,2,3")
    assert res.exit_code == 0, res.output
    maps = [json.loads((tmp_path / f"m-{s}.json").read_text()) for s in (1, 2, 3)]
    assert [m["seed"] for m in maps] == [1, 2, 3]
    assert len({m["identifiers"]["ACCTPGM"] for m in maps}) == 3
    for s in (1, 2, 3):
        res = _run("rename-verify", bank, tmp_path / f"r-{s}", "--map", tmp_path / f"m-{s}.json")
        assert res.exit_code == 0, res.output


def test_existing_output_is_refused_unless_force(bank, tmp_path):
    out, _ = _rename(bank, tmp_path)
    (out / "stale.txt").write_text("old")
    res = _run("rename", bank, "--out", out, "--map-out", tmp_path / "m2.json", "--seed", 9)
    assert res.exit_code == 2 and "output exists" in res.output and not (tmp_path / "m2.json").exists()
    res = _run("rename", bank, "--out", out, "--map-out", tmp_path / "m2.json", "--seed", 9, "--force")
    assert res.exit_code == 0 and not (out / "stale.txt").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]  # no temp dirs left behind


def test_a_colliding_map_is_refused_before_anything_is_written(bank, tmp_path, monkeypatch):
    with pytest.raises(UserError, match="both become"):
        check_map({"ACCTPGM": "QQQQQQQ", "ACCTSUB": "QQQQQQQ"}, set())
    with pytest.raises(UserError, match="a token already in the corpus"):
        check_map({"ACCTPGM": "ACCTJOB"}, {"ACCTJOB"})
    with pytest.raises(UserError, match="itself a renamed original"):
        check_map({"ACCTPGM": "ACCTSUB", "ACCTSUB": "QWERTYU"}, set())
    # force the generator to hand two programs the same token: the CLI stops with one line, writes nothing
    import groundjudge.rename.mapping as mapping

    monkeypatch.setattr(mapping, "generate", lambda originals, *a, **k: ({n: "QZQZQZQ" for n, _, _ in originals}, []))
    res = _run("rename", bank, "--out", tmp_path / "x", "--map-out", tmp_path / "x.json", "--seed", 1)
    assert res.exit_code == 2 and "map collision" in res.output
    assert not (tmp_path / "x").exists() and not (tmp_path / "x.json").exists()


def test_verify_is_clean_and_counts_per_class(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json", "--report", tmp_path / "rep.json")
    assert res.exit_code == 0, res.output
    rep = json.loads((tmp_path / "rep.json").read_text())
    assert rep["ok"] and all(c["ok"] for c in rep["checks"])
    assert rep["files"] == 13 and rep["copied_verbatim"] == ["data/ACCTPGM.bin"]
    assert rep["identifiers_per_class"]["program"] == 2 and rep["identifiers_per_class"]["bms_symbolic_map"] == 2
    # ACCTPGM: hand count of its occurrences in contents and paths of the mini corpus
    # cbl/ACCTPGM.cbl: ident area, PROGRAM-ID, comment, 'Acctpgm done' = 4; file name = 1;
    # jcl: comment + PGM= = 2; csd: 1; notes.md: 4 (ACCTPGM twice, acctpgm, Acctpgm);
    # data/legacy.dat (Latin-1 text) = 1; data/ACCTPGM.bin path = 1 (contents are binary, untouched)  -> 14
    text = "".join(t.decode("latin-1") for t in _tree(bank).values() if b"\0" not in t)
    paths = "\n".join(_tree(bank))
    in_files = len(re.findall(r"(?<![A-Za-z0-9_-])acctpgm(?![A-Za-z0-9_-])", text, re.I))
    in_paths = len(re.findall(r"ACCTPGM", paths))
    assert in_files + in_paths == 14
    # ACCTSUB: ACCTPGM.cbl comment, CALL, LINK, XCTL = 4; ACCTSUB.cbl ident area, PROGRAM-ID, file
    # name = 3; proc PGM= = 1; notes.md text and its directory = 2  -> 10; programs 14 + 10 = 24
    assert rep["occurrences_per_class"]["program"] == 24 == m["occurrences"]["program"]


@pytest.mark.parametrize(
    "tamper, failing",
    [
        (lambda t: t.replace("DATA DIVISION.", "DATA DIVISXON."), "only_mapped_tokens_differ"),
        (lambda t: t.replace("DATA DIVISION.", "DATA DIVISION. "), "line_lengths"),
        (lambda t: t + "000999 EXTRA LINE.\n", "line_counts"),
    ],
)
def test_verify_catches_a_tampered_tree(bank, tmp_path, tamper, failing):
    out, m = _rename(bank, tmp_path)
    f = out / f"cbl/{m['identifiers']['ACCTPGM']}.cbl"
    f.write_text(tamper(f.read_text()))
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json")
    assert res.exit_code == 1
    rep = json.loads(res.stdout)
    assert not rep["ok"] and failing in [c["name"] for c in rep["checks"] if not c["ok"]]


def test_verify_catches_an_original_left_behind(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    f = out / "ACCTSUB/notes.md".replace("ACCTSUB", m["identifiers"]["ACCTSUB"])
    f.write_text(f.read_text().replace(m["identifiers"]["ACCTPGM"], "ACCTPGM", 1))
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json")
    rep = json.loads(res.stdout)
    assert res.exit_code == 1
    bad = {c["name"]: c["failures"] for c in rep["checks"] if not c["ok"]}
    assert list(bad) == ["mapped_tokens_replaced", "no_original_left"]
    where = "ACCTSUB/notes.md:3"  # failures name the original file and line
    assert bad["mapped_tokens_replaced"] == [f"{where}: 'ACCTPGM' became 'ACCTPGM', expected '{m['identifiers']['ACCTPGM']}'"]
    assert bad["no_original_left"] == [f"{where}: 'ACCTPGM' is a mapped original"]
    summary = res.stderr.splitlines()
    # 8 directories (cbl cpy bms jcl proc csd data ACCTSUB); text lines 29+13+2+1+1+7+6+8+4+2+4 = 77, and
    # the one line of the Latin-1 data/legacy.dat = 78
    assert summary[0] == "rename-verify: FAILED 2 of 13 checks; 13 files, 8 directories, 78 lines"
    assert "  FAIL no_original_left: 1 failure(s)" in summary and f"    {where}: 'ACCTPGM' is a mapped original" in summary


def test_verify_refuses_a_map_for_another_corpus(bank, tmp_path):
    out, _ = _rename(bank, tmp_path)
    (bank / "extra.txt").write_text("x\n")
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json")
    rep = json.loads(res.stdout)
    assert res.exit_code == 1 and {"map_matches_corpus", "file_count", "paths"} <= {
        c["name"] for c in rep["checks"] if not c["ok"]
    }


def test_opt_in_classes_and_copy_replacing(bank, tmp_path):
    out, m = _rename(bank, tmp_path, 7, "--classes", "default,paragraph,data_name,jcl_step,jcl_dd,transaction")
    new, cls = m["identifiers"], m["classes"]
    assert cls["MAIN-PARA"] == cls["1000-INIT"] == "paragraph" and cls["ACT1"] == "transaction"
    assert cls["STEP1"] == "jcl_step" and cls["ACCTDD"] == "jcl_dd" and cls["S-ACCTDD"] == "assign_name"
    assert "STEP$3" not in new and m["kept"]["STEP$3"].startswith("contains $, # or @")
    assert new["S-ACCTDD"] == "S-" + new["ACCTDD"]
    assert re.fullmatch(r"\d{4}-[A-Z]{4}", new["1000-INIT"])
    # ACCT-ID is renamed through its part ACCT (issue M: a longer name keeps its shape)
    assert cls["ACCT"] == "data_name" and "ACCT-ID" not in new
    # WS-ACCT-ID is what COPY ACCTTAG REPLACING ==:TAG:== BY ==WS== builds from ':TAG:-ACCT-ID':
    # renaming it alone would break the expansion, so it is pinned (and untouched by its relatives)
    assert "WS-ACCT-ID" not in new and m["kept"]["WS-ACCT-ID"] == "built by COPY ACCTTAG REPLACING ==:TAG:== BY ==WS=="
    # a LEADING partial-word REPLACING operand pins the names that carry it
    assert "LDG-ACCT-NAME" not in new and m["kept"]["LDG-ACCT-NAME"].startswith("partial-word COPY ACCTLDG")
    pgm = (out / f"cbl/{new['ACCTPGM']}.cbl").read_text()
    assert f"MOVE {new['ACCT']}-ID TO WS-ACCT-ID" in pgm
    # :TAG: pseudo-text: the copybook keeps ':TAG:-' and its fragment, the operands stay consistent
    tag = (out / f"cpy/{new['ACCTTAG']}.cpy").read_text()
    assert ":TAG:-ACCT-ID" in tag and f"COPY {new['ACCTTAG']} REPLACING ==:TAG:== BY ==WS==." in pgm
    sub = (out / f"cbl/{new['ACCTSUB']}.cbl").read_text()
    assert f"ASSIGN TO S-{new['ACCTDD']}." in sub
    # symbolic-map data names move with the BMS map and field they are made from, even though they
    # are also data names defined in a copybook
    assert cls["ACCTMAPI"] == "bms_symbolic_map" and new["ACCTMAPI"] == new["ACCTMAP"] + "I"
    assert cls["ACCTNM"] == "bms_field"
    for suffix in "LFIO":
        assert cls[f"ACCTNM{suffix}"] == "bms_field_suffixed" and new[f"ACCTNM{suffix}"] == new["ACCTNM"] + suffix
    assert "ACCTNMA" not in new  # not in the corpus, so no entry
    bms = (out / f"bms/{new['ACCTSET']}.bms").read_text()
    assert f"\n{new['ACCTNM']}   DFHMDF" in bms
    # USERID is CICS vocabulary, so the field keeps its name and so does its symbolic-map name
    assert "USERIDI" not in new and m["kept"]["USERIDI"] == "symbolic-map name of USERID, which is not renamed"
    assert "\nUSERID   DFHMDF" in bms
    jcl = (out / f"jcl/{new['ACCTJOB']}.jcl").read_text()
    assert f"//{new['ACCTDD']}   DD DSN" in jcl and f"//{new['STEP1']}    EXEC PGM=" in jcl
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json")
    assert res.exit_code == 0, res.output


def test_symbolic_map_names_stay_when_their_map_is_not_renamed(bank, tmp_path):
    _, m = _rename(bank, tmp_path, 7, "--classes", "data_name")
    assert "ACCTMAP" not in m["identifiers"] and "ACCTMAPI" not in m["identifiers"]
    assert m["kept"]["ACCTMAPO"] == "symbolic-map name of ACCTMAP, which is not renamed"
    assert m["classes"]["ACCTNMI"] == "bms_field_suffixed"  # data_name brings the BMS fields along


def test_keep_include_exclude(bank, tmp_path):
    (tmp_path / "keep.txt").write_text("# domain words\nACCTMAST\n")
    (tmp_path / "inc.txt").write_text("ACCT-BAL\nMOVE\n")
    (tmp_path / "exc.txt").write_text("acctsub\n")
    _, m = _rename(
        bank,
        tmp_path,
        7,
        *STRUCTURE,
        "--keep",
        tmp_path / "keep.txt",
        "--include",
        tmp_path / "inc.txt",
        "--exclude",
        tmp_path / "exc.txt",
    )
    assert m["kept"]["ACCTMAST"] == "--keep" and m["kept"]["ACCTSUB"] == "--exclude"
    assert m["kept"]["MOVE"].startswith("reserved word")
    assert m["classes"]["ACCT-BAL"] == "data_name"  # included, class known from discovery
    assert set(m["inputs_sha256"]) == {"keep", "include", "exclude"}
    assert not any("ACCTMAST" in t.upper() for t in m["identifiers"].values())


def test_bad_inputs_are_one_line_errors(bank, tmp_path):
    res = _run("rename", tmp_path / "nope", "--out", tmp_path / "o", "--map-out", tmp_path / "m.json", "--seed", 1)
    assert res.exit_code == 2 and "does not exist" in res.output
    res = _run("rename", bank, "--out", tmp_path / "o", "--map-out", tmp_path / "m.json", "--seed", 1, "--classes", "programs")
    assert res.exit_code == 2 and "unknown class 'programs'" in res.output
    res = _run("rename", bank, "--out", tmp_path / "o", "--map-out", tmp_path / "m.json", "--seed", 1, "--seeds", "1,2")
    assert res.exit_code == 2 and "not both" in res.output
    (tmp_path / "bad.json").write_text("{}")
    res = _run("rename-verify", bank, bank, "--map", tmp_path / "bad.json")
    assert res.exit_code == 2 and "invalid RenameMap" in res.output


def test_questions_are_renamed_with_the_same_map(bank, tmp_path):
    out, m = _rename(bank, tmp_path, 7, *STRUCTURE)
    q1 = write_questions(tmp_path / "q.jsonl")
    q2 = tmp_path / "q2.jsonl"
    res = _run("rename-questions", q1, "--map", tmp_path / "out.json", "--out", q2)
    assert res.exit_code == 0, res.output
    a = [json.loads(x) for x in q1.read_text().splitlines()]
    b = [json.loads(x) for x in q2.read_text().splitlines()]
    new = m["identifiers"]
    assert b[0]["text"] == f"What does {new['ACCTPGM']} do with ACCT-ID before it calls {new['ACCTSUB']}?"
    assert b[0]["must_touch"] == [f"cbl/{new['ACCTPGM']}.cbl", new["ACCTSUB"]]
    assert b[1]["text"] == f"Which job runs {new['ACCTPGM'].lower()}, and which dataset does the ACCTDD DD read?"
    for qa, qb in zip(a, b):
        assert {k: v for k, v in qa.items() if k not in ("text", "must_touch")} == {
            k: v for k, v in qb.items() if k not in ("text", "must_touch")
        }
        assert list(qa) == list(qb)
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json", "--questions", q1, q2)
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert {"question_ids", "question_labels", "question_text_lengths"} <= {c["name"] for c in rep["checks"]}
    # a label changed in the renamed set fails verification
    b[1]["difficulty"] = "hard"
    q2.write_text("".join(json.dumps(x) + "\n" for x in b))
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json", "--questions", q1, q2)
    assert res.exit_code == 1 and "question_labels" in [c["name"] for c in json.loads(res.stdout)["checks"] if not c["ok"]]


def test_an_interrupted_write_leaves_neither_tree_nor_temp_dir(bank, tmp_path, monkeypatch):
    calls = {"n": 0}
    real = Path.write_bytes

    def failing(self, data):
        calls["n"] += 1
        if calls["n"] == 4:
            raise OSError("disk full")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing)
    res = runner.invoke(
        app,
        ["rename", str(bank), "--out", str(tmp_path / "out"), "--map-out", str(tmp_path / "m.json"), "--seed", "1"],
        catch_exceptions=False,
    )
    assert res.exit_code == 2 and res.output == f"error: {tmp_path / 'out'}: cannot write the renamed tree (disk full)\n"
    assert calls["n"] == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bank"]


def test_unwritable_outputs_are_found_before_anything_is_written(bank, tmp_path):
    (tmp_path / "plain").write_text("a file, not a directory")
    res = _run("rename", bank, "--out", tmp_path / "o", "--map-out", tmp_path / "plain/m.json", "--seed", 1)
    assert res.exit_code == 2 and "plain/m.json: cannot create its directory" in res.output
    (tmp_path / "mapdir").mkdir()
    res = _run("rename", bank, "--out", tmp_path / "o", "--map-out", tmp_path / "mapdir", "--seed", 1)
    assert res.exit_code == 2 and "map output is a directory" in res.output
    assert not (tmp_path / "o").exists()
    res = _run("rename", bank, "--out", tmp_path / "o", "--map-out", tmp_path / "m.json", "--seeds", " , ")
    assert res.exit_code == 2 and "--seeds lists no seed" in res.output


def test_output_inside_the_corpus_is_refused(bank, tmp_path):
    res = _run("rename", bank, "--out", bank / "renamed", "--map-out", tmp_path / "m.json", "--seed", 1)
    assert res.exit_code == 2 and "inside the corpus" in res.output and not (bank / "renamed").exists()


def test_a_renamed_question_line_keeps_its_json_layout():
    from groundjudge.rename.mapping import Lookup
    from groundjudge.rename.phrase import Phrases
    from groundjudge.rename.questions import rename_question_lines

    lookup = Lookup({"ACCTPGM": "QZXWVKJ"}, {"ACCTPGM": "program"})
    compact = '{"id":"q1","text":"Does ACCTPGM log \u00e9v\u00e9nements?","category":"flow"}\n'
    spaced = '{"id": "q1", "text": "Does ACCTPGM log \\u00e9v\\u00e9nements?", "category": "flow"}\n'
    assert rename_question_lines(compact, lookup, Phrases({})) == compact.replace("ACCTPGM", "QZXWVKJ")
    assert rename_question_lines(spaced, lookup, Phrases({})) == spaced.replace("ACCTPGM", "QZXWVKJ")


def test_a_routine_in_another_language_is_a_program_when_called_and_present(tmp_path):
    root = tmp_path / "mixed"
    for d in ("cbl", "asm", "jcl"):
        (root / d).mkdir(parents=True)
    (root / "cbl/CALLERP.cbl").write_text(
        "000100 PROGRAM-ID. CALLERP.\n000200     CALL 'DATEFMT' USING X\n000300     CALL 'CEEDAYS' USING X.\n"
    )
    (root / "asm/DATEFMT.asm").write_text("DATEFMT  CSECT\n         BR    14\n")
    (root / "asm/WAITASM.asm").write_text("WAITASM  CSECT\n")
    (root / "asm/UNUSED1.asm").write_text("UNUSED1  CSECT\n")
    (root / "jcl/RUNWAIT.jcl").write_text("//RUNWAIT  JOB\n//STEP1    EXEC PGM=WAITASM\n")
    out, m = _rename(root, tmp_path)
    assert {k: v for k, v in m["classes"].items() if v == "program"} == {
        "CALLERP": "program",
        "DATEFMT": "program",
        "WAITASM": "program",
    }
    new = m["identifiers"]
    assert (out / f"asm/{new['DATEFMT']}.asm").read_text().startswith(f"{new['DATEFMT']}  CSECT")
    assert f"CALL '{new['DATEFMT']}'" in (out / f"cbl/{new['CALLERP']}.cbl").read_text()
    assert f"EXEC PGM={new['WAITASM']}" in (out / f"jcl/{new['RUNWAIT']}.jcl").read_text()
    # nothing calls UNUSED1 and no file is named CEEDAYS: neither is a program of the repository; UNUSED1
    # is still the label its own assembler source defines, so it is renamed as that (issue M round 3)
    assert m["classes"]["UNUSED1"] == "variable" and "CEEDAYS" not in new


def test_names_carried_inside_longer_tokens_are_renamed_and_what_stays_is_listed(tmp_path):
    # Replaces the old "residual parts" measure, which left PAYCALC-PARM and paycalc_v2 in place: the
    # parts are now renamed, and only a token fixed outside the corpus (DFHPAYCALC) keeps one.
    root = tmp_path / "pay"
    (root / "cbl").mkdir(parents=True)
    (root / "cbl/PAYCALC.cbl").write_text(
        "000100 PROGRAM-ID. PAYCALC.\n"
        "000200 01  PAYCALC-PARM     PIC X.\n"
        "000300 PROCEDURE DIVISION.\n"
        "000400     MOVE 'Y' TO PAYCALC-PARM\n"
        "000500* paycalc_v2 reads WS-PAYCALCX and DFHPAYCALC\n"
    )
    q1 = tmp_path / "q.jsonl"
    q1.write_text(json.dumps({"id": "q1", "text": "What is PAYCALC-PARM for?", "category": "c", "difficulty": "easy"}) + "\n")
    out, m = _rename(root, tmp_path, 3)
    q2 = tmp_path / "q2.jsonl"
    assert _run("rename-questions", q1, "--map", tmp_path / "out.json", "--out", q2).exit_code == 0
    res = _run("rename-verify", root, out, "--map", tmp_path / "out.json", "--questions", q1, q2)
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    p = m["identifiers"]["PAYCALC"]
    text = (out / f"cbl/{p}.cbl").read_text()
    assert f"MOVE 'Y' TO {p}-PARM" in text and f"* {p.lower()}_v2 reads WS-{p}X and DFHPAYCALC" in text
    assert json.loads(q2.read_text())["text"] == f"What is {p}-PARM for?"
    assert rep["leftover_count"] == 1 and rep["leftover_per_class"] == {"program": 1}
    assert rep["leftovers"] == ["cbl/PAYCALC.cbl:5: 'DFHPAYCALC' carries 'PAYCALC' (system prefix)"]
    assert rep["question_leftover_per_class"] == {}
    assert "kept: 1 renamed names left in the corpus (program 1)" in res.stderr


def test_db2_plans_are_renamed_except_ibm_supplied_ones(tmp_path):
    root = tmp_path / "db2"
    (root / "jcl").mkdir(parents=True)
    (root / "jcl/RUNRPT.jcl").write_text(
        "//RUNRPT   JOB\n//SYSTSIN  DD *\n  RUN PROGRAM(RPTPGM1) PLAN(RPTPLN1)\n  RUN PROGRAM(DSNTIAUL) PLAN(DSNTIAUL)\n"
    )
    (root / "RPTDEF.csd").write_text("DEFINE TRANSACTION(RP01) PROGRAM(RPTPGM1) PLAN(RPTPLN1)\n")
    out, m = _rename(root, tmp_path)
    assert m["classes"]["RPTPLN1"] == "db2_plan" and m["kept"]["DSNTIAUL"] == "IBM-supplied DB2 plan (DSN prefix)"
    p = m["identifiers"]["RPTPLN1"]
    assert f"PLAN({p})\n  RUN PROGRAM(DSNTIAUL) PLAN(DSNTIAUL)" in (out / f"jcl/{m['identifiers']['RUNRPT']}.jcl").read_text()
    assert (out / "RPTDEF.csd").read_text().endswith(f"PLAN({p})\n")


def test_a_placeholder_qualifier_is_not_renamed_so_picture_strings_stay(tmp_path):
    root = tmp_path / "ph"
    (root / "cbl").mkdir(parents=True)
    (root / "cbl/PICPGM1.cbl").write_text("000100 PROGRAM-ID. PICPGM1.\n000200 01  WS-NAME  PIC XXXXXXXX.\n")
    (root / "JOBDEF.jcl").write_text("//JOBDEF   JOB\n//IN       DD DSN=XXXXXXXX.ACMEQ.MASTER,DISP=SHR\n")
    out, m = _rename(root, tmp_path)
    assert m["kept"]["XXXXXXXX"] == "placeholder (one repeated character)" and m["classes"]["ACMEQ"] == "dataset"
    assert "PIC XXXXXXXX." in (out / f"cbl/{m['identifiers']['PICPGM1']}.cbl").read_text()


def test_names_built_by_tag_replacing_stay_consistent_after_expansion(tmp_path):
    # CardDemo's CSSETATY pattern: a copybook of code with (TAG) pseudo-text glued into words
    root = tmp_path / "tags"
    for d in ("cbl", "cpy", "bms"):
        (root / d).mkdir(parents=True)
    (root / "cpy/SETATTR.cpy").write_text(
        "           IF FLG-(TESTVAR1)-NOT-OK\n               MOVE DFHRED TO (SCRNVAR2)C OF (MAPNAME3)O\n           END-IF\n"
    )
    (root / "cbl/UPDPGM1.cbl").write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. UPDPGM1.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n       01  WS-FLAGS.\n           05  ACCT-STATUS PIC X.\n"
        "               88  FLG-ACCT-STATUS-NOT-OK VALUE 'N'.\n       COPY UPDSET.\n"
        "       PROCEDURE DIVISION.\n           COPY SETATTR REPLACING\n"
        "             ==(TESTVAR1)== BY ==ACCT-STATUS==\n             ==(SCRNVAR2)== BY ==ACSTTUS==\n"
        "             ==(MAPNAME3)== BY ==UPDMAPA== .\n           GOBACK.\n"
    )
    (root / "bms/UPDSET.bms").write_text(
        "UPDSET   DFHMSD TYPE=&SYSPARM,MODE=INOUT\nUPDMAPA  DFHMDI SIZE=(24,80)\nACSTTUS  DFHMDF POS=(1,1),LENGTH=1\n"
    )
    (root / "cpy/UPDSET.cpy").write_text(
        "       01  UPDMAPAI.\n           05  ACSTTUSC PIC X.\n       01  UPDMAPAO REDEFINES UPDMAPAI.\n           05  ACSTTUSO PIC X.\n"
    )
    out, m = _rename(root, tmp_path, 4, "--classes", "all")
    new, kept = m["identifiers"], m["kept"]
    assert kept["FLG-ACCT-STATUS-NOT-OK"] == "built by COPY SETATTR REPLACING ==(TESTVAR1)== BY ==ACCT-STATUS=="
    assert kept["ACCT-STATUS"] == "glued into names of COPY SETATTR by REPLACING ==(TESTVAR1)=="
    # a BMS field or map glued to a symbolic-map suffix needs no pin: the suffixed name moves with it
    assert m["classes"]["ACSTTUS"] == "bms_field" and new["ACSTTUSC"] == new["ACSTTUS"] + "C"
    assert new["UPDMAPAO"] == new["UPDMAPA"] + "O"
    # expand the renamed copybook with the renamed program's REPLACING pairs, as the compiler would:
    # every word it builds must be defined in the renamed program or its symbolic map
    prog = (out / f"cbl/{new['UPDPGM1']}.cbl").read_text()
    pairs = dict(re.findall(r"==(\(\w+\))== BY ==([\w-]+)==", prog))
    # the tags are the program's and the copybook's own placeholders: renamed alike in both (issue M round 3)
    tags = ("TESTVAR1", "SCRNVAR2", "MAPNAME3")
    assert {m["classes"][t] for t in tags} == {"variable"} and set(pairs) == {f"({new[t]})" for t in tags}
    expanded = (out / f"cpy/{new['SETATTR']}.cpy").read_text()
    for tag, operand in pairs.items():
        expanded = expanded.replace(tag, operand)
    defined = prog + (out / f"cpy/{new['UPDSET']}.cpy").read_text()
    built = ["FLG-ACCT-STATUS-NOT-OK", f"{new['ACSTTUS']}C", f"{new['UPDMAPA']}O"]
    assert all(w in expanded and re.search(rf"(?<![\w-]){w}(?![\w-])", defined) for w in built), expanded
    res = _run("rename-verify", root, out, "--map", tmp_path / "out.json")
    assert res.exit_code == 0, res.output
