"""``python -m groundjudge``: the same command as the ``groundjudge`` console script."""

from groundjudge.cli import main

main()
