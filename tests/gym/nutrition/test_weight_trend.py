"""The trend weight and the energy-balance expenditure (gym/nutrition/weight_trend.py) against a 21-day series
computed by hand.

The series (tests/gym/nutrition/trend_series.py holds the same numbers for the HTTP test): weights on 18 of 21
mornings (days 6, 13 and 18 missing), food logged on 18 of the 20 days before the last (days 4 and 17 missing).
Each weight was chosen as the previous trend plus a deviation d, so each step is one multiplication by hand:

    trend(day) = trend(day before) + 0.1 × d            (a weight the day after the last one)
    trend(day) = trend(day before) + 0.19 × d           (after one missing day: 1 − 0.9² = 0.19)

    day  weight   d = weight − trend before   trend
      1  80.00    (first weight)              80.00
      2  79.40    79.40 − 80.00 = −0.60       80.00 − 0.06  = 79.94
      3  80.14    80.14 − 79.94 = +0.20       79.94 + 0.02  = 79.96
      4  78.96    78.96 − 79.96 = −1.00       79.96 − 0.10  = 79.86
      5  79.46    79.46 − 79.86 = −0.40       79.86 − 0.04  = 79.82
      6  —                                    79.82 (kept)
      7  78.82    78.82 − 79.82 = −1.00       79.82 − 0.19  = 79.63   (gap: 0.19)
      8  79.33    79.33 − 79.63 = −0.30       79.63 − 0.03  = 79.60
      9  80.10    80.10 − 79.60 = +0.50       79.60 + 0.05  = 79.65
     10  78.85    78.85 − 79.65 = −0.80       79.65 − 0.08  = 79.57
     11  79.37    79.37 − 79.57 = −0.20       79.57 − 0.02  = 79.55
     12  79.05    79.05 − 79.55 = −0.50       79.55 − 0.05  = 79.50
     13  —                                    79.50 (kept)
     14  78.50    78.50 − 79.50 = −1.00       79.50 − 0.19  = 79.31   (gap: 0.19)
     15  79.21    79.21 − 79.31 = −0.10       79.31 − 0.01  = 79.30
     16  78.70    78.70 − 79.30 = −0.60       79.30 − 0.06  = 79.24
     17  79.54    79.54 − 79.24 = +0.30       79.24 + 0.03  = 79.27
     18  —                                    79.27 (kept)
     19  78.27    78.27 − 79.27 = −1.00       79.27 − 0.19  = 79.08   (gap: 0.19)
     20  78.88    78.88 − 79.08 = −0.20       79.08 − 0.02  = 79.06
     21  78.66    78.66 − 79.06 = −0.40       79.06 − 0.04  = 79.02

Intake (kcal), days 1–20: day 1 is 2,000.0 (the HTTP test logs it as library foods: 379.0 + 143.0 + 105.0 +
294.8 + 390.0 + 119.3 = 1,431.1, and a quick entry of 33 g protein, 79.3 g carbohydrate, 13.3 g fat: 4 × 33 +
4 × 79.3 + 9 × 13.3 = 132 + 317.2 + 119.7 = 568.9); days 2, 3, 5–16, 18, 19, 20: 2,150, 2,080, 2,200, 1,950, 2,120, 2,050,
2,300, 1,980, 2,100, 2,060, 2,250, 1,900, 2,140, 2,010, 2,170, 2,090, 2,250. Their sum: 2,000 + 2,150 = 4,150;
+ 2,080 = 6,230; + 2,200 = 8,430; + 1,950 = 10,380; + 2,120 = 12,500; + 2,050 = 14,550; + 2,300 = 16,850; + 1,980 =
18,830; + 2,100 = 20,930; + 2,060 = 22,990; + 2,250 = 25,240; + 1,900 = 27,140; + 2,140 = 29,280; + 2,010 = 31,290;
+ 2,170 = 33,460; + 2,090 = 35,550; + 2,250 = 37,800 over 18 logged days: average 2,100 kcal.

Expenditure on day 21: window day 1 → day 21, 20 days; trend change 79.02 − 80.00 = −0.98 kg;
−0.98 × 7,700 ÷ 20 = −377.3 kcal/day; expenditure = 2,100 − (−377.3) = 2,477.3 kcal/day.
Confidence: weights 18 of 21 mornings = 0.857, logged days 18 of 20 = 0.90; coverage 0.857 ≥ 0.85 and 20 days ≥
20: high.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from gym.nutrition.weight_trend import confidence, expenditure, trend, trend_on
from tests.gym.nutrition.trend_series import DAY1, INTAKE, TREND, WEIGHT_BY_DAY, WEIGHTS, day


def test_the_trend_of_the_21_day_series_is_the_hand_computed_one() -> None:
    series = trend(WEIGHTS)
    assert len(series) == 21
    for n, expected in TREND.items():
        assert series[day(n)] == pytest.approx(expected, abs=1e-9), n


def test_a_missing_day_keeps_the_trend_and_the_next_weight_catches_up() -> None:
    """Day 6 has no weight: its trend is day 5's; day 7 moves 0.19 of the way (two daily steps), not 0.1."""
    series = trend(WEIGHTS)
    assert series[day(6)] == series[day(5)] == pytest.approx(79.82)
    assert series[day(7)] - series[day(6)] == pytest.approx(0.19 * (78.82 - 79.82))


