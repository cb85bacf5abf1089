"""The journal file: one JSON object a line, accounts first, then transactions in date order."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import date
from pathlib import Path

from pyledger.ledger import Ledger, Posting, Transaction

JOURNAL_VERSION = 1


class JournalError(Exception):
    def __init__(self, path: Path, line: int, problem: str) -> None:
        super().__init__(f"{path}:{line}: {problem}")


def load_journal(path: Path) -> Ledger:
    """Rebuild a ledger by replaying the journal, so every rule in Ledger.post applies again."""
    ledger = Ledger()
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                kind = record["kind"]
                if kind == "header":
                    if record["version"] != JOURNAL_VERSION:
                        raise JournalError(path, number, f"unsupported version {record['version']}")
                elif kind == "account":
                    ledger.open_account(record["code"], record["name"])
                elif kind == "transaction":
                    postings = tuple(Posting(p["account"], int(p["amount"])) for p in record["postings"])
                    ledger.post(Transaction(date.fromisoformat(record["date"]), record["description"], postings))
                else:
                    raise JournalError(path, number, f"unknown record kind {kind!r}")
            except (KeyError, ValueError, TypeError) as exc:
                raise JournalError(path, number, str(exc)) from None
    return ledger


def save_journal(ledger: Ledger, path: Path) -> None:
    """Write the whole journal to a temporary file and rename it, so a crash never leaves half a file."""
    lines = [json.dumps({"kind": "header", "version": JOURNAL_VERSION})]
    for code in sorted(ledger.accounts):
        lines.append(json.dumps({"kind": "account", "code": code, "name": ledger.accounts[code].name}))
    for transaction in ledger.transactions:
        lines.append(
            json.dumps(
                {
                    "kind": "transaction",
                    "date": transaction.when.isoformat(),
                    "description": transaction.description,
                    "postings": [{"account": p.account, "amount": p.amount} for p in transaction.postings],
                }
            )
        )
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    os.replace(temp, path)
