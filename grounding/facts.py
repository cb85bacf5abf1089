"""Claims as typed facts: what a claim asserts, as (subject, predicate, object, qualifiers) with the
character spans they came from, so a checker can be chosen per predicate and a verdict can name the
fact that decided it.

The predicates form a closed vocabulary (``Predicate``, documented in docs/grounding.md). A sentence
this module cannot read as one of them yields an ``unknown`` fact only when it states a judgement
(an opinion, an intent, a guess): a plain description of behaviour is left to the checks of its names
and relations, since the snapshot can confirm the names it uses but never a word such as "cleanest".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING

from pydantic import BaseModel

if TYPE_CHECKING:  # models.py holds facts in its Claim, so this module cannot import it at run time
    from groundjudge.grounding.claims import Cue
    from groundjudge.grounding.models import ClaimRef

Span = tuple[int, int]


class Measure(str, Enum):
    """What a has-value's number counts: characters (a field's length) or a unit of time, whose code may
    hold the same span in another unit (30 seconds as 30000 milliseconds)."""

    LENGTH = "length"
    NANOSECONDS = "ns"
    MICROSECONDS = "us"
    MILLISECONDS = "ms"
    SECONDS = "s"
    MINUTES = "min"
    HOURS = "h"


SECONDS_PER: dict[Measure, float] = {
    Measure.NANOSECONDS: 1e-9,
    Measure.MICROSECONDS: 1e-6,
    Measure.MILLISECONDS: 1e-3,
    Measure.SECONDS: 1.0,
    Measure.MINUTES: 60.0,
    Measure.HOURS: 3600.0,
}


class Predicate(str, Enum):
    DEFINED_AT = "defined-at"  # a name is defined in a file, at lines, or is of a kind
    CALLS = "calls"  # calls, performs, runs, invokes
    READS = "reads"
    WRITES = "writes"
    REWRITES = "rewrites"
    DELETES = "deletes"
    TRANSFERS_CONTROL = "transfers-control"  # EXEC CICS XCTL
    LINKS = "links"  # EXEC CICS LINK
    CALLS_PROGRAM = "calls-program"  # COBOL CALL
    COPIES = "copies"  # COPY, include
    IMPORTS = "imports"
    INHERITS = "inherits"
    HAS_VALUE = "has-value"  # a constant, a default argument, a PIC or VALUE clause, a literal moved
    RAISES = "raises"
    CATCHES = "catches"
    MAPS_EXCEPTION = "maps-exception"  # catches one exception and raises another
    RETURNS = "returns"
    HAS_MEMBER = "has-member"
    COUNTS = "counts"
    UNUSED = "unused"  # nothing uses a name: "never called", "declared but never referenced", "nothing calls `X`"
    UNKNOWN = "unknown"  # opinions, intent, business or runtime claims: nothing in the code can settle it


class Term(BaseModel):
    """A name or value of a fact, as written and normalised, with its span in the claim text."""

    text: str
    value: str
    span: Span


class Fact(BaseModel):
    predicate: Predicate
    span: Span  # the words that state the predicate
    subject: Term | None = None
    object: Term | None = None
    value: str | None = None  # for has-value: the value claimed; for counts: the number; for unused: facts._use_kind
    file: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    initial: bool = False  # for has-value: the claim says the initial or default value (VALUE, defaults to)
    assigned: bool = False  # for has-value: the claim says code sets it (MOVE, SET, COMPUTE, an assignment)
    # for has-value set by code, returns, counts, unused: whose code span does it; maps-exception: what is caught
    by: Term | None = None
    measure: Measure | None = None  # for has-value: what its number counts (a length, a unit of time)
    negated: str | None = None  # for returns: a value the claim says is not returned ("rather than `True`")
    noun: str | None = None  # for counts: what is counted (files, paragraphs); for has-member: the member kind


# Relation cue words (grounding.claims.relation_cues) -> predicate, refined by the word itself.
_CUE_WORDS: list[tuple[str, re.Pattern[str], Predicate]] = [
    ("transfers", re.compile(r"XCTL|transfer|hand", re.I), Predicate.TRANSFERS_CONTROL),
    ("transfers", re.compile(r"LINK", re.I), Predicate.LINKS),
    ("copies", re.compile(r"import", re.I), Predicate.IMPORTS),
    ("copies", re.compile(r""), Predicate.COPIES),
    ("calls", re.compile(r""), Predicate.CALLS),
    ("reads", re.compile(r""), Predicate.READS),
    ("writes", re.compile(r"rewrit", re.I), Predicate.REWRITES),
    ("writes", re.compile(r"delet", re.I), Predicate.DELETES),
    ("writes", re.compile(r""), Predicate.WRITES),
    ("defines", re.compile(r""), Predicate.DEFINED_AT),
]

_NAME = r"`[^`]+`"
INHERITS = re.compile(
    # "implements" and "embeds" state a base only right before its name ("implements `Runnable`", not
    # "implements the retry rule in `post`"): in the masked text a name is a run of blanks.
    r"(?<![\w-])(?:subclass(?:es|ed)?|inherits?\s+from|inherit(?:s|ed)?|extends|derives?\s+from|"
    r"(?:implements|embeds)(?=\s+(?:(?:the|an?|interface|trait|protocol)\s+)?\s\s)|"
    r"is\s+(?:a\s+)?(?:subclass|subtype|child\s+class)\s+of|is\s+derived\s+from)(?![\w-])",
    re.I,
)
RAISES = re.compile(r"(?<![\w-])(?:rais(?:es|e|ed|ing)|throws?|re-raises?|reraises?)(?![\w-])", re.I)
# "a file handle", "the trap": a determiner or noun before the word makes it a noun, not the verb
_NOUN_BEFORE = re.compile(r"\b(?:a|an|the|its|their|this|that|file|open)\s+$", re.I)
CATCHES = re.compile(r"(?<![\w-])(?:catch(?:es)?|caught|handles?|swallows?|traps?)(?![\w-])", re.I)
RETURNS = re.compile(r"(?<![\w-])returns?(?![\w-])", re.I)
_LITERAL = (
    r"`[^`]+`|[-+]?\d[\d_,]*(?:\.\d+)?(?![\w-])|\"[^\"]*\"|'[^']*'|None|True|False|"
    r"(?:high-|low-)?values?|zeros?|zeroes|spaces?"
)
# Code that sets a name: "`P` sets `Y` to 12", "moves 'E' to `Y`", "returns `Y` as 'N'", "stores 0 in `Y`".
_SETS = [
    re.compile(
        r"(?<![\w-])(?:sets?|resets?|initiali[sz]es|forces?|changes?)\s+(?P<name>`[^`]+`)\s+to\s+(?P<value>" + _LITERAL + ")",
        re.I,
    ),
    re.compile(
        r"(?<![\w-])(?:moves?|stores?|puts?|assigns?)\s+(?P<value>" + _LITERAL + r")\s+(?:to|into|in)\s+(?P<name>`[^`]+`)", re.I
    ),
    re.compile(r"(?<![\w-])returns?\s+(?P<name>`[^`]+`)\s+(?:as|set\s+to|=)\s+(?P<value>" + _LITERAL + ")", re.I),
]
# "returns `X`", "returns the first entry of `X`", "returns the decoded timestamp rather than `True`"
_RETURNS_WHAT = re.compile(
    r"returns?\s+(?P<what>(?:`[^`]*`|[^,;.`])*?)(?=\s+(?:rather\s+than|instead\s+of|and|but|when|if|on|for|so)\b|[,;.]|$)", re.I
)
_A_TYPE = re.compile(r"an?\s+`", re.I)
_NOT_RETURNED = re.compile(r"(?:rather\s+than|instead\s+of|not)\s+(?P<value>`[^`]+`)", re.I)
# "is 3 characters long", "is 2 bytes", "has a length of 8"
_LENGTH = re.compile(r"\s*(?:characters?|chars|bytes?|positions?)(?:\s+(?:long|wide))?(?![\w-])", re.I)
# "is 30 seconds", "`1000 * 3` milliseconds": the unit of time a value is given in
_TIME_UNIT = re.compile(
    r"`?\s*(?:(?P<ns>nanoseconds?|ns)|(?P<us>microseconds?|µs|us)|(?P<ms>milliseconds?|ms)|(?P<s>seconds?|secs?)|"
    r"(?P<min>minutes?|mins?)|(?P<h>hours?))(?![\w-])",
    re.I,
)
_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
        ]
    )
}
# "closes all four files", "performs three paragraphs", "`R` has 5 fields": a verb, a count, what is counted.
COUNTS = re.compile(
    r"(?<![\w-])(?P<verb>closes|opens|performs|calls|defines|declares|has|contains|holds|validates|checks)\s+"
    r"(?:(?:all|only|exactly|just)\s+)?(?:the\s+)?(?P<n>\d+|" + "|".join(_NUMBER_WORDS) + r")\s+"
    r"(?P<noun>files?|paragraphs?|sections?|methods?|functions?|fields?|items?|subordinate\s+items?|"
    r"conditions?|classes|keys?|attributes?)(?![\w-])",
    re.I,
)
# "exports `X` from `pkg/__init__.py`", "`C` has a method `m`", "`R` has a field `F`"
EXPORTS = re.compile(r"(?<![\w-])(?:re-?)?exports?\s+(?P<name>`[^`]+`)", re.I)
MEMBER = re.compile(
    r"(?<![\w-])(?:has|have|defines|declares|contains)\s+(?:an?\s+|the\s+)?(?:(?:class|instance|static)\s+)?"
    r"(?P<noun>method|attribute|field|property|member|subordinate\s+item|child\s+item)s?\s+(?:called\s+|named\s+)?"
    r"(?P<name>`[^`]+`)",
    re.I,
)
# "`X` is 80", "`X` = 80", "`max_age` defaults to 3600", "`X` is set to 'E'", "`X` starts at `VALUE 1`"
HAS_VALUE = re.compile(
    # "the `context` parameter defaults to": a noun saying what the name is may stand before the verb
    r"(?:\s+(?:parameter|argument|option|field|attribute|constant|variable|setting|flag|default))?"
    # "a `token` that defaults to": a relative pronoun may stand before a default
    r"(?:\s+(?:that|which)(?=\s+defaults?\b))?"
    # "`__version__` set in `pkg/__init__.py` is": where the name is set may stand before the verb
    r"(?:\s+(?:(?:set|defined|declared|assigned)\s+)?in\s+`[^`]+`)?"
    r"\s*(?P<verb>is\s+(?:set\s+to\s+|initiali[sz]ed\s+to\s+)?|=\s*|==\s*|equals\s+|defaults?\s+to\s+|"
    # "within `KEEPALIVE-RECV-TIMEOUT`, which is 30 seconds": a relative clause naming the value
    r",\s+which\s+is\s+(?:set\s+to\s+)?|"
    # "`ASSERTIONS-LIMIT`, a level-78 constant of 500": an appositive naming the value
    r",\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(?:constant|limit|default|maximum|minimum)\s+of\s+|"
    r"has\s+(?:the\s+)?(?:value|default)\s+(?:of\s+)?|has\s+(?=`VALUE\b)|starts?\s+(?:at|as)\s+)"
    r"(?P<value>`(?:VALUE\s+(?:IS\s+)?)?(?:[-+]?\d[\d_,]*(?:\.\d+)?|b?\"[^\"`]*\"|b?'[^'`]*'|None|True|False|"
    r"\[[^`\]]*\]|\([^`)]*,[^`)]*\))`|"
    r"[-+]?\d(?:[\d_]|,(?=\d))*(?:\.\d+)?(?![\w-])|\"[^\"]*\"|'[^']*'|None|True|False)",
    re.I,
)
# "`X` is `60 * 1000`", "`X`, the cap on a read, is 5 MiB (`5 * 1024 * 1024`)": a computed value quoted as
# the code spells it (an appositive and a few words of prose may come first)
# An arithmetic expression of names and numbers (`10 * 1024 * 1024`, `0.3 * attempt`); the operators stand
# apart ("5 * 1024"): a COBOL name's hyphens (`WX-ENTRADA`) are no subtraction
EXPRESSION = r"[\w.]+(?:\s+(?:\*\*|[-+*/%])\s+[\w.()]+)+"
HAS_EXPRESSION = re.compile(
    r"(?:,\s[^,`]{1,40},|,\s+which)?\s*(?P<verb>is|=|equals|defaults?\s+to)\s+(?:[\w.]+\s+){0,3}\(?"
    + f"`(?P<value>{EXPRESSION})`",
    re.I,
)
# A value stated inside a condition ("until `X` is 'Y'") is a runtime state, not the name's value.
_CONDITION = re.compile(r"(?<![\w-])(?:until|when|whenever|if|unless|while|whether|once|after|before)(?![\w-])[^,;]*$", re.I)
# A COBOL data item's VALUE is only its initial content: a plain "is" says what it holds at some point.
# A relative clause right after the name ("`X`, which is 80") says what the name is, not what it holds by then.
_INITIAL = re.compile(r"VALUE|defaults?|starts?|initiali[sz]ed|has|constant|which", re.I)


# Judgements a snapshot cannot settle: quality, intent, likelihood, audience, history.
OPINION = re.compile(
    r"(?<![\w-])(?:clean(?:est|er)?|elegant|best|worst|better|worse|fine|nice|ugly|poor(?:ly)?|"
    r"robust|fragile|simpler?|readable|idiomatic|well[- ]designed|over-?engineered|sensible|"
    r"(?:in)?secure|vulnerable|important|critical|crucial|complex|complicated|overly|unnecessar(?:y|ily)|"
    r"on\s+purpose|purposely|deliberate(?:ly)?|keep\s+the\s+focus|easier|harder|forgiving|(?:un)?safe(?:st|r)?|pragmatic|"
    r"concession|practice|mostly|demos?|teach(?:es|ing)?|rarely|neat|spares|"
    r"should|ought|might|could|would|"
    # "may" is a hedge, except in a rule of what is allowed ("a literal may open with `'`", "may not have")
    r"may(?!\s+(?:not\s+|also\s+|only\s+)*(?:(?:have|contain|open|start|begin|end|follow|precede|appear|hold|include|repeat|consist|be\s+(?:followed|preceded|omitted|given|empty|repeated))\b|be\s{3,}))|probably|likely|presumably|perhaps|maybe|seems?|looks?\s+like|"
    r"acceptable|unacceptable|reasonable|appropriate|trade-?offs?|trades\s+\w+\s+for|(?:fast|slow)(?:er|est)?(?!\s+path)|"
    r"learners?|hard(?:er|est)?|surpris\w*|realistic(?:ally)?|easy|cheap(?:er|est)?|dominates?|convenien(?:t|ce)|"
    r"the\s+right\s+(?:design|choice|call|approach|default|precedence|thing|way|place|decision|abstraction|fix)|"
    r"(?:a|an|is)\s+sound\s+\w+|"
    r"suggests?|apparently|exists?\s+(?:(?:mainly|mostly|only|largely|primarily|partly|chiefly)\s+)?(?:so(?:\s+that)?|to|for)|"
    r"designed\s+to|meant\s+to|intended|in\s+order\s+to|(?:was|were|is|are)\s+chosen|questionable|dubious|debatable|clever|(?:un)?wise|"
    r"thoughtful|tidy|tidier|friendl(?:y|ier|iest)|(?:most\s+)?reliable|users?\s+expect|"
    r"(?:nearly|almost|essentially|practically)\s+free|effectively|(?:constant|linear|quadratic)[- ]time|"
    # runtime behaviour and performance: what a run does, which static code alone does not show
    r"silently|at\s+run\s*time|in\s+production|under\s+load|quickly|slowly|efficient(?:ly)?|"
    # history, popularity and typical usage: facts about people and time, which a snapshot does not record
    r"grew|grown|evolved|accret\w*|historically|over\s+(?:time|the\s+years)|for\s+legacy\s+reasons|"
    r"popular(?:ity)?|widely|commonly|typical(?:ly)?|usually|in\s+practice|in\s+the\s+wild|de\s+facto|"
    r"end(?:s|ed)?\s+up\s+\w+ing|most\s+(?:\w+\s+){0,2}(?:applications|apps|projects|users|developers|teams|"
    r"codebases|people|shops|sites|installations|installs|deployments))(?![\w-])",
    re.I,
)


# "Catch `RequestException` last", "Prefer `X`": an imperative is advice to the reader, not a fact of the code
_ADVICE = re.compile(
    r"\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:catch|prefer|avoid|use|consider|retry|wrap|never|always|don't|do\s+not)\b", re.I
)
# "... when the timestamp could be decoded": a modal inside a condition states when code acts, not a guess
_CONDITIONAL_MODAL = re.compile(r"\b(?:when|if|unless|whether|once)\s+(?:[\w'-]+\s+){0,4}(?:may|might|could)$", re.I)


def _mask(text: str) -> str:
    """Backtick spans blanked (same length), so words inside code are never read as the claim's words."""
    return re.sub(r"`+[^`]*`+", lambda m: " " * len(m.group(0)), text)


