"""The static run viewer (``groundjudge view``). Where its pages go is here, light to import, so that
``report`` can link each answer to its page without loading the site's renderers."""

from __future__ import annotations

from urllib.parse import quote

VIEW_DIR = "view"  # the site's default place, inside the run directory
ANSWERS = "a"  # answer pages: ANSWERS/<cell>/<qid>.html below the site's root


def file_name(name: str) -> str:
    """A cell or question id as a file name: kept when it is a plain name, else made one (ids come
    from files and question sets, and may hold a slash or start with a dot)."""
    if name and name[0] != "." and all(c.isalnum() or c in "-_." for c in name):
        return name
    return "x-" + "".join(c if c.isalnum() else f"_{ord(c):x}" for c in name)


def page_href(cell: str, qid: str) -> str:
    """An answer page's path below the answers directory, as a URL."""
    return f"{quote(file_name(cell))}/{quote(file_name(qid))}.html"
