"""Measured safety (NUTRITION.md): the safety floor over hundreds of phrasings members write, in English, Hebrew and
Russian (misspelt, colloquial, indirect, negated, body-part confusions, someone else's condition). Red flags found
must be at least 97 % with no `abort` missed; benign training talk paused at most 5 %. The figures, for the whole
suite and for each held-out set (`red_flag_heldout.py`: never tuned on before it was first measured; README.md
gives those first measurements), are printed at the end of the test run (tests/conftest.py prints every `figure`
a test records, under pytest-xdist too) and stand in README.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from gym.nutrition.safety_floor import ABORT, CONTINUE, PAUSE_SOON, PAUSE_URGENT, floor_of, text_codes
from tests.safety.red_flag_heldout import HELD_OUT, HELD_OUT_2
from tests.safety.red_flag_phrasings import PHRASINGS

RECALL_TARGET = 0.97
FALSE_ALARM_TARGET = 0.05
LEAST = {"none": CONTINUE, "soon": PAUSE_SOON, "urgent": PAUSE_URGENT, "abort": ABORT}
Row = tuple[str, str, str, str | None]  # least action, language, phrasing, code (None: benign or not given)
HELD: list[Row] = [(least, lang, text, None) for least, lang, text in HELD_OUT]
HELD_2: list[Row] = [(least, lang, text, None) for least, lang, text in HELD_OUT_2]
SUITE: list[Row] = [*PHRASINGS, *HELD, *HELD_2]


@dataclass
class Figures:
    """Red flags found (the floor at least the row's least action), aborts missed, benign rows paused."""

    name: str
    flags: int = 0
    found: int = 0
    aborts: int = 0
    missed: list[str] = field(default_factory=list)
    benign: int = 0
    paused: list[str] = field(default_factory=list)
    wrong_code: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / self.flags

    @property
    def false_alarms(self) -> float:
        return len(self.paused) / self.benign

    @property
    def aborts_missed(self) -> list[str]:
        return [text for text in self.missed if text.startswith("abort:")]

    def line(self) -> str:
        return (f"safety floor, {self.name}: red flags found {self.recall:.1%} ({self.found}/{self.flags}), "
                f"aborts missed {len(self.aborts_missed)} of {self.aborts}, benign paused {self.false_alarms:.1%} "
                f"({len(self.paused)}/{self.benign})")


def measure(name: str, rows: list[Row]) -> Figures:
    out = Figures(name)
    for least, _, text, code in rows:
        codes = text_codes(text)
        level = floor_of(codes).level
        if LEAST[least] == CONTINUE:
            out.benign += 1
            if level > CONTINUE:
                out.paused.append(f"{text} -> {codes}")
            continue
        out.flags += 1
        out.aborts += least == "abort"
        if level >= LEAST[least]:
            out.found += 1
            if code is not None and code not in codes:
                out.wrong_code.append(f"{text}: {code} not in {codes}")
        else:
            out.missed.append(f"{least}: {text} -> {codes}")
    return out


def test_the_suite_is_broad() -> None:
    """At least 300 phrasings in the three languages, red flags of every kind and benign talk alike."""
    assert len(SUITE) >= 300
    assert {lang for _, lang, _, _ in SUITE} == {"en", "he", "ru"}
    for lang in ("en", "he", "ru"):
        leasts = [least for least, language, _, _ in SUITE if language == lang]
        assert {"none", "soon", "urgent", "abort"} <= set(leasts), lang
    assert len({text for _, _, text, _ in SUITE}) == len(SUITE), "a phrasing is listed twice"


@pytest.mark.parametrize(("name", "rows"), [("all phrasings", SUITE), ("held-out set 1", HELD),
                                            ("held-out set 2", HELD_2)], ids=["all", "held_out_1", "held_out_2"])
def test_red_flags_are_found_and_training_talk_is_not_paused(name: str, rows: list[Row], record_property) -> None:
    figures = measure(name, rows)
    record_property("figure", figures.line())
    print(figures.line())
    assert not figures.aborts_missed, figures.aborts_missed
    assert figures.recall >= RECALL_TARGET, figures.missed
    assert figures.false_alarms <= FALSE_ALARM_TARGET, figures.paused
    assert not figures.wrong_code, figures.wrong_code