def _term(ref: ClaimRef) -> Term:
    return Term(text=ref.text, value=ref.value, span=(ref.start, ref.end))


CELL_SEPARATOR = " | "  # what joins a table row's cells in its unit's text (claims._row_text)


def cell_end(text: str, pos: int) -> int:
    """Where the table cell holding pos ends: a cell's verb acts on nothing in the next cell."""
    end = text.find(CELL_SEPARATOR, pos)
    return len(text) if end < 0 else end


def _names(refs: list[ClaimRef]) -> list[ClaimRef]:
    return [r for r in refs if r.kind == "identifier"]


def _before(refs: list[ClaimRef], pos: int) -> ClaimRef | None:
    earlier = [r for r in refs if r.end <= pos]
    return earlier[-1] if earlier else None


def _after(refs: list[ClaimRef], pos: int) -> ClaimRef | None:
    return next((r for r in refs if r.start >= pos), None)


def _word_fact(predicate: Predicate, m: re.Match[str], names: list[ClaimRef], text: str) -> Fact:
    obj = _after(names, m.end())
    if obj is not None and "`" in text[m.end() : obj.start]:
        # "raises `"Cannot declare {key} twice"` when ... `Flags.EXPLICIT_NEST`": the first thing quoted after
        # the verb is what it names (a message here), not a later name
        obj = None
    term = _term(obj) if obj else _repeated_after(names, m.end(), text)
    return Fact(predicate=predicate, span=(m.start(), m.end()), subject=_actor(names, m.start(), text), object=term)


