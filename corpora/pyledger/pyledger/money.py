"""Amounts are integers of cents: no float ever touches a balance."""

from __future__ import annotations

CURRENCY = "EUR"
CENTS_PER_UNIT = 100
MAX_AMOUNT_CENTS = 10_000_000_00  # ten million units: larger postings are refused as typos


class AmountError(ValueError):
    """An amount string that is not a well-formed money value."""


def parse_amount(text: str) -> int:
    """Turn '12.34', '-5', '1,000.5' into cents; at most two decimals."""
    cleaned = text.strip().replace(",", "")
    if not cleaned:
        raise AmountError("empty amount")
    negative = cleaned.startswith("-")
    if negative:
        cleaned = cleaned[1:]
    units, _, fraction = cleaned.partition(".")
    if not units.isdigit() or (fraction and not fraction.isdigit()) or len(fraction) > 2:
        raise AmountError(f"not an amount: {text!r}")
    cents = int(units) * CENTS_PER_UNIT + int(fraction.ljust(2, "0") or 0)
    if cents > MAX_AMOUNT_CENTS:
        raise AmountError(f"amount above the maximum: {text!r}")
    return -cents if negative else cents


def format_amount(cents: int) -> str:
    """12345 -> '123.45', -5 -> '-0.05', with thousands separators."""
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), CENTS_PER_UNIT)
    return f"{sign}{units:,}.{rest:02d}"
