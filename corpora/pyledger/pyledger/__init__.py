"""pyledger: a tiny double-entry ledger kept in a JSON-lines journal file."""

from pyledger.accounts import Account, AccountType
from pyledger.ledger import Ledger, LedgerError, Posting, Transaction

__all__ = ["Account", "AccountType", "Ledger", "LedgerError", "Posting", "Transaction"]
__version__ = "0.3.0"
