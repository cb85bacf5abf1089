"""Command line: python -m pyledger JOURNAL COMMAND ..."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from pyledger.ledger import Ledger, LedgerError
from pyledger.money import AmountError, format_amount, parse_amount
from pyledger.report import net_income, statement, trial_balance
from pyledger.storage import JournalError, load_journal, save_journal


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyledger", description="Tiny double-entry ledger.")
    parser.add_argument("journal", type=Path, help="journal file (JSON lines); created by 'open'")
    commands = parser.add_subparsers(dest="command", required=True)
    opened = commands.add_parser("open", help="open an account")
    opened.add_argument("code")
    opened.add_argument("name")
    transfer = commands.add_parser("transfer", help="debit one account and credit another")
    transfer.add_argument("debit")
    transfer.add_argument("credit")
    transfer.add_argument("amount")
    transfer.add_argument("description")
    transfer.add_argument("--date", type=date.fromisoformat, default=None)
    commands.add_parser("trial", help="print the trial balance")
    stmt = commands.add_parser("statement", help="print one account's statement")
    stmt.add_argument("code")
    commands.add_parser("income", help="print net income")
    return parser


def run(args: argparse.Namespace) -> str:
    ledger = load_journal(args.journal) if args.journal.exists() else Ledger()
    if args.command == "open":
        ledger.open_account(args.code, args.name)
        save_journal(ledger, args.journal)
        return f"opened {args.code}"
    if args.command == "transfer":
        amount = parse_amount(args.amount)
        ledger.transfer(args.date or date.today(), args.description, args.debit, args.credit, amount)
        save_journal(ledger, args.journal)
        return f"posted {format_amount(amount)}"
    if args.command == "trial":
        return trial_balance(ledger)
    if args.command == "statement":
        if args.code not in ledger.accounts:
            raise LedgerError(f"unknown account {args.code}")
        return statement(ledger, args.code)
    return format_amount(net_income(ledger))


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        print(run(args))
    except (LedgerError, AmountError, JournalError, ValueError) as exc:
        print(f"pyledger: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
