"""Issue M round 2: mainframe tools' keywords are general vocabulary for the leak report, and a prefix an
application stamps on many of its resources is renamed wherever it starts a token."""

from __future__ import annotations

from groundjudge.rename.discover import Discovery
from groundjudge.rename.leak import is_general
from groundjudge.rename.mapping import plan_map, shared_prefixes
from groundjudge.rename.models import DEFAULT_CLASSES


def test_tool_keywords_are_general_but_application_names_are_not():
    for word in ("ONIN", "UTBL", "ISREDIT", "SYSUID", "DTRINGRP", "WLMSPEC", "XMLNS", "SHROPTNS", "USELPACOPY"):
        assert is_general(word), word
    for word in ("GENAPOOL", "LGACDB01", "CARDDEMO", "GENA"):
        assert not is_general(word), word


def _discovery(jobs: list[str], tokens: list[str]) -> Discovery:
    d = Discovery(corpus_tokens={t.upper() for t in tokens + jobs})
    for job in jobs:
        d.add(job, "jcl_job")
    return d


def test_a_prefix_of_many_resource_names_is_renamed_in_every_token():
    jobs = [f"ZORB{suffix}" for suffix in ("CSD", "VSAM", "MAP", "DB2", "BIND", "COMP", "SOAP", "STL", "WSIM", "ALL")]
    d = _discovery(jobs, ["ZORBPOOL", "ZORBAORP", "ZORBING", "COPY"])
    assert shared_prefixes(d, list(DEFAULT_CLASSES)) == ["ZORB"]
    plan = plan_map(d, 1, list(DEFAULT_CLASSES))
    assert {"ZORBPOOL", "ZORBAORP"} <= set(plan.identifiers)  # no statement defines them: the prefix finds them
    assert not any(n.upper().startswith("ZORB") for n in plan.identifiers.values())
    # fewer names, data names only, or a general word do not make a prefix
    assert shared_prefixes(_discovery(jobs[:9], []), list(DEFAULT_CLASSES)) == []
    assert shared_prefixes(d, ["data_name"]) == []
    assert shared_prefixes(_discovery([f"POST{j[4:]}" for j in jobs], []), list(DEFAULT_CLASSES)) == []


def test_a_name_with_a_distinctive_rest_gets_its_own_token():
    d = Discovery(corpus_tokens={"FLAGX", "WS-FLAGX-TSQH", "WS-FLAGX-ITEM"})
    for name in ("FLAGX", "WS-FLAGX-TSQH", "WS-FLAGX-ITEM"):
        d.add(name, "data_name")
    plan = plan_map(d, 1, list(DEFAULT_CLASSES))
    assert "WS-FLAGX-TSQH" in plan.identifiers  # TSQH would be left beside the renamed FLAGX
    assert "WS-FLAGX-ITEM" not in plan.identifiers  # WS and ITEM are general: renamed through FLAGX
