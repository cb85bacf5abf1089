"""Issue E round 12 (from held-out sets 17 and 18): a COBOL section spoken of by its number alone (`R3100`
for R3100-00-PROCESSA) is that section, not a made-up name; an SQL script is code, so a table, column or
index it defines is the code's own name, not a word of prose (a name only in its `--` comments still is)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

S, U, N = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

PROGRAM = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. RGX01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WFIM-CED              PIC X VALUE 'N'.
       PROCEDURE DIVISION.
       R0000-00-PRINCIPAL SECTION.
           PERFORM R3100-00-PROCESSA-CED.
           STOP RUN.
       R3100-00-PROCESSA-CED SECTION.
           PERFORM R5500-00-CALCULA-CED UNTIL WFIM-CED = 'S'.
       R3100-99-SAIDA.
           EXIT.
       R5500-00-CALCULA-CED SECTION.
           MOVE 'S' TO WFIM-CED.
       R5500-99-SAIDA.
           EXIT.
"""

TABLES = """\
-- the claims table; contrat_ref was dropped in 2019
CREATE TABLE sinistres (
    id INT PRIMARY KEY,
    contrat_id INT NOT NULL,
    montant DECIMAL(10,2)
);
CREATE INDEX idx_contrat ON sinistres(contrat_id);
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round12")
    return fixture_grounder(root, {"cbl/RGX01.cbl": PROGRAM, "sql/tables.sql": TABLES})


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("`R3100` performs `R5500-00-CALCULA-CED` until `WFIM-CED` is `'S'`.", S, None),
        ("`R0000-00-PRINCIPAL` performs `R3100`.", S, None),
        # a number no section starts with is still made up; so is a longer name that merely shares it
        ("`R3200` performs `R5500-00-CALCULA-CED`.", U, "R3200 appears nowhere in the snapshot"),
        ("`R3100-00-PROCESSA-CONTRATO` performs `R5500-00-CALCULA-CED`.", U, None),
    ],
)
def test_a_section_by_its_number(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("`sql/tables.sql` creates the index `idx_contrat` on `sinistres(contrat_id)`.", S, None),
        ("The `sinistres` table has a `montant` column (`sql/tables.sql:2-6`).", S, None),
        ("`sql/tables.sql` creates the index `idx_policy` on `sinistres`.", U, "idx_policy appears nowhere in the snapshot"),
        # a name only in an SQL comment is not the code's
        ("The `sinistres` table keeps a `contrat_ref` column.", U, "contrat_ref appears only in prose or comments"),
    ],
)
def test_sql_scripts_are_code(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