def _repeated_after(names: list[ClaimRef], pos: int, text: str) -> Term | None:
    """The next backticked name after pos when the claim named it before too ("`A` has no base, and `B`
    subclasses `A`"): the extractor keeps one reference per name, at its first place."""
    m = re.compile(r"`([^`]+)`").search(text, pos)
    ref = next((r for r in names if m is not None and r.value == m.group(1).strip().removesuffix("()")), None)
    if m is None or ref is None:
        return None
    return Term(text=m.group(0), value=ref.value, span=m.span())


# "turns `ReadTimeoutError` into `ReadTimeout`", "maps `KeyError` to `BadData`", "re-raises `X` as `Y`"
MAPS = re.compile(
    r"(?<![\w-])(?:turns?|converts?|maps?|translates?|re-?raises?|rethrows?|wraps?)\s+(?:[\w'’]+\s+){0,2}?"
    r"(?P<caught>`[^`]+`)(?:\s+\w+){0,3}?\s+(?:into|to|as|in)\s+(?:an?\s+|the\s+)?(?P<raised>`[^`]+`)",
    re.I,
)


def _mapping_facts(text: str, names: list[ClaimRef]) -> list[Fact]:
    facts = []
    for m in MAPS.finditer(text):
        caught, raised = _ref_in(names, *m.span("caught")), _ref_in(names, *m.span("raised"))
        if caught is None or raised is None:
            continue
        facts.append(
            Fact(
                predicate=Predicate.MAPS_EXCEPTION,
                span=(m.start(), m.end()),
                subject=_actor(names, m.start(), text),
                object=_term(raised),
                by=_term(caught),
            )
        )
    return facts


