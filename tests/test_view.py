"""``groundjudge view``: the pages it writes, their escaping, their numbers against report's, their size."""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from _view_helpers import ERROR, write_view_run
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.rename.models import RenameMap
from groundjudge.storage import write_model
from groundjudge.validation.report import format_value, run_report
from groundjudge.validation.view import file_name
from groundjudge.validation.view.answer_html import MarkedClaim, render_answer
from groundjudge.validation.view.site import build_site

runner = CliRunner()
MAX_PAGE_BYTES = 200_000


class _Elements(HTMLParser):
    """Every start tag with its attributes, and the text of each element with an id."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    p = _Elements()
    p.feed(html)
    return p.tags


@pytest.fixture
def site(tmp_path) -> Path:
    run = write_view_run(tmp_path / "run")
    return build_site(run, tmp_path / "site").parent


def test_writes_a_run_page_and_a_page_per_expected_answer(site):
    assert (site / "index.html").is_file()
    pages = sorted(p.relative_to(site).as_posix() for p in (site / "a").rglob("*.html"))
    assert pages == ["a/blind/q1.html", "a/blind/q2.html", "a/src/q1.html", "a/src/q2.html"]
    assert {p.name for p in (site / "static").iterdir()} == {"view.css", "view.js", "code.css"}


def test_untrusted_text_is_escaped_and_runs_nothing(site):
    for page in [site / "index.html", *(site / "a").rglob("*.html")]:
        html = page.read_text(encoding="utf-8")
        tags = _tags(html)
        scripts = [a for t, a in tags if t == "script"]
        assert scripts == [{"src": "../../static/view.js" if page.parent.parent.name == "a" else "static/view.js", "defer": None}]
        for tag, attrs in tags:
            assert tag not in {"img", "em", "i", "iframe"}, (page, tag)  # none is the templates'
            assert not any(name.startswith("on") or "pwned" in (value or "") for name, value in attrs.items()), (page, tag)
            for name in ("href", "src"):
                assert not (attrs.get(name) or "").lower().lstrip().startswith(("javascript:", "data:")), (page, attrs)
    attack = (site / "a" / "src" / "q2.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;document.title" in attack  # shown as text
    assert "[here](javascript:document.title='pwned-link')" in attack  # the link left as plain text
    assert "&lt;script&gt;window.pwned = 4&lt;/script&gt; good answer" in attack  # rationale
    assert '<span class="c">&lt;scrip</span>' in attack  # the evidence snippet, through Pygments
    assert "&lt;img src=&quot;x&quot; onerror=" in attack


def test_links_keep_only_web_and_mail_targets():
    html, _ = render_answer(
        "[a](javascript:alert(1)) [b](jav&#x09;ascript:alert(1)) [c](data:text/html,x) [d](file:///etc/passwd) "
        "[e](https://example.org/x) [f](mailto:a@example.org) [g](../../../secret)\n",
        [],
    )
    hrefs = [a["href"] for t, a in _tags(html) if t == "a"]
    assert hrefs == ["https://example.org/x", "mailto:a@example.org"]


def test_claims_are_marked_in_their_verdicts_colour(site):
    html = (site / "a" / "src" / "q1.html").read_text(encoding="utf-8")
    marks = [(a["class"], a["data-claim"]) for t, a in _tags(html) if t == "mark"]
    assert marks == [
        ("claim v-SUPPORTED", "claim-0"),
        ("claim v-UNSUPPORTED", "claim-1"),
        ("claim v-PARTIALLY_SUPPORTED", "claim-2"),
    ]
    # The cited line of the evidence is marked, the others of the snippet not.
    assert '<span class="l hl" data-n="178">' in html
    assert '<span class="l" data-n="177">' in html


def test_a_claim_not_found_word_for_word_marks_its_block():
    from groundjudge.grounding.models import Verdict, VerifiedClaim

    claim = VerifiedClaim(
        id="c1", text="Name: BKTRN02C | Calls: BKERR01C", answer_line=3, verdict=Verdict.UNSUPPORTED, reason="r"
    )
    html, placed = render_answer("| Name | Calls |\n|---|---|\n| BKTRN02C | BKERR01C |\n", [MarkedClaim("claim-0", claim)])
    assert placed == {"claim-0"}
    assert '<tr class="claimblock v-UNSUPPORTED" data-claim="claim-0" id="m-claim-0">' in html


def test_a_failed_judgement_shows_its_error_and_no_score(site):
    html = (site / "a" / "src" / "q1.html").read_text(encoding="utf-8")
    table = html[html.index('class="judges-table') :]
    rows = re.findall(r"<tr[^>]*><th>([^<]+)</th>(.*?)</tr>", table, re.S)
    cells = {name: re.findall(r"<td[^>]*>(.*?)</td>", body, re.S) for name, body in rows}
    assert cells["total"][0].startswith("36.50") and cells["total"][1] == "–"
    assert cells["accuracy"][1] == "–" and cells["usefulness"][1] == "–"
    assert "failed (transient)" in cells["status"][1]
    assert "HTTP 503 &lt;i&gt;after&lt;/i&gt; 3 retries" in cells["status"][1]
    assert ERROR not in html  # only escaped
    assert not any(re.fullmatch(r"\s*0(\.0+)?\b.*", c) for c in cells["total"] + cells["accuracy"])


def test_void_missing_and_failed_answers_are_marked_in_the_grid(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    squares = {a["href"]: a for t, a in _tags(html) if t == "a" and (a.get("href") or "").startswith("a/")}
    assert set(squares) == {"a/blind/q1.html", "a/src/q1.html", "a/src/q2.html", "a/blind/q2.html"}
    tds = re.findall(r'<td class="([^"]*)"[^>]*><a href="([^"]+)">([^<]*)</a></td>', html)
    by_href = {href: (cls.split(), text) for cls, href, text in tds}
    assert "o" in by_href["a/blind/q1.html"][0] and by_href["a/blind/q1.html"][1] == "void"
    assert "m" in by_href["a/blind/q2.html"][0] and by_href["a/blind/q2.html"][1] == "no answer"
    assert "f" in by_href["a/src/q1.html"][0] and by_href["a/src/q1.html"][1] == "36.5"  # j2 failed: j1's total alone
    assert "SIMULATED" in html


def test_the_numbers_are_reports(tmp_path):
    run = write_view_run(tmp_path / "run")
    run_report(run, tmp_path / "report", n_resamples=500)
    html = build_site(run, tmp_path / "site", n_resamples=500).read_text(encoding="utf-8")
    with open(tmp_path / "report" / "cell_dimension.csv", newline="") as fh:
        means = {r["cell"]: r for r in csv.DictReader(fh) if r["dimension"] == "total"}
    with open(tmp_path / "report" / "cell_intervals.csv", newline="") as fh:
        intervals = {r["cell"]: r for r in csv.DictReader(fh) if r["dimension"] == "total"}
    with open(tmp_path / "report" / "exclusions.csv", newline="") as fh:
        exclusions = list(csv.DictReader(fh))
    assert set(means) == {"blind", "src"}

    def num(value: str) -> str:
        return format_value(float(value)) if value else format_value(None)

    for cell, m in means.items():
        row = re.search(rf'<tr data-cell="{cell}">(.*?)</tr>', html, re.S)
        assert row, cell
        shown = dict(re.findall(r'<td class="(m-[a-z]+)">([^<]*)</td>', row.group(1)))
        ci = intervals[cell]
        assert shown == {
            "m-qb": num(m["mean_question_balanced"]),
            "m-ci": f"[{num(ci['ci_low'])}, {num(ci['ci_high'])}]",
            "m-pooled": num(m["mean_pooled"]),
            "m-jb": num(m["mean_judge_balanced"]),
        }
        excluded = sum(int(r["excluded"]) for r in exclusions if r["cell"] == cell)
        void = sum(int(r["void_blind"]) for r in exclusions if r["cell"] == cell)
        cells = re.findall(r"<td>(\d+)</td>", row.group(1))
        assert [int(cells[1]), int(cells[3]), int(cells[6])] == [int(m["n_judgements"]), excluded, void]
    # report.md links each answer to its page; the link resolves to a page once the site is in RUN/view.
    build_site(run)
    report_md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((file://[^)]+\.html)\)", report_md)
    assert len(links) == 4
    for link in links:
        assert Path(unquote(urlparse(link).path)).is_file(), link


def test_pages_stay_small_on_a_long_answer(tmp_path):
    run = write_view_run(tmp_path / "run")
    long_answer = "\n\n".join(f"Paragraph {i} names BKTRN02C and `3400-UPDATE-ACCOUNT` again." for i in range(2000))
    (run / "src" / "answers" / "q1.md").write_text(long_answer, encoding="utf-8")
    site = build_site(run, tmp_path / "site").parent
    for page in [site / "index.html", *(site / "a").rglob("*.html")]:
        assert page.stat().st_size < MAX_PAGE_BYTES, page


def test_odd_ids_get_plain_file_names():
    assert file_name("q01") == "q01"
    assert "/" not in file_name("a/b") and not file_name("..").startswith(".")
    assert file_name("a/b") != file_name("a_b")


def test_command_writes_the_site_and_refuses_a_directory_it_did_not_write(tmp_path):
    run = write_view_run(tmp_path / "run")
    result = runner.invoke(app, ["view", str(run)])
    assert result.exit_code == 0, result.output
    assert (run / "view" / "index.html").is_file()
    result = runner.invoke(app, ["view", str(run)])  # a rebuild replaces the earlier site
    assert result.exit_code == 0, result.output
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["view", str(run), "--out", str(other)])
    assert result.exit_code == 2 and "did not write" in result.output
    assert (other / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_rename_map_gets_a_page(tmp_path):
    run = write_view_run(tmp_path / "run")
    rename_map = tmp_path / "map.json"
    write_model(
        rename_map,
        RenameMap(
            tool_version="test",
            seed=1,
            corpus_name="bank",
            corpus_tree_hash="t" * 64,
            renamed_tree_hash="r" * 64,
            classes_selected=["program"],
            identifiers={"BKTRN02C": "QZVLA07C", "<BAD>": "X"},
            classes={"BKTRN02C": "program", "<BAD>": "copybook"},
        ),
    )
    site = build_site(run, tmp_path / "site", rename_map=rename_map).parent
    html = (site / "renames.html").read_text(encoding="utf-8")
    assert "<code>BKTRN02C</code></td><td><code>QZVLA07C</code>" in html
    assert "&lt;BAD&gt;" in html and "<BAD>" not in html
    assert 'href="renames.html"' in (site / "index.html").read_text(encoding="utf-8")


def test_question_texts_come_from_the_question_set_report_counts(tmp_path):
    run = write_view_run(tmp_path / "run")
    questions = run / "questions.jsonl"
    questions.write_text(questions.read_text(encoding="utf-8").replace("posted", "booked"), encoding="utf-8")
    site = build_site(run, tmp_path / "site", n_resamples=100).parent
    page = (site / "a" / "src" / "q1.html").read_text(encoding="utf-8")
    assert "booked" not in page and 'class="question"' not in page
    assert "question set changed since the run" in page
