"""groundjudge: grounded, multi-judge scoring of answers about a codebase."""

__version__ = "0.1.0"