# "`naturaltime` defaults to `months=True`", "the constructor's defaults are `salt=b"x"`, `sep=b"."`": a
# parameter's default quoted as its declaration spells it, in a clause that speaks of defaults
_QUOTED_DEFAULT = re.compile(
    r"`(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>[-+]?\d[\d_]*(?:\.\d+)?|b?\"[^\"`]*\"|b?'[^'`]*'|None|True|False)`"
)
# the word "default" governs the quoted `name=value` items right after it, not a later clause's ("unless you
# pass `x=False`")
_DEFAULT_WORD = re.compile(r"\bdefaults?\b(?:[\s,:]|\b(?:are|is|to|of|and|its|their|the)\b)*$", re.I)


def _quoted_default_facts(text: str) -> list[Fact]:
    masked = _mask(text)
    return [
        Fact(
            predicate=Predicate.HAS_VALUE,
            span=m.span(),
            subject=Term(text=m.group("name"), value=m.group("name"), span=m.span("name")),
            value=m.group("value"),
            initial=True,
        )
        for m in _QUOTED_DEFAULT.finditer(text)
        if _DEFAULT_WORD.search(masked, 0, m.start())
    ]


def _value_facts(text: str, names: list[ClaimRef]) -> list[Fact]:
    facts = []
    for ref in names:
        m = HAS_VALUE.match(text, ref.end) or HAS_EXPRESSION.match(text, ref.end)
        if m is None or (_CONDITION.search(_mask(text[: ref.start])) and not _INITIAL.search(m.group(0))):
            continue
        value = m.group("value").strip("`")
        initial = bool(_INITIAL.search(m.group(0)))
        measure = _measure(text, m.end())
        assigned = "set" in m.group("verb").lower()
        facts.append(
            Fact(
                predicate=Predicate.HAS_VALUE,
                span=(m.start(), m.end()),
                subject=_term(ref),
                value=value,
                initial=initial,
                measure=measure,
                assigned=assigned,
            )
        )
    return facts


