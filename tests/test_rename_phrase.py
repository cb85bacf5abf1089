"""Issue M: the product's name spelled out in English words ("Zorbix Widget Toolkit (ZWT)") goes too
under --scrub-prose, as a phrase replaced word by word with tokens of the same shape, wherever its
words occur in a row; the words alone stay."""

from __future__ import annotations

import json
from pathlib import Path

from _rename_helpers import program
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.grounding.snapshot import snapshot_directory
from groundjudge.rename.models import RenameMap
from groundjudge.rename.phrase import Phrases, definitions, long_form, product_phrases

runner = CliRunner()

README = """# Zorbix Widget Toolkit (ZWT)

The **Z**orbix **W**idget **T**oolkit keeps a ledger. Clone zorbix-widget-toolkit and read the Zorbix Widget
Toolkit guide; any toolkit needs a ledger.
"""
BMS = """* Main menu of the Zorbix Widget Toolkit
ZWTSET   DFHMSD TYPE=&SYSPARM,MODE=INOUT,LANG=COBOL,STORAGE=AUTO
ZWTMAP   DFHMDI SIZE=(24,80),LINE=1,COLUMN=1
HEAD     DFHMDF POS=(1,1),LENGTH=28,INITIAL='Zorbix Widget Toolkit - Menu'
         DFHMSD TYPE=FINAL
         END
"""
COBOL = program(
    [
        " IDENTIFICATION DIVISION.",
        " PROGRAM-ID. ZWTMAIN.",
        ("Prints the banner of the Zorbix Widget Toolkit.", "*"),
        " DATA DIVISION.",
        " WORKING-STORAGE SECTION.",
        " 01  WS-BANNER   PIC X(30) VALUE 'ZORBIX WIDGET TOOLKIT'.",
        " PROCEDURE DIVISION.",
        "     DISPLAY WS-BANNER",
        "     GOBACK.",
    ],
    "ZWTMAIN",
)
PHRASE_OCCURRENCES = 8  # title, emphasis, slug, wrapped, BMS comment and literal, COBOL comment and literal


def _kit(root: Path, readme: str = README) -> Path:
    for rel, text in {"README.md": readme, "bms/ZWTSET.bms": BMS, "cbl/ZWTMAIN.cbl": COBOL}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _rename(root: Path, out: Path, seed: int = 1) -> dict:
    res = runner.invoke(
        app, ["rename", str(root), "--out", str(out), "--map-out", f"{out}.json", "--seed", str(seed), "--scrub-prose"]
    )
    assert res.exit_code == 0, res.output
    return json.loads(Path(f"{out}.json").read_text())


def _verify(root: Path, out: Path):
    return runner.invoke(app, ["rename-verify", str(root), str(out), "--map", f"{out}.json"])


def _text(tree: Path) -> str:
    return "\n".join(p.read_text() for p in sorted(tree.rglob("*")) if p.is_file())


def test_the_long_form_spells_the_short_name_from_its_end():
    assert long_form("CBSA", ["parts", "to", "the", "CICS", "Banking", "Sample", "Application"]) == (
        "CICS",
        "BANKING",
        "SAMPLE",
        "APPLICATION",
    )
    # leading letters and syllables, a word in between that gives none
    assert long_form("GenApp", ["General", "insurance", "application"]) == ("GENERAL", "INSURANCE", "APPLICATION")
    assert long_form("GenApp", ["General", "insurance", "application", "for", "IBM"]) is None  # not up to the parenthesis
    assert long_form("GenApp", ["Deploy", "the", "app"]) is None
    assert long_form("ZWT", ["Zorbix"]) is None  # one word is no spelled-out name


def test_definitions_read_both_orders_and_markdown_emphasis():
    zwt = ("ZWT", ("ZORBIX", "WIDGET", "TOOLKIT"))
    assert definitions("# Zorbix Widget Toolkit (ZWT) for IBM CICS") == [zwt]
    assert definitions("ZWT (the Zorbix Widget Toolkit) runs nightly") == [zwt]
    assert definitions("The **Z**orbix **W**idget **T**oolkit (ZWT) keeps") == [zwt]
    assert definitions("the Widget Kit (WK) and a note (see below)") == []  # a two-letter name is too short


