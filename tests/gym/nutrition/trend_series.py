"""The hand-computed 21-day series of tests/gym/nutrition/test_weight_trend.py (whose docstring works every number
out): weights on 18 mornings, food on 18 days, and the trend by day. `day(n)` is day n of the series, ending today
by default so the HTTP tests can log it."""

from __future__ import annotations

from datetime import date, timedelta

DAY1 = date(2026, 3, 2)

WEIGHT_BY_DAY = {1: 80.00, 2: 79.40, 3: 80.14, 4: 78.96, 5: 79.46, 7: 78.82, 8: 79.33, 9: 80.10, 10: 78.85,
                 11: 79.37, 12: 79.05, 14: 78.50, 15: 79.21, 16: 78.70, 17: 79.54, 19: 78.27, 20: 78.88, 21: 78.66}
TREND_BY_DAY = {1: 80.00, 2: 79.94, 3: 79.96, 4: 79.86, 5: 79.82, 6: 79.82, 7: 79.63, 8: 79.60, 9: 79.65, 10: 79.57,
                11: 79.55, 12: 79.50, 13: 79.50, 14: 79.31, 15: 79.30, 16: 79.24, 17: 79.27, 18: 79.27, 19: 79.08,
                20: 79.06, 21: 79.02}
# kcal per logged day (days 4 and 17 unlogged); day 1 is the library day of the HTTP test
KCAL_BY_DAY = {1: 2000.0, 2: 2150, 3: 2080, 5: 2200, 6: 1950, 7: 2120, 8: 2050, 9: 2300, 10: 1980, 11: 2100,
               12: 2060, 13: 2250, 14: 1900, 15: 2140, 16: 2010, 18: 2170, 19: 2090, 20: 2250}
EXPENDITURE = 2477.3  # 2,100 − (−0.98 × 7,700 ÷ 20)
# Day 1 as the member logs it: library foods (key, amount, unit, kcal worked out by hand) and a quick entry by macros
DAY1_FOODS = [("rolled oats", 100, "g", 379.0),            # 379 kcal/100 g × 1.00
              ("egg", 2, "serving", 143.0),                # 2 × 50 g = 100 g × 143 kcal/100 g
              ("banana", 1, "serving", 105.0),             # 118 g × 0.89 = 105.02 → 105.0
              ("salmon fillet", 5, "oz", 294.8),           # 5 × 28.3495 g = 141.75 g × 2.08 = 294.84 → 294.8
              ("white rice", 300, "g", 390.0),             # 300 g × 1.30
              ("olive oil", 1, "serving", 119.3)]          # 13.5 g × 8.84 = 119.34 → 119.3
DAY1_QUICK = {"proteinG": 33, "carbsG": 79.3, "fatG": 13.3}  # 4 × 33 + 4 × 79.3 + 9 × 13.3 = 568.9


def day(n: int, first: date = DAY1) -> date:
    return first + timedelta(days=n - 1)


WEIGHTS = {day(n): kg for n, kg in WEIGHT_BY_DAY.items()}
TREND = TREND_BY_DAY
INTAKE = {day(n): float(kcal) for n, kcal in KCAL_BY_DAY.items()}