def _measure(text: str, pos: int) -> Measure | None:
    """What the number ending at pos counts, from the word after it."""
    if _LENGTH.match(text, pos):
        return Measure.LENGTH
    unit = _TIME_UNIT.match(text, pos)
    return Measure(unit.lastgroup) if unit is not None and unit.lastgroup else None


_SIZE = r"(?P<n>\d+|" + "|".join(_NUMBER_WORDS) + r")-(?:bytes?|characters?|chars?)"
# "a 79-byte text `W-TEXTO`", "the 60-byte field `MSG`" (a colon or comma between, as in "three 15-byte
# labels: `A`", says the size is each of several)
_SIZE_BEFORE = re.compile(r"(?<![\w-])" + _SIZE + r"\s+(?:[a-z]+\s+){0,3}?$", re.I)
# "`MSG` is a 60-byte protected field"
_SIZE_AFTER = re.compile(r"\s+is\s+an?\s+(?:[a-z]+\s+){0,2}?" + _SIZE + r"(?![\w-])", re.I)


def _size_facts(text: str, names: list[ClaimRef]) -> list[Fact]:
    """A size written as an adjective of a name: the name's length."""
    facts = []
    for ref in names:
        before = _SIZE_BEFORE.search(text, max(0, ref.start - 60), ref.start)
        m = before or _SIZE_AFTER.match(text, ref.end)
        if m is None:
            continue
        n = m.group("n").lower()
        value = str(_NUMBER_WORDS.get(n, n))
        facts.append(
            Fact(
                predicate=Predicate.HAS_VALUE,
                span=m.span(),
                subject=_term(ref),
                value=value,
                initial=True,
                measure=Measure.LENGTH,
            )
        )
    return facts