def test_the_trend_on_a_day_reads_only_the_weights_up_to_it() -> None:
    """The value a check-in takes never changes when later weights arrive."""
    assert trend_on(WEIGHTS, day(13)) == pytest.approx(79.50)
    assert trend_on({day(n): w for n, w in WEIGHT_BY_DAY.items() if n <= 12}, day(13)) == pytest.approx(79.50)
    assert trend_on(WEIGHTS, DAY1 - timedelta(days=1)) is None


def test_the_expenditure_of_the_21_day_series_is_the_hand_computed_one() -> None:
    found = expenditure(WEIGHTS, INTAKE, day(21))
    assert (found.start, found.end, found.days, found.weights, found.logged_days) == (day(1), day(21), 20, 18, 18)
    assert found.average_intake_kcal == pytest.approx(2_100)
    assert found.trend_change_kg == pytest.approx(-0.98)
    assert found.kcal == pytest.approx(2_477.3)
    assert found.confidence == "high"


def test_todays_unfinished_log_never_counts() -> None:
    """Intake on the day the estimate is for (day 21) is not read: a morning weight shows the day before's food."""
    with_today = {**INTAKE, day(21): 9_000.0}
    assert expenditure(WEIGHTS, with_today, day(21)).kcal == pytest.approx(2_477.3)


def test_no_estimate_before_14_days_10_weights_and_10_logged_days() -> None:
    """Day 14: 13 days in the window — none yet; one weight or one logged day short — none either."""
    assert expenditure(WEIGHTS, INTAKE, day(14)).kcal is None
    assert expenditure(WEIGHTS, INTAKE, day(15)).ready  # 14 days, 13 weights, 13 logged days
    few_weights = {d: w for d, w in WEIGHTS.items() if d <= day(1) or d > day(12)}  # 8 weights on days 1–21
    assert not expenditure(few_weights, INTAKE, day(21)).ready
    few_meals = dict(list(INTAKE.items())[:9])
    assert not expenditure(WEIGHTS, few_meals, day(21)).ready


@pytest.mark.parametrize(("days", "weights", "logged", "expected"), [
    (20, 18, 18, "high"),    # 18/21 = 0.857 and 18/20 = 0.90
    (20, 17, 18, "medium"),  # 17/21 = 0.810
    (19, 19, 19, "medium"),  # every day, but under 20 days
    (14, 11, 11, "medium"),  # 11/15 = 0.733, 11/14 = 0.786
    (14, 10, 10, "low"),     # 10/15 = 0.667
    (28, 10, 25, "low"),     # 10/29 = 0.345
])
def test_confidence_follows_the_documented_rule(days, weights, logged, expected) -> None:
    assert confidence(days, weights, logged) == expected
