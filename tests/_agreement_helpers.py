"""The analysis helpers' hand-written score files, bound to a two-dimension rubric for the agreement tests."""

from __future__ import annotations

from functools import partial

from _analysis_helpers import run_scores as _run_scores
from _analysis_helpers import score_file as _score_file
from _analysis_helpers import write_run as _write_run

from groundjudge.judging.models import RubricRef

RUBRIC = RubricRef(name="two", sha256="c" * 64, dimensions={"accuracy": 10.0, "usefulness": 10.0})

score_file = partial(_score_file, rubric=RUBRIC)
write_run = partial(_write_run, rubric=RUBRIC)
run_scores = partial(_run_scores, rubric=RUBRIC)
