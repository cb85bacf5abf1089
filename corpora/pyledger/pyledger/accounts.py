"""Chart of accounts: what an account is and which side of the books it grows on."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

ACCOUNT_CODE_PATTERN = re.compile(r"^[1-5][0-9]{3}$")


class AccountType(Enum):
    ASSET = "asset"
    LIABILITY = "liability"
    EQUITY = "equity"
    INCOME = "income"
    EXPENSE = "expense"

    @property
    def debit_normal(self) -> bool:
        """Assets and expenses grow with debits; the other three grow with credits."""
        return self in (AccountType.ASSET, AccountType.EXPENSE)


# The first digit of an account code fixes its type, as in most national charts of accounts.
TYPE_BY_FIRST_DIGIT = {
    "1": AccountType.ASSET,
    "2": AccountType.LIABILITY,
    "3": AccountType.EQUITY,
    "4": AccountType.INCOME,
    "5": AccountType.EXPENSE,
}


@dataclass(frozen=True)
class Account:
    code: str
    name: str

    def __post_init__(self) -> None:
        if not ACCOUNT_CODE_PATTERN.match(self.code):
            raise ValueError(f"account code must be four digits starting 1-5: {self.code!r}")

    @property
    def type(self) -> AccountType:
        return TYPE_BY_FIRST_DIGIT[self.code[0]]

    def signed_balance(self, debits: int, credits: int) -> int:
        """Balance in the account's normal direction, so a healthy account is positive."""
        return debits - credits if self.type.debit_normal else credits - debits
