"""The grounder fingerprint: the grounding code, its rule files and the LLM helpers' settings."""

from __future__ import annotations

from _grounding_helpers import Grounder

from groundjudge.grounding.fingerprint import code_fingerprint, grounder_fingerprint


class _Helper:
    def __init__(self, fingerprint: str):
        self.fingerprint = fingerprint


def test_fingerprint_covers_code_and_llm_helper_settings():
    assert grounder_fingerprint() == code_fingerprint()
    assert grounder_fingerprint(None, _Helper("a")) != grounder_fingerprint()
    assert grounder_fingerprint(None, _Helper("a")) != grounder_fingerprint(None, _Helper("b"))
    assert len(code_fingerprint()) == 64


def test_every_report_records_its_grounder():
    report = Grounder("pyledger").report("`parse_amount` is defined in pyledger/money.py.\n")
    assert report.grounder == grounder_fingerprint()
