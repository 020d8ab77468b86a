"""One money formatter for every tool: whole cents rounded half-up, a known symbol or the currency code."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from tools.money import money, money_display, round_cents


def test_half_a_cent_rounds_up_and_halves_round_away_from_zero() -> None:
    assert money_display(Fraction(89205, 2), "ILS") == "₪446.03"  # ₪446.025, once printed as ₪446.02
    assert money(Decimal("44602.5"), "ILS").model_dump() == {"cents": 44603, "display": "₪446.03"}
    assert round_cents(Fraction(122000, 3)) == 40667 and round_cents(Fraction(-1, 2)) == -1
    assert round_cents(44602.4) == 44602


def test_one_shape_for_every_currency() -> None:
    assert money_display(122000, "ILS") == "₪1,220.00"
    assert money_display(45000, "USD") == "$450.00"
    assert money_display(-1050, "EUR") == "-€10.50"
    assert money_display(122000, "CHF") == "1,220.00 CHF"
    assert money_display(5, None) == "0.05"