def test_only_the_products_names_are_expanded(tmp_path):
    root = tmp_path / "c"
    (root / "doc").mkdir(parents=True)
    (root / "README.md").write_text("# Job Control Language (JCL) for the Zorbix Widget Toolkit (ZWT)\n")
    (root / "doc/notes.md").write_text("Submit the Job Control Language (JCL); ZWT (Zorbix Widget Kit) is old.\n")
    shorts, forms = product_phrases(snapshot_directory(root, name="phrase-kinds"))
    # JCL is a general word: no product; ZWT is, so both its expansions are taken
    assert shorts == {"ZWT"} and forms == {("ZORBIX", "WIDGET", "TOOLKIT"), ("ZORBIX", "WIDGET", "KIT")}


def test_the_spelled_out_name_is_replaced_word_by_word_everywhere(tmp_path):
    root = _kit(tmp_path / "kit")
    out = tmp_path / "out"
    m = _rename(root, out)
    new = m["phrases"]["ZORBIX WIDGET TOOLKIT"]
    zorbix, widget, toolkit = new.split()
    # a word renamed already keeps its token inside the phrase; the others get new ones of their shape
    ids = {k.upper(): v.upper() for k, v in m["identifiers"].items()}
    assert (zorbix, widget) == (ids["ZORBIX"], ids["WIDGET"]) and len(toolkit) == 7 and toolkit.isalpha()
    assert toolkit != "TOOLKIT" and toolkit not in ids.values() and ids["ZWT"] != "ZWT"

    readme = (out / "README.md").read_text()
    title = f"{zorbix.title()} {widget.title()} {toolkit.title()}"
    assert readme.startswith(f"# {title} ({ids['ZWT']})")
    assert f"**{zorbix[0]}**{zorbix[1:].lower()} **{widget[0]}**{widget[1:].lower()}" in readme
    assert f"{zorbix.lower()}-{widget.lower()}-{toolkit.lower()}" in readme
    assert f"the {zorbix.title()} {widget.title()}\n{toolkit.title()} guide" in readme
    assert "any toolkit needs a ledger" in readme  # the word alone stays
    bms = next((out / "bms").iterdir()).read_text()
    assert f"INITIAL='{title} - Menu'" in bms and f"of the {title}\n" in bms
    cobol = next((out / "cbl").iterdir()).read_text()
    assert f"VALUE '{new}'" in cobol and f"of the {title}." in cobol
    assert "TOOLKIT" not in _text(out).upper().replace("ANY TOOLKIT", "")

    # same lines, same lengths: BMS and COBOL columns hold
    for rel in ("README.md", "bms/ZWTSET.bms", "cbl/ZWTMAIN.cbl"):
        renamed = out / m["renamed_paths"].get(rel, rel)
        assert [len(x) for x in (root / rel).read_text().splitlines()] == [len(x) for x in renamed.read_text().splitlines()]

    res = _verify(root, out)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert report["occurrences_per_class"]["phrase"] == PHRASE_OCCURRENCES and report["leftover_count"] == 0
    assert report["identifiers_per_class"]["phrase"] == 1 and "phrase" in res.stderr
    assert m["occurrences"]["phrase"] == PHRASE_OCCURRENCES

    # deterministic per seed
    assert _rename(root, tmp_path / "again")["phrases"] == m["phrases"]
    assert _rename(root, tmp_path / "other", seed=2)["phrases"] != m["phrases"]


def test_without_an_expansion_nothing_is_taken_as_a_phrase(tmp_path):
    root = _kit(tmp_path / "kit", "# Zorbix tools\n\nThe Zorbix Widget Toolkit keeps a ledger.\n")
    out = tmp_path / "out"
    m = _rename(root, out)
    assert m["phrases"] == {}
    assert "Toolkit keeps a ledger" in (out / "README.md").read_text()
    assert "Toolkit - Menu'" in _text(out)  # Zorbix and Widget go as prose names, the English word stays
    assert _verify(root, out).exit_code == 0


