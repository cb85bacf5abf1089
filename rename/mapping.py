"""From a discovery and the user's choices to the identifier map: selection, keep/include/exclude,
derived names, seeded tokens. Pure: no I/O."""

from __future__ import annotations

import re
from dataclasses import dataclass

from groundjudge.errors import UserError
from groundjudge.rename.discover import Discovery
from groundjudge.rename.generate import Rejection, TokenRules, generate, ordered
from groundjudge.rename.lexer import recase
from groundjudge.rename.models import CASE_SENSITIVE_CLASSES, CLASS_ORDER, DEFAULT_CLASSES
from groundjudge.rename.vocabulary import english_words, reserved_words

ASSIGN_DERIVED_RE = re.compile(r"^((?:UT-|DA-)?(?:S|AS|D|R|I|U|V)-)(.+)$")


@dataclass
class PlannedMap:
    identifiers: dict[str, str]
    classes: dict[str, str]
    derived_from: dict[str, str]
    kept: dict[str, str]
    rejections: list[Rejection]


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
) -> PlannedMap:
    keep_set = {k.upper() for k in keep}
    exclude_set = {e.upper() for e in exclude}
    include_set = {i.upper() for i in include}
    chosen: dict[str, tuple[str, str]] = {k: v for k, v in d.found.items() if v[1] in classes}
    kept = {name: why for name, (why, cls) in d.kept.items() if cls in classes}
    reserved = reserved_words()
    # an --include word matches ignoring case: every discovered spelling of it (``ledger`` the module
    # and ``Ledger`` the class), with its own class; a name discovery never met is class ``included``
    spellings: dict[str, list[tuple[str, str, str]]] = {}  # upper -> (key, name, class)
    for key, (name, cls) in d.found.items():
        spellings.setdefault(key.upper(), []).append((key, name, cls))
    for name, (_why, cls) in d.kept.items():
        if name.upper() not in spellings:
            spellings.setdefault(name.upper(), []).append((name if cls in CASE_SENSITIVE_CLASSES else name.upper(), name, cls))
    for word in include:
        up = word.upper()
        if up in reserved:
            kept[word] = "reserved word (--include ignored)"
            continue
        for key, name, cls in spellings.get(up, [(up, word, "included")]):
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
        elif up in english and up not in include_set:
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
        if m := ASSIGN_DERIVED_RE.match(t):
            assign_prefixes.setdefault(m.group(2), []).append(m.group(1))
    derived = {name: _derived_patterns(name, cls, d.corpus_tokens, assign_prefixes) for name, cls in bases}
    # a derived name (ACCTMAPI) may also be defined on its own (01 ACCTMAPI in the symbolic-map
    # copybook): it must move with its base, so it is not renamed independently
    derived_keys = {p.replace("+", n).upper() for n, pats in derived.items() for p in pats}
    bases = [(n, c) for n, c in bases if n.upper() not in derived_keys]
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
    return PlannedMap(identifiers, cls_of, derived_from, dict(sorted(kept.items())), rejections)


# Names that exist only because a renamed base exists (BMS symbolic maps MI/MO, the L/F/A/I/O names of
# a BMS field, ASSIGN TO S-X), by the class of their base. A derived name is never renamed on its own.
DERIVED_CLASS = {"bms_map": "bms_symbolic_map", "bms_field": "bms_field_suffixed", "jcl_dd": "assign_name"}


def _derived_patterns(name: str, cls: str, corpus_tokens: set[str], assign_prefixes: dict[str, list[str]]) -> list[str]:
    """Forms of ``name`` that occur in the corpus and must move with it: ``+I``/``+O`` for a BMS map's
    symbolic maps, ``+L +F +A +C +P +H +V +U +M +T +I +O`` (length, flag, attributes, extended attributes, input,
    output) for a BMS field, ``S-+`` style ASSIGN prefixes for a DD name."""
    up = name.upper()
    if cls == "bms_map":
        return [f"+{s}" for s in ("I", "O") if up + s in corpus_tokens]
    if cls == "bms_field":
        return [f"+{s}" for s in "LFACPHVUMTIO" if up + s in corpus_tokens]
    if cls == "jcl_dd":
        return [f"{prefix}+" for prefix in assign_prefixes.get(up, [])]
    return []


class Lookup:
    """Token -> replacement, counting replaced occurrences per class."""

    def __init__(self, identifiers: dict[str, str], classes: dict[str, str]):
        self.cs: dict[str, tuple[str, str]] = {}
        self.ci: dict[str, tuple[str, str]] = {}
        for orig, new in identifiers.items():
            cls = classes.get(orig, "included")
            if cls in CASE_SENSITIVE_CLASSES:
                self.cs[orig] = (new, cls)
            else:
                self.ci[orig.upper()] = (new, cls)
        self.counts: dict[str, int] = {}

    def original_class(self, token: str) -> str | None:
        hit = self.cs.get(token) or self.ci.get(token.upper())
        return hit[1] if hit else None

    def __call__(self, token: str) -> str | None:
        hit = self.cs.get(token) or self.ci.get(token.upper())
        if hit is None:
            return None
        new, cls = hit
        self.counts[cls] = self.counts.get(cls, 0) + 1
        return recase(new, token)
