"""Issue E round 9: orders and steps. An order stated with no function opening the sentence is read in the
bodies that name both steps; "after that `B`" and "afterwards" put B second; a comma before the subject's
next verb ends a step, so a condition of one step is not another's; "reads `X` from `Y`" is active (Y is
the source, not the reader); a passive's agent is the name its "by" introduces; a participle clause
("..., using ...") ends a verb's objects; a prose word or an example is no object a subject must name; a
private attribute (`self.__currsize`) is the code's spelling of its property; a COBOL program acts on what
its callers pass it; a name inside a quoted call is its argument, not an actor; a literal in a quoted call
shown as a use (opening the sentence, after "so" or "such as") is an example input. Each on a small fixture."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import fixture_grounder

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

ENCODE_GO = """\
package enc

type tagOptions struct {
	omitempty bool
	omitzero  bool
}

func (e *Encoder) eStruct(opts tagOptions) {
	writeFields := func() {
		if opts.omitempty && isEmpty(e) {
			return
		}
		if opts.omitzero && isZero(e) {
			return
		}
		eindirect(e)
	}
	writeFields()
}

func isEmpty(e *Encoder) bool { return false }

func isZero(e *Encoder) bool { return false }

func eindirect(e *Encoder) {}
"""

CACHE_PY = """\
class Cache:
    def __init__(self):
        self.__size = {}
        self.__currsize = 0

    def __delitem__(self, key):
        size = self.__size.pop(key)
        self.__currsize -= size

    @property
    def currsize(self):
        return self.__currsize

    def __missing__(self, key):
        raise KeyError(key)

    def get(self, key, default=None):
        return default


def resolve_color_default():
    return None


class ClickException(Exception):
    def __init__(self, message):
        self.message = message
        self.show_color = resolve_color_default()

    def show(self, file=None):
        print(self.message, file=file, color=self.show_color)
"""

CACHED_PY = """\
def cached(cache, key=None, lock=None):
    from ._cached import _wrapper

    def decorator(func):
        return _wrapper(func, cache, key, lock)

    return decorator
"""

WRAPPER_PY = """\
def _wrapper(func, cache, key, lock):
    return func
"""

EXTRACT_JAVA = """\
package demo;

public class KeywordExtractor {
    public void extract(String line) {
        tokens.add(line.trim());
    }
}
"""

KEYWORDS_JAVA = """\
package demo;

public class Keywords {
    static final String NEVER = "NEVER";
}
"""

PARENT_CBL = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. PARENT1.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  CHAN-1        PIC X(16) VALUE 'CHAN1'.
       01  CONT-A        PIC X(16) VALUE 'CONTA'.
       01  RESULT-1      PIC X(3).
       01  BUF           PIC X(100).
       01  PACKET-ID     PIC 9(4).
       01  WS-MSG-END    PIC X(20) VALUE 'END'.
       01  WS-OUT        PIC X(20).
       01  WS-CODE       PIC XX.
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS GET CONTAINER(CONT-A) CHANNEL(CHAN-1)
                INTO(RESULT-1)
           END-EXEC
           CALL "DECODE1" USING BUF PACKET-ID
           PERFORM A-999-TERMINATE.
       A-999-TERMINATE.
           MOVE WS-MSG-END TO WS-OUT
           PERFORM H-000-WRITE-MSG
           IF WS-CODE = 'TD'
              EXEC CICS SEND CONTROL FREEKB END-EXEC
           END-IF
           EXEC CICS RETURN END-EXEC.
       H-000-WRITE-MSG.
           DISPLAY WS-OUT.
"""

