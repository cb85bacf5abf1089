"""Which extractor a file gets: the language from its extension (JCL also from a leading `//`)."""

from __future__ import annotations

EXTENSIONS = {
    ".cbl": "cobol",
    ".cob": "cobol",
    ".cpy": "cobol",
    ".jcl": "jcl",
    ".proc": "jcl",
    ".bms": "bms",
    ".py": "python",
    ".java": "java",
    ".js": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".go": "go",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
}
CASE_INSENSITIVE = frozenset({"cobol", "jcl", "bms"})
TAG_LANGUAGES = ("python", "java", "javascript", "typescript", "go", "c", "cpp")  # by tag queries (tags.py)


def needs_parser(language: str) -> bool:
    """Languages parsed by tree-sitter, hence in a worker process under a time limit."""
    return language == "cobol" or language in TAG_LANGUAGES


def extension(path: str) -> str:
    """The file name's extension, lower-case with its dot ('' when it has none)."""
    name = path.rsplit("/", 1)[-1]
    return name[name.rfind(".") :].lower() if "." in name else ""


def language_for(path: str, text: str) -> str:
    lang = EXTENSIONS.get(extension(path))
    if lang:
        return lang
    return "jcl" if text.startswith("//") else "text"


def grammar_for(path: str, language: str) -> str | None:
    """The tree-sitter grammar name for a tag-query language, or None (COBOL has its own path)."""
    if language == "typescript" and extension(path) == ".tsx":
        return "tsx"
    return language if language in TAG_LANGUAGES else None
