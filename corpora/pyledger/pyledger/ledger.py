"""The ledger: accounts plus balanced transactions, and the balances they imply."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from pyledger.accounts import Account
from pyledger.money import format_amount


class LedgerError(Exception):
    """A transaction or account that would break the books."""


@dataclass(frozen=True)
class Posting:
    account: str  # account code
    amount: int  # cents; positive = debit, negative = credit


@dataclass(frozen=True)
class Transaction:
    when: date
    description: str
    postings: tuple[Posting, ...]

    def is_balanced(self) -> bool:
        return sum(p.amount for p in self.postings) == 0


@dataclass
class Ledger:
    accounts: dict[str, Account] = field(default_factory=dict)
    transactions: list[Transaction] = field(default_factory=list)

    def open_account(self, code: str, name: str) -> Account:
        if code in self.accounts:
            raise LedgerError(f"account {code} already exists")
        account = Account(code, name)
        self.accounts[code] = account
        return account

    def post(self, transaction: Transaction) -> None:
        """Record a transaction after checking it is balanced and names known accounts."""
        if len(transaction.postings) < 2:
            raise LedgerError("a transaction needs at least two postings")
        if not transaction.is_balanced():
            total = sum(p.amount for p in transaction.postings)
            raise LedgerError(f"transaction does not balance (off by {format_amount(total)})")
        for posting in transaction.postings:
            if posting.account not in self.accounts:
                raise LedgerError(f"unknown account {posting.account}")
            if posting.amount == 0:
                raise LedgerError(f"zero posting to account {posting.account}")
        if self.transactions and transaction.when < self.transactions[-1].when:
            raise LedgerError("transactions must be posted in date order")
        self.transactions.append(transaction)

    def transfer(self, when: date, description: str, debit: str, credit: str, amount: int) -> Transaction:
        """Shortcut for the common two-legged transaction: debit one account, credit another."""
        if amount <= 0:
            raise LedgerError("transfer amount must be positive")
        transaction = Transaction(when, description, (Posting(debit, amount), Posting(credit, -amount)))
        self.post(transaction)
        return transaction

    def totals(self, code: str, until: date | None = None) -> tuple[int, int]:
        """(debits, credits) of one account, optionally only up to and including a date."""
        debits = credits = 0
        for transaction in self.transactions:
            if until is not None and transaction.when > until:
                break
            for posting in transaction.postings:
                if posting.account == code:
                    if posting.amount > 0:
                        debits += posting.amount
                    else:
                        credits -= posting.amount
        return debits, credits

    def balance(self, code: str, until: date | None = None) -> int:
        if code not in self.accounts:
            raise LedgerError(f"unknown account {code}")
        debits, credits = self.totals(code, until)
        return self.accounts[code].signed_balance(debits, credits)
