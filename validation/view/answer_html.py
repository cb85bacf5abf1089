"""An answer's Markdown as HTML with each claim marked in its verdict's colour, and evidence snippets
syntax-highlighted with their cited lines marked.

Answers are untrusted: raw HTML in them is shown as text (markdown-it's ``html`` is off), a link
survives only with an http, https or mailto target (``javascript:``, ``data:``, ``file:`` and relative
links stay plain text), and images are never loaded: the site reads nothing it was not built from and
fetches nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core.state_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup, escape
from pygments import format as pygments_format
from pygments import lex
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import CobolLexer, TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

from groundjudge.grounding.models import VerifiedClaim

_LINK_SCHEMES = ("http:", "https:", "mailto:")
# Pygments guesses free-format COBOL from .cbl, but the corpora's programs are fixed-format, with
# sequence numbers in columns 1-6 that the free-format lexer colours as code.
_COBOL_SUFFIXES = (".cbl", ".cob", ".cpy")
STYLE = "friendly"
# The env keys through which render_answer hands its claims to the inline rule and gets back those placed.
_CLAIMS = "groundjudge_claims"
_PLACED = "groundjudge_placed"
# What claim extraction's normalisation sees: bold markers (dropped), runs of white space (one space),
# and everything else; a lone "*" is kept as a character of its own.
_PIECES = re.compile(r"\*\*|\s+|[^\s*]+|\*")


@dataclass(frozen=True)
class MarkedClaim:
    """A claim with the HTML id the page gives it (claim ids come from a file and are not trusted)."""

    anchor: str
    claim: VerifiedClaim


def _link_ok(url: str) -> bool:
    # markdown-it has already percent-encoded the URL, so "java\tscript:" arrives as "java%09script:".
    return url.strip().lower().startswith(_LINK_SCHEMES)


def _image_as_text(renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    token = tokens[idx]
    alt = "".join(c.content for c in token.children or [])
    return f'<span class="img">[image: {escape(alt)}]</span>'


def _claim_open(renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    meta = tokens[idx].meta
    return f'<mark class="claim v-{meta["verdict"]}" id="m-{meta["anchor"]}" data-claim="{meta["anchor"]}" tabindex="0">'


def _claim_close(renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    meta = tokens[idx].meta
    return f'</mark><a class="cref" href="#{meta["anchor"]}">{escape(meta["label"])}</a>'


def _link_open(renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    tokens[idx].attrSet("rel", "nofollow noopener noreferrer")
    return renderer.renderToken(tokens, idx, options, env)


class _AnswerParser(MarkdownIt):
    def validateLink(self, url: str) -> bool:
        return _link_ok(url)


@cache
def _parser() -> MarkdownIt:
    md = _AnswerParser("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.core.ruler.at("inline", _inline_marking_claims)
    md.add_render_rule("image", _image_as_text)
    md.add_render_rule("claim_open", _claim_open)
    md.add_render_rule("claim_close", _claim_close)
    md.add_render_rule("link_open", _link_open)
    return md


def _normalised(src: str) -> tuple[str, list[int]]:
    """``src`` as claim extraction sees it (``**`` dropped, white space collapsed) and, for each of its
    characters, the position in ``src`` it came from."""
    parts: list[str] = []
    where: list[int] = []
    after_space = True  # white space at the start is dropped
    for m in _PIECES.finditer(src):
        piece = m.group()
        if piece == "**":
            continue
        if piece.isspace():
            if not after_space:
                parts.append(" ")
                where.append(m.start())
                after_space = True
        else:
            parts.append(piece)
            where.extend(range(m.start(), m.end()))
            after_space = False
    return "".join(parts), where


def _spans(src: str, claims: list[MarkedClaim]) -> list[tuple[int, int, MarkedClaim]]:
    """Where each claim's text lies in an inline block's source, in order; claims not found are left out."""
    norm, where = _normalised(src)
    found = []
    start = 0
    for mc in claims:
        a = norm.find(mc.claim.text, start)
        if a < 0 or not mc.claim.text:
            continue
        b = a + len(mc.claim.text)
        lo, hi = where[a], where[b - 1] + 1
        # Bold that opens and closes around the claim goes with it, not half into the next segment.
        if src[lo - 2 : lo] == "**" and src[hi : hi + 2] == "**":
            lo, hi = lo - 2, hi + 2
        found.append((lo, hi, mc))
        start = b
    return found


def _marked_children(md: MarkdownIt, src: str, spans: list[tuple[int, int, MarkedClaim]], env: EnvType) -> list[Token]:
    # Each segment gets a token list of its own: the inline parser's last rules rework the whole list.
    children: list[Token] = []
    pos = 0
    for lo, hi, mc in spans:
        if lo > pos:
            children += md.inline.parse(src[pos:lo], md, env, [])
        meta = {"anchor": mc.anchor, "verdict": mc.claim.verdict.value, "label": mc.claim.id}
        opening = Token("claim_open", "", 1)
        opening.meta = meta
        closing = Token("claim_close", "", -1)
        closing.meta = meta
        children += [opening, *md.inline.parse(src[lo:hi], md, env, []), closing]
        pos = hi
    if pos < len(src):
        children += md.inline.parse(src[pos:], md, env, [])
    return children


def _inline_marking_claims(state: StateCore) -> None:
    """markdown-it's inline rule, except that a block holding claims is parsed as the segments between
    their marks, so that no block is parsed twice."""
    md, env = state.md, state.env
    claims: list[MarkedClaim] = env.get(_CLAIMS, [])
    placed: set[str] = env.setdefault(_PLACED, set())
    for tok in state.tokens:
        if tok.type != "inline":
            continue
        spans = []
        if tok.map:
            lo, hi = tok.map
            here = [mc for mc in claims if lo < mc.claim.answer_line <= hi and mc.anchor not in placed]
            spans = _spans(tok.content, here) if here else []
        if spans:
            tok.children = _marked_children(md, tok.content, spans, env)
            placed |= {mc.anchor for _, _, mc in spans}
        else:
            tok.children = md.inline.parse(tok.content, md, env, tok.children or [])


def _mark_block(tokens: list[Token], line: int, mc: MarkedClaim) -> bool:
    """Mark the innermost block (table row, list item, paragraph) holding the claim's line."""
    holding = [t for t in tokens if t.nesting == 1 and t.map and t.map[0] < line <= t.map[1]]
    # reversed: of blocks spanning the same lines (tbody and its one row), the innermost comes last
    best = min(reversed(holding), key=lambda t: t.map[1] - t.map[0] if t.map else 0, default=None)
    if best is None or best.attrGet("data-claim") is not None:
        return False
    best.attrSet("class", f"claimblock v-{mc.claim.verdict.value}")
    best.attrSet("data-claim", mc.anchor)
    best.attrSet("id", f"m-{mc.anchor}")
    return True


