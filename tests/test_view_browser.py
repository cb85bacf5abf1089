"""``groundjudge view`` in a real browser: headless Chromium driven by Selenium, on file:// URLs and
through ``--serve``'s server. Screenshots are kept under tests/_artifacts/view/ (printed)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _view_helpers import ERROR, write_view_run

from groundjudge.validation.view.site import build_site

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(__file__).resolve().parent / "_artifacts" / "view"


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("Chromium or chromedriver not installed (apt-get install -y chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium not installed (pip install -e '.[dev]')")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {ARTIFACTS}", file=sys.stderr)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("view-browser")
    return build_site(write_view_run(root / "run"), root / "site").parent


def _shot(driver, name: str) -> None:
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    print(f"screenshot: {path}", file=sys.stderr)


def _visible_squares(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [
        td.find_element(By.TAG_NAME, "a").get_attribute("href").rsplit("/a/", 1)[1]
        for td in driver.find_elements(By.CSS_SELECTOR, "#grid td[data-s]")
        if td.is_displayed() and "dim" not in td.get_attribute("class").split()
    ]


def test_filter_open_an_answer_and_select_a_claim(browser, site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get((site / "index.html").as_uri())
    assert browser.find_element(By.ID, "filters").is_displayed()  # the script ran
    assert sorted(_visible_squares(browser)) == ["blind/q1.html", "blind/q2.html", "src/q1.html", "src/q2.html"]
    _shot(browser, "run-page")

    Select(browser.find_element(By.NAME, "verdict")).select_by_value("U")  # has an UNSUPPORTED claim
    assert _visible_squares(browser) == ["src/q1.html"]
    _shot(browser, "run-page-filtered-unsupported")

    browser.find_element(By.CSS_SELECTOR, '#grid td:not(.dim) a[href="a/src/q1.html"]').click()
    assert browser.current_url.endswith("/a/src/q1.html")
    detail = browser.find_element(By.ID, "claim-0")
    assert not detail.is_displayed()  # details show when their claim is selected
    browser.find_element(By.CSS_SELECTOR, "mark.claim.v-SUPPORTED").click()
    assert detail.is_displayed()
    assert "3400-UPDATE-ACCOUNT writes ACCOUNT-RECORD" in detail.text
    evidence = detail.find_element(By.CSS_SELECTOR, "figure.evidence")
    assert "cbl/BKTRN02C.cbl:176-180" in evidence.text
    cited = evidence.find_element(By.CSS_SELECTOR, ".l.hl")
    assert cited.get_attribute("data-n") == "178" and cited.is_displayed()
    _shot(browser, "answer-claim-selected")


def test_a_failed_judgement_shows_its_error_and_no_score(browser, site):
    from selenium.webdriver.common.by import By

    browser.get((site / "a" / "src" / "q1.html").as_uri())
    rows = {
        r.find_element(By.TAG_NAME, "th").text: [c.text for c in r.find_elements(By.TAG_NAME, "td")]
        for r in browser.find_elements(By.CSS_SELECTOR, "table.judges-table tbody tr")
    }
    assert rows["total"][0].startswith("36.50")
    assert rows["total"][1] == "–" and rows["accuracy"][1] == "–"
    assert ERROR in rows["status"][1] and "failed (transient)" in rows["status"][1]
    browser.find_element(By.ID, "judges").location_once_scrolled_into_view  # noqa: B018 (scrolls)
    _shot(browser, "answer-failed-judgement")


def test_injected_script_links_and_handlers_run_nothing(browser, site):
    from selenium.webdriver.common.by import By

    page = (site / "a" / "src" / "q2.html").as_uri()
    browser.get(page)
    title = browser.title
    assert "pwned" not in title and title.startswith("src / q2")
    assert browser.execute_script("return typeof window.pwned") == "undefined"
    text = browser.find_element(By.CSS_SELECTOR, ".md").text
    assert '<script>document.title = "pwned-script"' in text  # shown, not run
    assert "[here](javascript:" in text  # no link made of it
    assert not browser.find_elements(By.CSS_SELECTOR, ".md a[href^='javascript' i], img, [onerror], [onmouseover]")
    for mark in browser.find_elements(By.CSS_SELECTOR, "mark.claim"):
        mark.click()  # hovering and clicking the claim that held an onmouseover runs nothing either
    browser.find_element(By.ID, "show-all").click()
    assert browser.execute_script("return typeof window.pwned") == "undefined"
    assert "pwned" not in browser.title and browser.current_url.startswith(page)
    _shot(browser, "answer-injection-inert")


def test_keyboard_moves_between_answers_and_cells(browser, site):
    from selenium.webdriver.common.by import By

    browser.get((site / "a" / "src" / "q1.html").as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("n")
    assert browser.current_url.endswith("/a/src/q2.html")
    browser.find_element(By.TAG_NAME, "body").send_keys("[")
    assert browser.current_url.endswith("/a/blind/q2.html")
    browser.find_element(By.TAG_NAME, "body").send_keys("p")
    assert browser.current_url.endswith("/a/blind/q1.html")
    assert "void" in browser.find_element(By.ID, "blind").text
    _shot(browser, "answer-blind-void")
    browser.get((site / "a" / "src" / "q1.html").as_uri())
    browser.find_element(By.TAG_NAME, "body").send_keys("j")
    assert browser.find_element(By.ID, "claim-0").is_displayed()
    browser.find_element(By.TAG_NAME, "body").send_keys("j")
    assert browser.find_element(By.ID, "claim-1").is_displayed() and not browser.find_element(By.ID, "claim-0").is_displayed()
    browser.find_element(By.TAG_NAME, "body").send_keys("u")
    assert browser.current_url.endswith("/index.html")


def test_served_on_loopback_sorts_and_filters_by_disagreement(browser, site, tmp_path):
    from selenium.webdriver.common.by import By

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = site.parent / "run"
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "groundjudge"),
            "view",
            str(run),
            "--out",
            str(tmp_path / "served"),
            "--serve",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = server.stdout.readline()
        while line and "serving" not in line:
            line = server.stdout.readline()
        assert f"http://127.0.0.1:{port}/index.html" in line, line
        browser.get(f"http://127.0.0.1:{port}/index.html")
        spread = browser.find_element(By.NAME, "spread")
        spread.send_keys("10")
        assert _visible_squares(browser) == ["src/q2.html"]  # j1 7 against j2 43
        spread.clear()
        browser.find_element(By.CSS_SELECTOR, '#grid th[data-sort="1"]').click()  # src, highest first
        first = browser.find_element(By.CSS_SELECTOR, "#grid tbody tr:not(.hide) th").text
        assert first == "q1"  # 36.5 against q2's 25
        _shot(browser, "run-page-served-sorted")
    finally:
        server.terminate()
        server.wait(timeout=10)
