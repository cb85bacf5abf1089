"""From a discovery and the user's choices to the identifier map: selection, keep/include/exclude,
derived names, seeded tokens. Pure: no I/O."""

from __future__ import annotations

import re
from collections.abc import Iterable
from copy import copy
from dataclasses import dataclass
from functools import cached_property

from groundjudge.errors import UserError
from groundjudge.grounding.index.registry import reserved_words, split_assign
from groundjudge.rename.discover import Discovery
from groundjudge.rename.generate import Rejection, TokenRules, generate, ordered
from groundjudge.rename.leak import MIN_LENGTH, WORD_RE, is_general
from groundjudge.rename.lexer import recase
from groundjudge.rename.models import CASE_SENSITIVE_CLASSES, CLASS_ORDER, DEFAULT_CLASSES, KEPT_IN_DATA
from groundjudge.rename.phrase import phrase_tokens
from groundjudge.rename.vocabulary import BMS_FIELD_SUFFIXES, BMS_MAP_SUFFIXES, english_words, ibm_supplied


@dataclass
class PlannedMap:
    identifiers: dict[str, str]
    classes: dict[str, str]
    derived_from: dict[str, str]
    kept: dict[str, str]
    rejections: list[Rejection]
    phrases: dict[str, str]


def parse_classes(spec: str | None) -> list[str]:
    """``--classes``: comma-separated names, ``default`` and ``all`` as shorthands."""
    if not spec:
        return list(DEFAULT_CLASSES)
    chosen: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        if part == "default":
            chosen += DEFAULT_CLASSES
        elif part == "all":
            chosen += [c for c in CLASS_ORDER if c != "included"]
        elif part in CLASS_ORDER and part != "included":
            chosen.append(part)
            if part == "data_name":  # the symbolic-map data names are made from the BMS field names
                chosen.append("bms_field")
        elif part:
            raise UserError(
                f"unknown class {part!r} (choose from: default, all, {', '.join(c for c in CLASS_ORDER if c != 'included')})"
            )
    return sorted(set(chosen), key=CLASS_ORDER.index)


