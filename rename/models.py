"""On-disk formats of the renamer: the map (``rename --map-out``) and the verification report."""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import BaseModel

from groundjudge.storage import VersionedModel

# Discovery order is also precedence: a name found as both a program and a copybook is a program.
CLASS_ORDER = (
    "program",
    "bms_mapset",
    "bms_map",
    "copybook",
    "jcl_proc",
    "jcl_job",
    "dataset",
    "db2_plan",
    "transaction",
    "paragraph",
    "bms_field",
    "data_name",
    "resource",
    "sql_name",
    "abend_code",
    "variable",
    "member",
    "jcl_step",
    "jcl_dd",
    "module",
    "class",
    "function",
    "method",
    "prose",
    "included",
)
# db2_plan goes beyond the classes published studies rename: a plan is conventionally named after its
# program (PLAN(BKRPT03) for BKRPT03C), so leaving it would point straight back at the renamed program.
# Transactions, paragraphs, data names and BMS fields are the application's own vocabulary
# (CA-CUSTOMER-NUM, GET-CUSTOMER-INFO, SSC1): left in place they alone give GenApp a leak score of 30
# per 1,000 words, and renaming them still verifies. DD and step names are renamed too: the shop's
# conventions among them (SYSIN, SYSPRINT, STEPLIB) are reserved or general words and stay, while the ones
# an application defines (APDRVP1, DTCNTL) identify it; GenApp, CBSA, CardDemo and three other CICS
# applications still verify with them renamed. The names the application's scripts and
# tool inputs define (REXX/WSim variables, JCL symbols, CSD groups and lists, DB2 tables and columns,
# abend codes; rename/toolnames.py) are its own as much as its program names.
DEFAULT_CLASSES = (
    "program",
    "copybook",
    "jcl_job",
    "jcl_proc",
    "jcl_step",
    "jcl_dd",
    "bms_mapset",
    "bms_map",
    "bms_field",
    "dataset",
    "db2_plan",
    "transaction",
    "paragraph",
    "data_name",
    "resource",
    "sql_name",
    "abend_code",
    "variable",
    "member",
)
# Names from Python/Java/... are matched with their exact case; COBOL, JCL and BMS names ignore case.
CASE_SENSITIVE_CLASSES = frozenset({"module", "class", "function", "method"})
# The product's name spelled out (rename/phrase.py): its occurrences are counted under this class.
PHRASE_CLASS = "phrase"
# Names a Python data string keeps (rename/pystrings.py): the code's names, and the words and phrases
# --scrub-prose renames, which there would change what the program reads or sends.
KEPT_IN_DATA = CASE_SENSITIVE_CLASSES | {"prose", PHRASE_CLASS}


class RenameMap(VersionedModel):
    schema_version: Literal[1] = 1
    tool_version: str
    seed: int
    corpus_name: str
    corpus_tree_hash: str
    renamed_tree_hash: str
    classes_selected: list[str]
    inputs_sha256: dict[str, str] = {}  # keep / include / exclude lists that shaped the map
    identifiers: dict[str, str]  # original (case as it first appears) -> new token
    # the product's name spelled out (upper-case words, space-separated) -> its replacement, word for
    # word (--scrub-prose, rename/phrase.py); absent from maps written before it existed
    phrases: dict[str, str] = {}
    classes: dict[str, str]  # original -> class
    derived_from: dict[str, str] = {}  # derived original -> the base original it moves with
    kept: dict[str, str] = {}  # discovered but deliberately not renamed -> why
    renamed_paths: dict[str, str] = {}  # original relative path -> new, only where they differ
    copied_verbatim: list[str] = []  # binary files and unread data (EBCDIC), byte-identical
    occurrences: dict[str, int] = {}  # class -> replaced token occurrences in contents and paths
    rejected_candidates: int = 0  # generated tokens refused by the token rules

    def per_class(self) -> dict[str, int]:
        """How many identifiers of each class the map renames, and how many phrases (``phrase``)."""
        counts = Counter(self.classes.values())
        if self.phrases:
            counts[PHRASE_CLASS] = len(self.phrases)
        return dict(sorted(counts.items()))


class Check(BaseModel):
    name: str
    ok: bool
    detail: str = ""
    failures: list[str] = []  # the first few, each naming a file and line where there is one


class LeakToken(BaseModel):
    token: str
    count: int
    places: list[str]  # "file:line", the first few


class VerifyReport(VersionedModel):
    schema_version: Literal[1] = 1
    tool_version: str
    ok: bool
    original: str
    original_tree_hash: str
    renamed: str
    renamed_tree_hash: str
    map_sha256: str
    questions_sha256: dict[str, str] = {}
    files: int
    directories: int
    lines: int
    copied_verbatim: list[str]
    identifiers_per_class: dict[str, int]
    occurrences_per_class: dict[str, int]  # in the corpus: contents and paths
    question_occurrences_per_class: dict[str, int] = {}
    # renamed names still in the renamed text, whole or as a part of a longer token: each is either
    # pinned (its token is fixed outside the corpus, e.g. a reserved word) or a no_original_left failure
    leftover_count: int = 0
    leftover_per_class: dict[str, int] = {}
    leftovers: list[str] = []  # "file:line: TOKEN carries NAME (why)", the first LEFTOVERS_LISTED
    question_leftover_per_class: dict[str, int] = {}
    question_leftovers: list[str] = []
    # the leak report (rename/leak.py): distinctive words of the original still in the renamed tree
    leak_score: float = 0.0  # per 1,000 words of the renamed tree
    leak_score_before: float = 0.0  # the original measured against itself
    leak_distinctive: int = 0  # distinctive words of the original
    leak_left: int = 0  # occurrences of them in the renamed tree
    leak_tokens: list[LeakToken] = []  # the most frequent, with places
    checks: list[Check]