DECODE_CBL = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. DECODE1.
       DATA DIVISION.
       LINKAGE SECTION.
       01  LK-BUF        PIC X(100).
       01  LK-VALUE      PIC 9(4).
       PROCEDURE DIVISION USING LK-BUF LK-VALUE.
           MOVE LK-BUF(1:4) TO LK-VALUE
           GOBACK.
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round9")
    return fixture_grounder(
        root,
        {
            "enc/encode.go": ENCODE_GO,
            "pkg/cache.py": CACHE_PY,
            "pkg/__init__.py": CACHED_PY,
            "pkg/_cached.py": WRAPPER_PY,
            "src/KeywordExtractor.java": EXTRACT_JAVA,
            "src/Keywords.java": KEYWORDS_JAVA,
            "cbl/PARENT1.cbl": PARENT_CBL,
            "cbl/DECODE1.cbl": DECODE_CBL,
        },
    )


# an order is read in the body that names both steps (a closure's, here eStruct's); "afterwards" and
# "after that `B`" put B second
ORDERS = [
    ("`writeFields` checks `omitzero` before `omitempty`.", U),
    ("`writeFields` checks `omitempty` before `omitzero`.", S),
    ("`writeFields` checks `omitempty`, and only afterwards `omitzero`.", S),
    ("`writeFields` checks `omitzero`, and after that `omitempty`.", U),
]


@pytest.mark.parametrize(("text", "verdict"), ORDERS)
def test_an_order_is_read_in_the_body_that_names_both_steps(grounder, text, verdict):
    claim = grounder.one(text)
    assert claim.verdict is verdict
    assert "eStruct names omitempty (line 10) before omitzero (line 13)" in claim.reason


def test_a_literal_is_no_step_of_an_order(grounder):
    # where a literal stands in a body says little of when it is used: no order is judged
    claim = grounder.one('`writeFields` returns `"x"` before `omitempty` is read.')
    assert "before" not in claim.reason


MISREAD = [
    # a private attribute is the code's spelling of its property
    ("`Cache.__delitem__` pops the key's size and subtracts it from `currsize`.", "never names currsize", S),
    # a passive's agent is the name its "by" introduces, not a later clause's
    ("`Cache.get` is written out by hand, unlike `Cache.__missing__`.", "__missing__ never names", S),
    # a participle clause ends the verb's objects
    (
        "`ClickException.show` writes the message to the file, using the colour it cached from `resolve_color_default`.",
        "never names resolve_color_default",
        S,
    ),
    # an example is no object the subject must name
    ("`KeywordExtractor.extract` reads keywords such as `NEVER`.", "never names NEVER", S),
    # "reads X from Y" is active: Y is the source
    ("`0000-MAIN` reads `CONT-A` from `CHAN-1` into `RESULT-1`.", "CHAN-1 never names", S),
    # a condition of one step is not the step before
    (
        "`A-999-TERMINATE` writes `WS-MSG-END` through `H-000-WRITE-MSG`, issues `EXEC CICS SEND CONTROL FREEKB`"
        " only when `WS-CODE` is `'TD'`, and then ends with `EXEC CICS RETURN`.",
        "not in the statement nor its conditions",
        S,
    ),
    # a name inside a quoted call is its argument, not an actor
    (
        "`cached(cache, key=hashkey)` (`pkg/__init__.py:1-7`) imports `_wrapper` from `._cached` inside the function.",
        "hashkey does not import",
        S,
    ),
    # a literal in a call shown as a use is an example input
    ('`ClickException("boom")` keeps the colour setting of `resolve_color_default`.', "'boom' does not appear", S),
    (
        '`ClickException.__init__` calls `resolve_color_default`, so `ClickException("boom")` caches it.',
        "'boom' does not appear",
        S,
    ),
]


@pytest.mark.parametrize(("text", "misreading", "verdict"), MISREAD)
def test_a_true_claim_is_not_misread(grounder, text, misreading, verdict):
    claim = grounder.one(text)
    assert misreading not in claim.reason
    assert claim.verdict is verdict


def test_a_program_acts_on_what_its_callers_pass(grounder):
    claim = grounder.one("`DECODE1` writes `PACKET-ID`.")
    assert claim.verdict is S
    assert "cbl/PARENT1.cbl:18" in claim.reason
    # a name no CALL of it passes is still not its
    claim = grounder.one("`DECODE1` writes `WS-CODE`.")
    assert claim.verdict is U
    assert "never names WS-CODE" in claim.reason