def plan_map(
    d: Discovery,
    seed: int,
    classes: list[str],
    keep: list[str] = (),  # type: ignore[assignment]
    include: list[str] = (),  # type: ignore[assignment]
    exclude: list[str] = (),  # type: ignore[assignment]
    prose: Iterable[str] = (),
    phrases: Iterable[tuple[str, ...]] = (),
) -> PlannedMap:
    """``include`` words ending in ``*`` are prefixes (``GENA*``: every token of the corpus that starts
    with GENA); ``prose`` names (``--scrub-prose``) are renamed like included ones, with class ``prose``
    when discovery gave them none; ``phrases`` (the product's name spelled out, rename/phrase.py) are
    renamed word by word."""
    keep_set = {k.upper() for k in keep}
    exclude_set = {e.upper() for e in exclude}
    include_set = {i.upper() for i in include}
    chosen: dict[str, tuple[str, str]] = {k: v for k, v in d.found.items() if v[1] in classes}
    kept = {name: why for name, (why, cls) in d.kept.items() if cls in classes or cls == "fragment"}
    reserved = reserved_words()
    # an --include word matches ignoring case: every discovered spelling of it (``ledger`` the module
    # and ``Ledger`` the class), with its own class; a name discovery never met is class ``included``
    spellings: dict[str, list[tuple[str, str, str]]] = {}  # upper -> (key, name, class)
    for key, (name, cls) in d.found.items():
        spellings.setdefault(key.upper(), []).append((key, name, cls))
    for name, (_why, cls) in d.kept.items():
        if name.upper() not in spellings:
            spellings.setdefault(name.upper(), []).append((name if cls in CASE_SENSITIVE_CLASSES else name.upper(), name, cls))
    wanted = [(w, "included") for w in include if not w.endswith("*")]
    wanted += [(t, "included") for w in include if w.endswith("*") for t in sorted(d.corpus_tokens) if _by_prefix(t, w[:-1])]
    wanted += [
        (t, "included")
        for p in shared_prefixes(d, classes)
        for t in sorted(d.corpus_tokens)
        if _by_prefix(t, p) and not is_general(t.upper())
    ]
    wanted += [(w, "prose") for w in _not_in_code(prose, d.code_words)]
    include_set |= {w.upper() for w, _ in wanted}
    outside = {n.upper() for n in d.kept}
    for word, default_cls in wanted:
        up = word.upper()
        if default_cls == "prose" and up in outside:
            continue  # a utility the corpus calls (ITPLL) keeps its name even where the prose mentions it
        if up in reserved:
            kept[word] = "reserved word (--include ignored)"
            continue
        for key, name, cls in spellings.get(up, [(up, word, default_cls)]):
            if key not in chosen or default_cls == "included":
                chosen[key] = (name, cls)
                kept.pop(name, None)
    english = english_words()
    english_kept: set[str] = set()
    for key, (name, _cls) in list(chosen.items()):
        up = key.upper()
        if up in exclude_set:
            kept[name] = "--exclude"
            del chosen[key]
        elif up in keep_set:
            kept[name] = "--keep"
            del chosen[key]
        elif up in english and up not in include_set and name not in d.own_names:
            # the kind of system's vocabulary, not this repository's; renaming it would also garble
            # every comment, screen literal and question that uses the word in prose
            kept[name] = "English word (rename/english_words.txt; --include renames it)"
            english_kept.add(up)
            del chosen[key]

    # The symbolic-map names of a BMS map or field that is not renamed (reserved, kept, class not
    # chosen) must not be renamed either, or they would no longer match the BMS source.
    renamed_upper = {n.upper() for n, _ in chosen.values()}
    for label, cls in sorted(d.bms_labels.items()):
        if label not in renamed_upper:
            for pattern in _derived_patterns(label, cls, d.corpus_tokens, {}):
                form = pattern.replace("+", label)
                if form in chosen:
                    kept[chosen.pop(form)[0]] = f"symbolic-map name of {label}, which is not renamed"

    bases = ordered(chosen.values(), CLASS_ORDER)
    assign_prefixes: dict[str, list[str]] = {}
    for t in sorted(d.corpus_tokens):
        if split := split_assign(t):
            assign_prefixes.setdefault(split[1], []).append(split[0])
    derived = {name: _derived_patterns(name, cls, d.corpus_tokens, assign_prefixes) for name, cls in bases}
    # a derived name (ACCTMAPI) may also be defined on its own (01 ACCTMAPI in the symbolic-map
    # copybook): it must move with its base, so it is not renamed independently
    derived_keys = {p.replace("+", n).upper() for n, pats in derived.items() for p in pats}
    bases = [(n, c) for n, c in bases if n.upper() not in derived_keys]
    # a name made of other renamed names (LS2WS_LGACUS01 beside the program LGACUS01) is renamed
    # through its parts, so it keeps its shape and reads the same as the part does in other files; a
    # name of a leading class keeps its own token (the program BKRPT03C beside its plan BKRPT03)
    probe = Lookup({n: n for n, _ in bases}, dict(bases))
    bases = [(n, c) for n, c in bases if not _through_parts(n, c, probe)]
    rules = TokenRules(
        corpus_tokens=d.corpus_tokens,
        reserved=reserved,
        keep_terms=sorted(keep_set | english_kept),  # a new token must not spell a word the corpus keeps
        originals=sorted({n.upper() for n, _ in bases}),
        program_names=d.program_names,
        words=english,  # AURA in AURAM36X reads as a word: a cue the random token must not carry
    )
    tokens, rejections = generate([(n, c, derived[n]) for n, c in bases], rules, seed)

    identifiers: dict[str, str] = {}
    cls_of: dict[str, str] = {}
    derived_from: dict[str, str] = {}
    for name, cls in bases:
        identifiers[name] = tokens[name]
        cls_of[name] = cls
        for pattern in derived[name]:
            orig = pattern.replace("+", name)
            identifiers[orig] = pattern.replace("+", tokens[name])
            cls_of[orig] = DERIVED_CLASS[cls]
            derived_from[orig] = name
    renamed = {o.upper(): n for o, n in identifiers.items() if cls_of[o] not in CASE_SENSITIVE_CLASSES}
    phrase_map = phrase_tokens(phrases, renamed, rules, seed)
    return PlannedMap(identifiers, cls_of, derived_from, dict(sorted(kept.items())), rejections, phrase_map)


