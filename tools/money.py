"""The one money formatter the model sees: whole cents rounded half-up, then "₪1,220.00" (a known symbol) or
"1,220.00 CHF" (any other currency). ₪446.025 is ₪446.03."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from pydantic import BaseModel

SYMBOLS = {"ILS": "₪", "USD": "$", "EUR": "€", "GBP": "£"}


def round_cents(amount: int | float | Decimal | Fraction) -> int:
    """Whole cents, halves away from zero (44602.5 -> 44603, -0.5 -> -1)."""
    exact = Fraction(amount)
    whole = math.floor(abs(exact) + Fraction(1, 2))
    return whole if exact >= 0 else -whole


def money_display(cents: int | float | Decimal | Fraction, currency: str | None) -> str:
    rounded = round_cents(cents)
    whole, fraction = divmod(abs(rounded), 100)
    symbol = SYMBOLS.get(currency or "")
    amount = f"{'-' if rounded < 0 else ''}{symbol or ''}{whole:,}.{fraction:02d}"
    return amount if symbol or not currency else f"{amount} {currency}"


class Money(BaseModel):
    cents: int
    display: str


def money(cents: int | float | Decimal | Fraction, currency: str | None) -> Money:
    """Cents (rounded half-up) and their display string."""
    return Money(cents=round_cents(cents), display=money_display(cents, currency))