# "| `SOMA` | PIC: `9(005)` | Initial `VALUE`: 1 |": a cell under a value or default column (claims._row_text
# writes each cell after its header) holding a literal states the row name's value
_VALUE_CELL = re.compile(
    r"\|\s*[^|:]*\b(?:values?|defaults?)\b[^|:`]*`?[^|:]*:\s*(?P<value>`?(?:[-+]?\d[\d_,]*(?:\.\d+)?|\"[^\"|]*\"|'[^'|]*'|"
    r"None|True|False|true|false|null|nil)`?)\s*(?=\||$)",
    re.I,
)


def _row_value_facts(text: str, names: list[ClaimRef]) -> list[Fact]:
    if " | " not in text:
        return []
    first_cell = text.index(" | ")
    key = next((r for r in names if r.end <= first_cell), None)
    if key is None:
        return []
    return [
        Fact(
            predicate=Predicate.HAS_VALUE,
            span=m.span("value"),
            subject=_term(key),
            value=m.group("value").strip("`"),
            initial=True,
        )
        for m in _VALUE_CELL.finditer(text, first_cell)
    ]


def _ref_in(refs: list[ClaimRef], start: int, end: int) -> ClaimRef | None:
    return next((r for r in refs if start <= r.start and r.end <= end), None)


# "`A` tries each signer from `B` and raises X", "performs `P`; then it moves": after "and" or "it", the verb is
# the sentence subject's again.
_AND_VERB = re.compile(r"\b(?:(?:and|then|but)\s+(?:it\s+|they\s+)?|it\s+|they\s+)(?:also\s+|then\s+|only\s+)?$", re.I)


_PRONOUN_BEFORE = re.compile(r"\b(?:it|they)\s+(?:also\s+|then\s+|only\s+|first\s+)?$", re.I)
_OPENS = re.compile(r"\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:the\s+\w+\s+)?", re.I)


def _actor(names: list[ClaimRef], pos: int, text: str = "") -> Term | None:
    """The name whose code does what a verb at pos says: the nearest name before it, or the sentence's first
    name when the verb follows "and" (the name just before it is then what the previous verb acted on)."""
    before = [r for r in names if r.end <= pos]
    if not before:
        return None
    if _PRONOUN_BEFORE.search(text, 0, pos) and not _OPENS.fullmatch(text, 0, before[0].start):
        return None  # "On ENTER it performs `P`; on PF3 it moves": "it" is the context, never what a verb acted on
    # "... and `FileModeWarning` subclasses": a name right before the verb is its subject
    if len(before) > 1 and text[before[-1].end : pos].strip() and _AND_VERB.search(_mask(text[:pos])):
        return _term(before[0])
    return _term(before[-1])


def _set_facts(text: str, names: list[ClaimRef]) -> list[Fact]:
    facts = []
    for pattern in _SETS:
        for m in pattern.finditer(text):
            ref = _ref_in(names, *m.span("name"))
            if ref is None or _CONDITION.search(_mask(text[: m.start()])):
                continue
            facts.append(
                Fact(
                    predicate=Predicate.HAS_VALUE,
                    span=m.span(),
                    subject=_term(ref),
                    value=m.group("value").strip("`"),
                    assigned=True,
                    by=_actor(names, m.start(), text),
                )
            )
    return facts


def _return_facts(text: str, names: list[ClaimRef], masked: str) -> list[Fact]:
    """ "`f` returns `X`", "returns the last entry of `X`", "returns ... rather than `True`": the object is
    the first backticked term of what follows the verb (None when it is prose only)."""
    facts = []
    for m in RETURNS.finditer(masked):
        what = _RETURNS_WHAT.match(text, m.start())
        if what is None or any(p.match(text, m.start()) for p in _SETS[2:]) or _CONDITION.search(masked[: m.start()]):
            continue
        if _DECLARED.search(masked, 0, m.start()):
            continue  # "is declared to return `str`": the signature's claim, which the return statements do not show
        ref = _ref_in(names, *what.span("what"))
        obj = _term(ref) if ref is not None else _value_ref(text, what.span("what"))
        if _A_TYPE.match(text, what.start("what")):
            obj = None  # "returns a `str`" states a type, which the return expressions do not show
        negated = _NOT_RETURNED.search(text, what.end("what"))
        facts.append(
            Fact(
                predicate=Predicate.RETURNS,
                span=m.span(),
                subject=_actor(names, m.start(), text),
                object=obj,
                value=text[slice(*what.span("what"))].strip(),
                negated=negated.group("value").strip("`") if negated else None,
            )
        )
    return facts