# Classes whose names an application coins for its own resources; data names and paragraphs share
# conventional prefixes (WS-, CA-) that say nothing about the application.
PREFIX_CLASSES = ("program", "copybook", "bms_mapset", "bms_map", "jcl_proc", "jcl_job", "dataset", "db2_plan", "transaction")
PREFIX_LENGTH = 4
PREFIX_MIN_NAMES = 10


def _not_in_code(prose: Iterable[str], code_words: frozenset[str]) -> list[str]:
    """The prose words no Python identifier spells, whole or as a part (``Mutable`` in
    ``MutableMapping``): a prose word is renamed ignoring case wherever it occurs, and in code that
    would rename what the corpus borrows (``import urllib3`` where the docs mention urllib3)."""
    words = sorted(set(prose))
    probe = Lookup({w: w for w in words}, {})
    spelled = {w.upper() for w in code_words}
    for token in code_words:
        spelled.update(new.upper() for _i, _j, new, _cls in probe.parts(token))
    return [w for w in words if w.upper() not in spelled]


def shared_prefixes(d: Discovery, classes: list[str]) -> list[str]:
    """Prefixes an application stamps on its resources (GenApp's GENA: jobs GENACSD, GENAVSAM, the plan
    GENAONE, and beyond them region and pool names GENAAORP, GENAPOOL that no statement defines): the
    first ``PREFIX_LENGTH`` letters of ``PREFIX_MIN_NAMES`` or more defined names of the chosen resource
    classes, when they are no general word. Every corpus token starting with one is renamed, as
    ``--include PREFIX*`` would."""
    counts: dict[str, int] = {}
    for key, (_name, cls) in d.found.items():
        head = key.upper()[:PREFIX_LENGTH]
        if cls in classes and cls in PREFIX_CLASSES and len(key) > PREFIX_LENGTH and head.isalpha():
            counts[head] = counts.get(head, 0) + 1
    return sorted(p for p, n in counts.items() if n >= PREFIX_MIN_NAMES and not is_general(p))


def _through_parts(name: str, cls: str, probe: Lookup) -> bool:
    """``name`` carries renamed names of its own or a leading class and what they leave is general
    (WS-ACCT-ID through ACCT, LS2WS_LGACUS01 through the program): renamed through those parts. A
    distinctive rest (TSQH in WS-FLAG-TSQH, SINT in DB2-E-TERM-SINT) would stay in the renamed tree,
    so such a name gets a token of its own."""
    hits = [(i, j) for i, j, _new, part_cls in probe.parts(name) if CLASS_ORDER.index(part_cls) <= CLASS_ORDER.index(cls)]
    if not hits:
        return False
    rest, last = [], 0
    for i, j in hits:
        rest.append(name[last:i])
        last = j
    rest.append(name[last:])
    words = WORD_RE.findall(" ".join(rest))
    return all(len(w) < MIN_LENGTH or is_general(w.upper()) for w in words)


def _by_prefix(token: str, prefix: str) -> bool:
    """A corpus token an ``--include PREFIX*`` takes: it starts with the prefix and is a name."""
    return len(token) >= 3 and token.startswith(prefix.upper()) and re.fullmatch(r"[A-Za-z0-9_-]+", token) is not None


# Names that exist only because a renamed base exists (BMS symbolic maps MI/MO, the L/F/A/I/O names of
# a BMS field, ASSIGN TO S-X), by the class of their base. A derived name is never renamed on its own.
DERIVED_CLASS = {"bms_map": "bms_symbolic_map", "bms_field": "bms_field_suffixed", "jcl_dd": "assign_name"}


