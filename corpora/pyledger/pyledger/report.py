"""Plain-text reports: trial balance and an account statement."""

from __future__ import annotations

from datetime import date

from pyledger.accounts import AccountType
from pyledger.ledger import Ledger
from pyledger.money import CURRENCY, format_amount

REPORT_WIDTH = 60


def trial_balance(ledger: Ledger, until: date | None = None) -> str:
    """Every account's debit or credit balance; the two columns must have equal totals."""
    rows = [f"TRIAL BALANCE ({CURRENCY})".center(REPORT_WIDTH), "-" * REPORT_WIDTH]
    total_debit = total_credit = 0
    for code in sorted(ledger.accounts):
        debits, credits = ledger.totals(code, until)
        net = debits - credits
        debit_col = format_amount(net) if net > 0 else ""
        credit_col = format_amount(-net) if net < 0 else ""
        total_debit += max(net, 0)
        total_credit += max(-net, 0)
        name = ledger.accounts[code].name[:26]
        rows.append(f"{code}  {name:<26}{debit_col:>14}{credit_col:>14}")
    rows.append("-" * REPORT_WIDTH)
    rows.append(f"{'TOTAL':<32}{format_amount(total_debit):>14}{format_amount(total_credit):>14}")
    return "\n".join(rows)


def statement(ledger: Ledger, code: str) -> str:
    """Chronological postings of one account with a running balance in its normal direction."""
    account = ledger.accounts[code]
    sign = 1 if account.type.debit_normal else -1
    rows = [f"STATEMENT {code} {account.name}", "-" * REPORT_WIDTH]
    running = 0
    for transaction in ledger.transactions:
        for posting in transaction.postings:
            if posting.account == code:
                running += sign * posting.amount
                rows.append(
                    f"{transaction.when.isoformat()}  {transaction.description[:24]:<24}"
                    f"{format_amount(sign * posting.amount):>12}{format_amount(running):>12}"
                )
    return "\n".join(rows)


def net_income(ledger: Ledger, until: date | None = None) -> int:
    """Income minus expenses, in cents."""
    result = 0
    for code, account in ledger.accounts.items():
        if account.type is AccountType.INCOME:
            result += ledger.balance(code, until)
        elif account.type is AccountType.EXPENSE:
            result -= ledger.balance(code, until)
    return result