# "returns an empty string (`src/pkg/signer.py:36-37`)": a cited file or line is where, not what
_CITE = re.compile(r"[\w./-]*/[\w./-]+(?::\d+(?:\s*[-–]\s*\d+)?)?|[\w./-]+\.\w+:\d+(?:\s*[-–]\s*\d+)?")


_DECLARED = re.compile(r"\b(?:declared|annotated|typed|documented|said|supposed)\s+(?:as\s+)?to\s+$", re.I)


def _value_ref(text: str, span: Span) -> Term | None:
    """A backticked literal (`True`, `'E'`, `0`) in a span: a value, not a name."""
    m = re.search(r"`([^`]+)`", text[span[0] : span[1]])
    if m is None or _CITE.fullmatch(m.group(1)):
        return None
    start = span[0] + m.start()
    return Term(text=m.group(0), value=m.group(1), span=(start, start + len(m.group(0))))


def _count_facts(text: str, names: list[ClaimRef], masked: str) -> list[Fact]:
    facts = []
    for m in COUNTS.finditer(masked):
        n = m.group("n").lower()
        facts.append(
            Fact(
                predicate=Predicate.COUNTS,
                span=m.span(),
                subject=_actor(names, m.start(), text),
                value=str(_NUMBER_WORDS.get(n, n)),
                noun=f"{m.group('verb').lower()} {m.group('noun').lower()}",
            )
        )
    return facts


def _member_facts(text: str, refs: list[ClaimRef]) -> list[Fact]:
    """ "exports `X` from `pkg/__init__.py`" (the owner is the path), "`C` has a method `m`"."""
    names = _names(refs)
    facts = []
    for pattern, noun in ((EXPORTS, "export"), (MEMBER, None)):
        for m in pattern.finditer(text):
            ref = _ref_in(names, *m.span("name"))
            if ref is None:
                continue
            owner: Term | None
            if noun == "export":
                paths = [r for r in refs if r.kind == "path"]
                # "exports `X` from `pkg/__init__.py`", else "`pkg/__init__.py` exports `X`"
                path = next((r for r in paths if r.start >= m.end()), None) or _before(paths, m.start())
                owner = Term(text=path.text, value=path.value, span=(path.start, path.end)) if path else None
            else:
                owner = _actor(names, m.start(), text)
            facts.append(
                Fact(
                    predicate=Predicate.HAS_MEMBER,
                    span=m.span(),
                    subject=owner,
                    object=_term(ref),
                    noun=noun or m.group("noun").lower(),
                )
            )
    return facts


# "`X` is declared but never called anywhere", "`A`, `B` and `C` are never referenced": every name of the clause
# before the words; not "is not used to", "never called by `main`" (a purpose, a caller named: another claim)
# "never used in its procedure division", "in the program": the code as a whole, not a time or a place of running
# ("not used in production", "never called at run time", "not used outside tests"), which code cannot settle
_WHOLE_CODE = r"(?:(?:its|the|this|that)\s+(?:own\s+)?(?:procedure\s+division|program|file|module|code|snapshot|codebase|repository|project)|any\s+\w+)\b"
_NEVER_USED = re.compile(
    r"\b(?:(?P<one>is|was|remains|stays|goes)|are|were|remain|stay|go)\b[^.;:]*?\b(?:never|not|nowhere)\s+(?:\w+ly\s+)?"
    r"(?:ever\s+)?(?P<verb>called|invoked|performed|executed|used|referenced|read|tested)\b"
    r"(?!\s+(?:to|for|as|from|with|when|if|unless|until|outside|except|at|on|during|in\s+(?!"
    + _WHOLE_CODE
    + r")|by\s+default)\b)"
    r"(?P<by>\s+by )?"
    r"|\b(?:(?P<one2>is)|are)\s+(?:\w+ly\s+)?(?P<adjective>unused|unreferenced|dead\s+code)\b",
    re.I,
)
# "nothing calls `X`", "no code ever references `X`": the names after the words
_NOTHING_USES = re.compile(
    r"\b(?:nothing|no\s+(?:other\s+)?(?:code|one|program|paragraph|function|method|caller))\s+(?:ever\s+|else\s+)?"
    r"(?P<verb>calls|invokes|performs|executes|uses|references|reads)\b",
    re.I,
)
# one space after the comma: in the masked text a list's comma is followed by its next name's blanks
_CLAUSE_START = re.compile(
    r".*(?:[;:]|, (?:so|and|but|while|whereas|which)\b|\b(?:when|if|unless|because|since|where|so that)\b)", re.I | re.S
)
# "`Parse` does not call `Validate`", "it never performs `9000-TERMINATE`": the name after, within the actor's code
_NEVER_USES = re.compile(
    r"\b(?:never|not|n't)\s+(?:\w+ly\s+)?(?:ever\s+)?(?P<verb>call|perform|invoke|execute|use|reference)s?\b", re.I
)