def _derived_patterns(name: str, cls: str, corpus_tokens: set[str], assign_prefixes: dict[str, list[str]]) -> list[str]:
    """Forms of ``name`` that occur in the corpus and must move with it: ``+I``/``+O`` for a BMS map's
    symbolic maps, ``+L +F +A +C +P +H +V +U +M +T +I +O`` (length, flag, attributes, extended attributes, input,
    output) for a BMS field, ``S-+`` style ASSIGN prefixes for a DD name."""
    up = name.upper()
    if cls == "bms_map":
        return [f"+{s}" for s in BMS_MAP_SUFFIXES if up + s in corpus_tokens]
    if cls == "bms_field":
        return [f"+{s}" for s in BMS_FIELD_SUFFIXES if up + s in corpus_tokens]
    if cls == "jcl_dd":
        return [f"{prefix}+" for prefix in assign_prefixes.get(up, [])]
    return []


# A renamed name glued to other letters on one side, with no separator or case change between them
# (CARDDEMOPRODJCL), is still that name when it is at least this long; a shorter one (STL in CASTLE)
# is taken only between two word boundaries.
GLUE_MIN = 6
PART_SEPARATORS = "-_."


def part_edge(token: str, i: int) -> bool:
    """A word boundary before ``token[i]``: the token's ends, a separator, a change between letter and
    digit, or lower case followed by upper case (``LGACUS01Operation``, ``HV-ACCTDAT-DESC``)."""
    if i <= 0 or i >= len(token):
        return True
    a, b = token[i - 1], token[i]
    return a in PART_SEPARATORS or b in PART_SEPARATORS or a.isdigit() != b.isdigit() or (a.islower() and b.isupper())


def pinned_reason(token: str, kept: dict[str, str]) -> str | None:
    """Why a whole token may not have parts renamed: its spelling is fixed outside the corpus (a
    reserved word, an IBM-prefixed name) or by a rule of the renamer (a kept name: COPY REPLACING
    builds it, the user listed it)."""
    up = token.upper()
    if up in kept:
        return kept[up]
    if up in reserved_words():
        return "reserved word"
    if ibm_supplied(up) and "_" not in up:
        return "system prefix"
    return None


def system_part_end(token: str) -> int:
    """Where the application's part of an IBM-prefixed token starts: after the first ``_`` of a name
    such as DFHNCLS_GENA (a CICS named-counter server of the pool GENA, which the application names),
    else 0 (``DFHCOMMAREA`` is IBM's whole, and ``pinned_reason`` pins it)."""
    return token.index("_") + 1 if ibm_supplied(token.upper()) and "_" in token else 0