def render_answer(text: str, claims: list[MarkedClaim]) -> tuple[Markup, set[str]]:
    """The answer as HTML, and the anchors of the claims marked in it (table rows and text that moved
    since grounding are marked as a whole block when they cannot be found word for word)."""
    md = _parser()
    placed: set[str] = set()
    env: EnvType = {_CLAIMS: claims, _PLACED: placed}
    tokens = md.parse(text, env)
    for mc in claims:
        if mc.anchor not in placed and _mark_block(tokens, mc.claim.answer_line, mc):
            placed.add(mc.anchor)
    return Markup(md.renderer.render(tokens, md.options, env)), placed


@lru_cache(maxsize=256)
def _lexer(suffix: str, name: str) -> Lexer:
    if suffix in _COBOL_SUFFIXES:
        return CobolLexer(stripnl=False, ensurenl=False)
    try:
        return get_lexer_for_filename(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


@cache
def _formatter() -> HtmlFormatter[str]:
    return HtmlFormatter(nowrap=True, style=STYLE)


def pygments_css() -> str:
    return HtmlFormatter(style=STYLE).get_style_defs(".code")


@lru_cache(maxsize=65_536)
def _highlighted_lines(path: str, snippet: str) -> tuple[str, ...]:
    # Keyed without the marked lines: claims citing other lines of the same snippet share its lexing.
    name = path.rsplit("/", 1)[-1]
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    html = pygments_format(lex(snippet, _lexer(suffix, name)), _formatter())
    return tuple(html.split("\n")[: snippet.count("\n") + 1])


@lru_cache(maxsize=65_536)
def highlight(path: str, start: int, snippet: str, marked: frozenset[int]) -> Markup:
    """A snippet starting at line ``start`` of ``path``, one ``<span class="l">`` per line carrying its
    number, the lines in ``marked`` with class ``hl``. Cached, and each snippet lexed once: a run cites
    the same lines many times."""
    out = []
    for n, line in enumerate(_highlighted_lines(path, snippet), start=start):
        cls = "l hl" if n in marked else "l"
        out.append(f'<span class="{cls}" data-n="{n}">{line}</span>')
    # The lines are blocks (view.css): a newline between them would show as an empty line.
    return Markup("".join(out))
