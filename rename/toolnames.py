"""Names that the corpus's scripts and tool inputs define, beyond COBOL, JCL and BMS statements.

An installation kit of a mainframe application carries its own REXX execs, Workload Simulator (WSim)
scripts, CICS CSD and CICSPlex SM definitions, DB2 DDL, IMS DBDs and PSBs, scheduler definitions,
assembler sources and JCL symbols. The names these define are the
application's as much as its program names are (a REXX variable ``SOURCEX`` substituted into JCL as
``<SOURCEX>``, a CSD list ``TORLIST``, a DB2 column ``REGNUMBER``), so they are renamed with the same
map everywhere they occur. Each reader takes what a statement of the tool defines, never a word it
only uses: a REXX variable is an assignment target, a WSim variable is declared, a JCL symbol is set by
``SET`` or ``PROC``. Lexical, like the CSD rules of discovery.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from groundjudge.rename.leak import is_document

_I = re.IGNORECASE
_M = re.MULTILINE
NAME = r"[A-Za-z@#$][A-Za-z0-9_@#$]*"

# --- REXX: the z/OS convention is a first line that is a comment naming REXX
REXX_HEAD_RE = re.compile(r"\A\s*/\*.*?\bREXX\b", _I)
REXX_ASSIGN_RE = re.compile(rf"^\s*({NAME})(?:\.[\w.!?@#$]*)?\s*=(?!=)", _M)
# ISREDIT assignment statements: "Isredit (memnme) = MEMBER", "(A, B) = CURSOR"
REXX_EDIT_ASSIGN_RE = re.compile(rf"\bIsredit\s+\(\s*({NAME}(?:\s*,?\s*{NAME})*)\s*\)\s*=", _I)
# variables put into or read from the ISPF pool are shared by name between execs
REXX_POOL_RE = re.compile(r"\bISPEXEC\s+V(?:PUT|GET)\s*\(([^)]*)\)", _I)
REXX_ARG_RE = re.compile(rf"^\s*(?:Parse\s+(?:Upper\s+)?)?Arg\s+((?:{NAME}|\.|\s)+)$", _I | _M)
# variables REXX sets itself: assigning one is no definition of the exec's own
REXX_SPECIAL = frozenset({"RC", "RESULT", "SIGL"})

# --- WSim: message generation decks (STL) and network definitions
WSIM_STL_RE = re.compile(
    rf"^{NAME}\s+(?:NTWRK|MSGUTBL)\b|^\s*{NAME}\s*:\s*msgtxt\b|^\s*(?:Integer|String|Bit|Float|Switch)\s+(?:Un)?Shared\s", _I | _M
)
WSIM_DECLARE_RE = re.compile(
    rf"^\s*(?:Integer|String|Bit|Float|Switch|Event|Table|Allocate|Constant)\s+(?:(?:Un)?Shared\s+)?({NAME})", _I | _M
)
WSIM_MSGTXT_RE = re.compile(rf"^\s*({NAME})\s*:\s*msgtxt\b", _I | _M)
# a label in column 1 of a network definition statement names a network, path, terminal or table
WSIM_NETWORK_RE = re.compile(rf"^({NAME})\s+(?:NTWRK|PATH|VTAMAPPL|LU|DEV|TCPIP|TP|MSGUTBL|UTBL)\b", _I | _M)

# --- JCL symbols: // SET A=1,B=2 and //NAME PROC A=1,B=2, operands continued on the next // lines
JCL_SYMBOL_STMT_RE = re.compile(r"^//(?!\*)\S*\s+(?:SET|PROC)\s+(\S*)", _I)
JCL_CONTINUED_RE = re.compile(r"^//\s+(\S+)")
JCL_SYMBOL_RE = re.compile(rf"(?:^|,)({NAME})=")
# <NAME>: a substitution placeholder an installation exec fills in
PLACEHOLDER_RE = re.compile(rf"<({NAME})>")

# --- CICS CSD (DFHCSDUP) and CICSPlex SM (EYU9XDUT, BATCHREP) definitions
CSD_DEFINE_RE = re.compile(rf"^\s*\*?\s*(?:DEFINE|DEF|ADD|REMOVE|COPY)\s+[A-Za-z]+\s*\(\s*({NAME})\s*\)", _I | _M)
# operands that name a resource of the application: its group and list, a remote system, a volume
CSD_OPERAND_RE = re.compile(rf"\b(?:GROUP|LIST|TOGROUP|REMOTESYSTEM|VOLUMES?)\s*\(\s*({NAME})\s*\)", _I)
CPSM_DEFINE_RE = re.compile(rf"^[ \t]*(?:DEFINE[ \t]+[A-Za-z]+|ADD[ \t]+TOGROUP|CONTEXT|SCOPE)[ \t]+({NAME})(?=\s|$)", _I | _M)
VOL_SER_RE = re.compile(rf"\bVOL=SER=\(?({NAME})", _I)
# an operator command a job issues (in-stream "/F REGION,'CEMT ...'", "// COMMAND 'F REGION,...'"): the
# started task it modifies, stops or cancels is the installation's region
OPERATOR_RE = re.compile(rf"^[ \t]*(?:/|//\S*\s+COMMAND\s+')\s*(?:F|MODIFY|P|STOP|C|CANCEL)\s+({NAME}),", _I | _M)
# the web services assistant's (DFHLS2WS, DFHWS2LS) service: its URI and binding file
WEB_SERVICE_RE = re.compile(rf"^\s*(?:URI=\S*/|(?:WSBIND|WSDL)=\S*/)({NAME})(?:\.\w+)?\s*$", _I | _M)
# a CICS bundle (CICS Explorer's resource definition files .program, .transaction, .urimap, ... and the
# bundle manifest META-INF/cics.xml): the name="..." of a <cicsdefinitionTYPE> element or of a manifest's
# <define> of a CICS resource type is a resource the application defines
BUNDLE_DEFINE_RE = re.compile(
    rf"<(?:cicsdefinition\w+|define(?=[^>]*\stype\s*=\s*\"[^\"]*/cics/bundle/))[^>]*?\sname\s*=\s*\"({NAME})\"", _I
)
# the bundle's own id, in the root element of its manifest
BUNDLE_ID_RE = re.compile(
    rf"<manifest\s[^>]*?xmlns\s*=\s*\"[^\"]*/cics/bundle\"[^>]*?\sid\s*=\s*\"({NAME}(?:[-.][A-Za-z0-9_@#$]+)*)\"", _I
)

# --- High Level Assembler: what a source defines is the label in column 1 (a field, an equate, a routine,
# a sequence symbol .NAME that AIF/AGO branch to), a macro's name and its prototype's parameters, and the
# SET symbols it declares
# upper case as assembler is written: a sentence starting "The CSECT ..." is no statement
ASM_HEAD_RE = re.compile(r"^(?:[A-Z@#$][A-Z0-9@#$_]*)?[ \t]+(?:CSECT|DSECT|RSECT|MACRO|AMODE|RMODE)\b", _M)
ASM_LABEL_RE = re.compile(rf"^\.?({NAME})(?=[\s&])", _M)
ASM_PROTOTYPE_RE = re.compile(rf"^\s+MACRO\s*\n(?:\.\*.*\n|\*.*\n)*\S*\s+({NAME})(.*)$", _I | _M)
ASM_SET_SYMBOL_RE = re.compile(r"^\s+(?:LCL|GBL)[ABC]\s+(.*)$", _I | _M)
ASM_SYMBOL_RE = re.compile(rf"&({NAME})")
# R0-R15 equates: every assembler program's convention for its registers, not the application's names
ASM_REGISTER_RE = re.compile(r"R(?:1[0-5]|[0-9])", _I)

# --- IMS DBDGEN and PSBGEN: databases, segments, fields, indexes and PSBs the application defines
IMS_NAME_RE = re.compile(
    rf"^\S*\s+(?:DBD|SEGM|FIELD|XDFLD|LCHILD|DATASET|PCB|SENSEG|SENFLD|PSBGEN)\s+.*?"
    rf"\b(?:NAME|DBDNAME|PSBNAME|PARENT|SEGMENT|DD1|DD2|DDNAME|INDEX|PROCSEQ)=\(?({NAME})",
    _I | _M,
)
# --- schedulers: a Control-M folder, job and condition; a CA-7 job
SCHEDULER_RE = re.compile(
    rf"\b(?:FOLDER_NAME|JOBNAME|MEMNAME|APPLICATION|SUB_APPLICATION|GROUP)=\"({NAME}(?:-[A-Za-z0-9_@#$]+)*)\"", _I
)
SCHEDULER_COND_RE = re.compile(rf"<(?:IN|OUT)COND\s+NAME=\"({NAME}(?:-[A-Za-z0-9_@#$]+)*)\"", _I)

# --- DB2 DDL and SQL cursors
# a qualified object name; a qualifier may be a placeholder or a JCL symbol (<DB2DBID>.CUSTOMER, &SCHEMA..T)
QUALIFIED = rf"(?:<?&?{NAME}>?\.+)?{NAME}"
DDL_OBJECT_RE = re.compile(
    rf"\bCREATE\s+(?:UNIQUE\s+)?(?:STOGROUP|DATABASE|TABLESPACE|TABLE|INDEX|VIEW|ALIAS|SYNONYM|AUXILIARY\s+TABLE)\s+({QUALIFIED})",
    _I,
)
# CREATE TABLE T (...) in DDL, DECLARE T TABLE (...) as DCLGEN writes it for a program
DDL_TABLE_RE = re.compile(rf"\b(?:CREATE\s+TABLE\s+{QUALIFIED}|DECLARE\s+{QUALIFIED}\s+TABLE)\s*\(", _I)
DDL_CONSTRAINT = frozenset({"PRIMARY", "FOREIGN", "CONSTRAINT", "UNIQUE", "CHECK", "PERIOD", "LIKE"})
CURSOR_RE = re.compile(
    rf"\bDECLARE\s+({NAME}(?:-{NAME[1:]})*)\s+(?:(?:INSENSITIVE|SENSITIVE|STATIC|DYNAMIC|SCROLL|ASENSITIVE|NO)\s+)*CURSOR\b", _I
)

# --- CICS abend codes the application raises; codes starting with A are reserved to CICS itself
ABCODE_RE = re.compile(r"\bABCODE\s*\(\s*'([A-Za-z0-9@#$]{1,4})'\s*\)", _I)


def is_rexx(path: str, text: str) -> bool:
    return path.lower().endswith((".rexx", ".rex")) or REXX_HEAD_RE.match(text) is not None


def is_wsim(text: str) -> bool:
    return WSIM_STL_RE.search(text) is not None


def rexx_variables(text: str) -> Iterable[str]:
    for m in REXX_ASSIGN_RE.finditer(text):
        yield m.group(1)
    for rx in (REXX_EDIT_ASSIGN_RE, REXX_POOL_RE, REXX_ARG_RE):
        for m in rx.finditer(text):
            yield from re.findall(NAME, m.group(1))


def wsim_names(text: str) -> Iterable[str]:
    for rx in (WSIM_DECLARE_RE, WSIM_MSGTXT_RE, WSIM_NETWORK_RE):
        for m in rx.finditer(text):
            yield m.group(1)


def jcl_symbols(text: str) -> Iterable[str]:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not (m := JCL_SYMBOL_STMT_RE.match(line)):
            continue
        operands = m.group(1)
        while operands.endswith(",") and i + 1 < len(lines) and (c := JCL_CONTINUED_RE.match(lines[i + 1])):
            operands, i = operands + c.group(1), i + 1
        yield from (s.group(1) for s in JCL_SYMBOL_RE.finditer(re.sub(r"'[^']*'", "''", operands)))
    for m in PLACEHOLDER_RE.finditer(text):
        yield m.group(1)


def is_assembler(path: str, text: str) -> bool:
    return path.lower().endswith((".asm", ".assemble", ".hlasm", ".mac", ".mlc")) or ASM_HEAD_RE.search(text) is not None


def is_script(path: str, text: str) -> bool:
    """A member of the kit that other members call by its name: an exec, a WSim deck, an assembler source."""
    return not is_document(path) and (is_rexx(path, text) or is_wsim(text) or is_assembler(path, text))


def asm_names(text: str) -> Iterable[str]:
    for line in text.splitlines():
        if (
            not line.startswith(("*", ".*"))
            and (m := ASM_LABEL_RE.match(line[:71]))
            and not ASM_REGISTER_RE.fullmatch(m.group(1))
        ):
            yield m.group(1)
    for m in ASM_PROTOTYPE_RE.finditer(text):
        yield m.group(1)
        yield from ASM_SYMBOL_RE.findall(m.group(2)[:71])
    for m in ASM_SET_SYMBOL_RE.finditer(text):
        yield from ASM_SYMBOL_RE.findall(m.group(1)[:71])


def resources(text: str) -> Iterable[str]:
    for rx in (
        CSD_DEFINE_RE,
        CSD_OPERAND_RE,
        CPSM_DEFINE_RE,
        VOL_SER_RE,
        OPERATOR_RE,
        WEB_SERVICE_RE,
        BUNDLE_DEFINE_RE,
        BUNDLE_ID_RE,
        IMS_NAME_RE,
        SCHEDULER_RE,
        SCHEDULER_COND_RE,
    ):
        for m in rx.finditer(text):
            yield m.group(1)


def ddl_names(text: str) -> Iterable[str]:
    """Objects a CREATE statement names (each qualifier of ``SCHEMA.TABLE``) and the columns of a
    CREATE TABLE: the first word of each comma-separated element at the outer parenthesis level."""
    for m in DDL_OBJECT_RE.finditer(text):
        yield from (q for q in m.group(1).split(".") if q and q[0] not in "<&")
    for m in DDL_TABLE_RE.finditer(text):
        depth, start = 1, m.end()
        for i in range(m.end(), len(text)):
            c = text[i]
            if c == "(":
                depth += 1
            elif c in "),":
                if depth == 1:
                    words = re.findall(NAME, text[start:i])
                    if words and words[0].upper() not in DDL_CONSTRAINT:
                        yield words[0]
                    start = i + 1
                if c == ")":
                    depth -= 1
                    if depth == 0:
                        break
    for m in CURSOR_RE.finditer(text):
        yield m.group(1)


def abend_codes(text: str) -> Iterable[str]:
    for m in ABCODE_RE.finditer(text):
        if not m.group(1).upper().startswith("A"):
            yield m.group(1)


def tool_names(path: str, lang: str, text: str, document: bool) -> list[tuple[str, str]]:
    """(name, class) of what ``text`` defines under the tools' rules. COBOL ``text`` is its code area
    (comments blanked); a document (README, ``.md``) only talks about names and defines none."""
    if lang == "cobol":
        return [(n, "sql_name") for n in ddl_names(text)] + [(n, "abend_code") for n in abend_codes(text)]
    if lang not in ("jcl", "text") or document:
        return []
    if lang == "jcl":
        text = "\n".join("" if line.startswith("//*") else line for line in text.splitlines())
    found = [(n, "resource") for n in resources(text)] + [(n, "sql_name") for n in ddl_names(text)]
    if lang == "jcl":
        found += [(n, "variable") for n in jcl_symbols(text)]
    elif is_rexx(path, text):
        found += [(n, "variable") for n in rexx_variables(text) if n.upper() not in REXX_SPECIAL]
    elif is_wsim(text):
        found += [(n, "variable") for n in wsim_names(text)]
    elif is_assembler(path, text):
        found += [(n, "variable") for n in asm_names(text)]
    return found