class Lookup:
    """Token -> replacement, counting replaced occurrences per class.

    A token that is a renamed name becomes its new token; a longer token that carries renamed names as
    parts (``'LGACDB01------WS'``, ``LS2WS_LGACUS01``, ``CARDDEMOPRODJCL``) has each part replaced by
    the same new token, so the longer token keeps its shape and reads the same in every file. Parts of
    a token pinned by ``pinned_reason`` stay, and case-sensitive (Python/Java/...) names are renamed
    whole only: the longer identifier may be a library's (``set_cookie`` when ``cookie`` is renamed),
    and a file name must stay the module name the code imports.
    """

    def __init__(self, identifiers: dict[str, str], classes: dict[str, str], kept: dict[str, str] | None = None):
        self.cs: dict[str, tuple[str, str]] = {}
        self.ci: dict[str, tuple[str, str]] = {}
        for orig, new in identifiers.items():
            cls = classes.get(orig, "included")
            if cls in CASE_SENSITIVE_CLASSES:
                self.cs[orig] = (new, cls)
            else:
                self.ci[orig.upper()] = (new, cls)
        self.kept = {k.upper(): why for k, why in (kept or {}).items()}
        self.counts: dict[str, int] = {}
        self.dropped: frozenset[str] = frozenset()  # classes a view leaves alone (``_without``)
        self._index()

    def _index(self) -> None:
        names = list(self.ci) + list(self.cs)
        self._lengths = sorted({len(n) for n in names}, reverse=True)
        self._heads = {n[:3].upper() for n in names}
        self._cache: dict[tuple[str, bool, bool], list[tuple[int, int, str, str]]] = {}

    @cached_property
    def data_view(self) -> Lookup:
        """This map without the names data keeps (``KEPT_IN_DATA``), for a Python string literal
        that names no code (``rename/pystrings.py``)."""
        return self._without(KEPT_IN_DATA)

    @cached_property
    def path_view(self) -> Lookup:
        """This map without its Python/Java names, for the path of a file that is no code: code opens
        it by a literal path, which keeps them (a prose word is renamed there, as in the prose)."""
        return self._without(CASE_SENSITIVE_CLASSES)

    def _without(self, classes: frozenset[str]) -> Lookup:
        """A view that leaves names of ``classes`` alone; its replacements are counted with this lookup's."""
        view = copy(self)
        view.dropped = self.dropped | classes
        view.cs = {k: hit for k, hit in self.cs.items() if hit[1] not in classes}
        view.ci = {k: hit for k, hit in self.ci.items() if hit[1] not in classes}
        view._index()
        return view

    def original_class(self, token: str) -> str | None:
        hit = self.cs.get(token) or self.ci.get(token.upper())
        return hit[1] if hit else None

    def replaced(self, token: str) -> list[tuple[int, int]]:
        """(start, end) of what renaming replaces in ``token``: all of it, or its renamed parts."""
        if self.original_class(token):
            return [(0, len(token))]
        return [(i, j) for i, j, *_ in self.parts(token)]

    def parts(self, token: str, pinned: bool = True, case_sensitive: bool = False) -> list[tuple[int, int, str, str]]:
        """(start, end, new, class) of every renamed name carried inside ``token`` (not the whole
        token), leftmost then longest first. Verification asks for what renaming leaves: pins ignored
        (``pinned=False``) and case-sensitive names included."""
        key = (token, pinned, case_sensitive)
        if key in self._cache:
            return self._cache[key]
        hits: list[tuple[int, int, str, str]] = []
        if not (pinned and pinned_reason(token, self.kept)):
            up, n = token.upper(), len(token)
            i = system_part_end(up)
            while i < n - 2:
                hit = None
                if up[i : i + 3] in self._heads:
                    for length in self._lengths:
                        j = i + length
                        if j > n or (i == 0 and j == n):
                            continue
                        found = self.ci.get(up[i:j]) or (self.cs.get(token[i:j]) if case_sensitive else None)
                        if found and self._glued_ok(token, i, j):
                            hit = (i, j, *found)
                            break
                if hit:
                    hits.append(hit)
                    i = hit[1]
                else:
                    i += 1
        self._cache[key] = hits
        return hits

    @staticmethod
    def _glued_ok(token: str, i: int, j: int) -> bool:
        left, right = part_edge(token, i), part_edge(token, j)
        if left and right:
            return True
        if not (left or right) or j - i < GLUE_MIN or any(c in PART_SEPARATORS for c in token[i:j]):
            return False  # a hyphenated name glued on (ST-NAME in FIRST-NAME) is a cut through a word
        # CARDDEMOPRODJCL, carddemousr, GENAPPs; but an English or reserved word is no name glued to
        # letters (COMMER, a screen's abbreviation, in COMMERCIAL; YSPRINT in SYSPRINT), nor is the lower-case rest of a capitalised word
        # glued to its initial (Constant holds no 'onstant')
        if token.upper() in english_words() or token.upper() in reserved_words():
            return False
        return left or not (token[i - 1].isupper() and token[i].islower())

    def __call__(self, token: str) -> str | None:
        hit = self.cs.get(token) or self.ci.get(token.upper())
        if hit is not None:
            new, cls = hit
            self.counts[cls] = self.counts.get(cls, 0) + 1
            return recase(new, token)
        hits = self.parts(token)
        if not hits:
            return None
        out, last = [], 0
        for i, j, new, cls in hits:
            out += [token[last:i], recase(new, token[i:j])]
            last = j
            self.counts[cls] = self.counts.get(cls, 0) + 1
        return "".join(out) + token[last:]