def test_a_phrase_left_in_the_renamed_tree_fails_verification(tmp_path):
    root = _kit(tmp_path / "kit")
    out = tmp_path / "out"
    m = _rename(root, out)
    cobol = next((out / "cbl").iterdir())
    cobol.write_text(cobol.read_text().replace(m["phrases"]["ZORBIX WIDGET TOOLKIT"], "ZORBIX WIDGET TOOLKIT"))
    res = _verify(root, out)
    assert res.exit_code == 1
    report = json.loads(res.stdout)
    assert report["leftover_per_class"]["phrase"] == 1
    assert any("the phrase 'ZORBIX WIDGET TOOLKIT' is left" in x for x in report["leftovers"])
    assert not next(c for c in report["checks"] if c["name"] == "no_original_left")["ok"]


def test_a_renamed_name_across_a_phrase_keeps_its_token():
    from groundjudge.rename.mapping import Lookup

    phrases = Phrases({"ZORBIX WIDGET TOOLKIT": "ABCDEF XXXXXX YYYYYYY"})
    text = "     MOVE ZORBIX-WIDGET-TOOLKIT TO X"
    whole = Lookup({"ZORBIX-WIDGET-TOOLKIT": "QWERTY-ZXCVBN-MNBVCXZ"}, {"ZORBIX-WIDGET-TOOLKIT": "data_name"})
    assert phrases.apply(text, "cobol", whole) == (text, 0)  # the data name is renamed as a whole, by the map
    part = Lookup({"ZORBIX": "QWERTY"}, {"ZORBIX": "prose"})
    assert phrases.apply(text, "cobol", part) == ("     MOVE ZORBIX-XXXXXX-YYYYYYY TO X", 1)  # ZORBIX is the map's


def test_a_map_written_before_phrases_still_loads():
    old = {
        "schema_version": 1,
        "tool_version": "0",
        "seed": 1,
        "corpus_name": "c",
        "corpus_tree_hash": "a",
        "renamed_tree_hash": "b",
        "classes_selected": ["program"],
        "identifiers": {"ACCTPGM": "QZXWVKJ"},
        "classes": {"ACCTPGM": "program"},
    }
    assert RenameMap.model_validate(old).phrases == {}


def test_questions_lose_the_phrase_too():
    from groundjudge.rename.mapping import Lookup
    from groundjudge.rename.questions import rename_question_lines

    line = '{"id": "q1", "text": "What does the Zorbix Widget Toolkit print?"}\n'
    lookup = Lookup({"ZORBIX": "QWERTY"}, {"ZORBIX": "prose"})
    phrases = Phrases({"ZORBIX WIDGET TOOLKIT": "QWERTY XXXXXX YYYYYYY"})
    assert rename_question_lines(line, lookup, phrases) == line.replace("Zorbix Widget Toolkit", "Qwerty Xxxxxx Yyyyyyy")


def test_a_python_data_string_keeps_the_phrase_as_it_keeps_prose_words(tmp_path):
    root = _kit(tmp_path / "kit")
    (root / "tools").mkdir()
    (root / "tools/banner.py").write_text('"""Prints the Zorbix Widget Toolkit banner."""\n\nBANNER = "Zorbix Widget Toolkit"\n')
    out = tmp_path / "out"
    m = _rename(root, out)
    title = " ".join(w.title() for w in m["phrases"]["ZORBIX WIDGET TOOLKIT"].split())
    banner = (out / m["renamed_paths"].get("tools/banner.py", "tools/banner.py")).read_text()
    # a docstring is prose; a data string may be what the program prints or compares, so it stays
    assert banner.startswith(f'"""Prints the {title} banner."""') and 'BANNER = "Zorbix Widget Toolkit"' in banner
    res = _verify(root, out)
    assert res.exit_code == 0, res.output
    assert any("the phrase 'Zorbix Widget Toolkit' kept as data" in x for x in json.loads(res.stdout)["leftovers"])