def _use_kind(verb: str) -> str:
    """What a claim says nothing does with a name: "called" (a call or PERFORM statement), "read" (read or
    tested, which a mere mention does not show: a MOVE to it is neither) or "used" (named at all)."""
    verb = verb.lower()
    if verb.startswith(("call", "invok", "perform", "execut")):
        return "called"
    if verb.startswith(("read", "test")):
        return "read"
    return "used"


def _unused_facts(text: str, names: list[ClaimRef], masked: str) -> list[Fact]:
    """Names the claim says nothing uses: the name of the clause before "is never called" (each of them before
    "are never called"; after "nothing calls"), with whether it says called or used at all. "`A`, a prefix
    followed by `B`, is never used": one subject, the first."""
    facts = []
    for m in _NEVER_USED.finditer(masked):
        opened = _CLAUSE_START.match(masked, 0, m.start())
        start = opened.end() if opened else 0
        kind = _use_kind(m.group("verb") or "used")
        subjects = [r for r in names if start <= r.start and r.end <= m.start()]
        # "is never called by `main`": within main's code; "by the procedure division": anywhere
        agent = _after(names, m.end()) if m.group("by") else None
        agent = agent if agent is not None and agent.start == m.end() else None
        facts += [
            Fact(
                predicate=Predicate.UNUSED,
                span=m.span(),
                subject=_term(r),
                by=_term(agent) if agent is not None else None,
                value=kind,
            )
            for r in (subjects[:1] if m.group("one") or m.group("one2") else subjects)
        ]
    for m in _NEVER_USES.finditer(masked):
        obj, actor = _after(names, m.end()), _actor(names, m.start(), text)
        if obj is not None and actor is not None and obj.start < cell_end(text, m.end()):
            facts.append(
                Fact(predicate=Predicate.UNUSED, span=m.span(), subject=_term(obj), by=actor, value=_use_kind(m.group("verb")))
            )
    for m in _NOTHING_USES.finditer(masked):
        obj = _after(names, m.end())
        if obj is not None and obj.start < cell_end(text, m.end()):
            facts.append(Fact(predicate=Predicate.UNUSED, span=m.span(), subject=_term(obj), value=_use_kind(m.group("verb"))))
    return facts


def extract_facts(text: str, refs: list[ClaimRef], cues: Sequence[Cue]) -> list[Fact]:
    """The facts one claim asserts. ``cues``: grounding.claims.relation_cues(text)."""
    names = _names(refs)
    masked = _mask(text)
    facts: list[Fact] = []
    advice = _ADVICE.match(text)
    judged = [m for m in OPINION.finditer(masked) if not _CONDITIONAL_MODAL.search(masked, 0, m.end())]
    opinion = judged[0] if judged else advice
    for cue in cues:
        if any(cue.start < m.end() and m.start() < cue.end for m in judged):
            continue  # "at run time", "end up writing": the judgement's own words state no relation
        word = text[cue.start : cue.end]
        predicate = next(p for rel, pat, p in _CUE_WORDS if rel == cue.relation and pat.search(word))
        subject, obj = _before(names, cue.start), _after(names, cue.end)
        if obj is not None and obj.start >= cell_end(text, cue.end):
            obj = None
        if cue.passive:
            subject, obj = obj, subject
        facts.append(
            Fact(
                predicate=predicate,
                span=(cue.start, cue.end),
                subject=_term(subject) if subject else None,
                object=_term(obj) if obj else None,
            )
        )
    for pattern, predicate in ((INHERITS, Predicate.INHERITS), (RAISES, Predicate.RAISES), (CATCHES, Predicate.CATCHES)):
        facts.extend(
            _word_fact(predicate, m, names, text)
            for m in pattern.finditer(masked)
            if not (predicate is Predicate.CATCHES and _NOUN_BEFORE.search(masked, 0, m.start()))
            # "Catch `Timeout` to ...": the reader is told to catch it, no code is said to
            and not (advice is not None and m.start() < advice.end())
        )
    facts.extend(_mapping_facts(text, names))
    facts.extend(_value_facts(text, names))
    facts.extend(_size_facts(text, names))
    facts.extend(_row_value_facts(text, names))
    facts.extend(_quoted_default_facts(text))
    facts.extend(_set_facts(text, names))
    facts.extend(_return_facts(text, names, masked))
    facts.extend(_count_facts(text, names, masked))
    facts.extend(_member_facts(text, refs))
    facts.extend(_unused_facts(text, names, masked))
    for path in (r for r in refs if r.kind == "path"):
        facts.append(
            Fact(
                predicate=Predicate.DEFINED_AT,
                span=(path.start, path.end),
                file=path.value,
                start_line=path.start_line,
                end_line=path.end_line,
            )
        )
    if opinion is not None:
        facts.append(Fact(predicate=Predicate.UNKNOWN, span=(opinion.start(), opinion.end())))
    return sorted(facts, key=lambda f: f.span)
