"""NUTRITION.md "Measured safety": allergy and diet phrasings in en/he/ru (tests/safety/allergy_phrasings.py) mapped
to the codes they must map to, through the one mapper intake uses; the mapping rate is printed at the end of the run
(`record_property("figure", ...)`, tests/conftest.py) and must be 100 %. Words that name no allergen (a fruit, a
drug, pollen) must be refused, never mapped to a code or dropped."""

from __future__ import annotations

import pytest

from gym.nutrition.allergy_terms import diet_code, understand_allergy
from tests.safety.allergy_phrasings import ALLERGIES, DIETS, HELD_OUT

# Allergies a member may have that the closed vocabulary has no code for: each must be refused (422), never mapped.
NOT_ALLERGENS = ("kiwi", "allergic to strawberries", "pollen", "cats", "penicillin", "allergic to chicken",
                 "אלרגיה לאבקנים", "אלרגיה לתותים", "аллергия на пенициллин", "аллергия на клубнику", "latex",
                 "allergic to bananas", "tomatoes")


def _rate(pairs: list[tuple[str, bool]]) -> tuple[int, int, list[str]]:
    return sum(ok for _, ok in pairs), len(pairs), [text for text, ok in pairs if not ok]


def _allergy_results(table: dict) -> list[tuple[str, bool]]:
    out = []
    for items in table.values():
        for text, codes in items:
            found = understand_allergy(text)
            out.append((text, found.understood and set(found.codes) == set(codes)))
    return out


def test_the_suite_is_at_least_150_phrasings_in_three_languages() -> None:
    assert set(ALLERGIES) == set(DIETS) == set(HELD_OUT) == {"en", "he", "ru"}
    total = sum(len(v) for table in (ALLERGIES, DIETS, HELD_OUT) for v in table.values())
    assert total >= 150 and all(len(ALLERGIES[lang]) >= 40 for lang in ALLERGIES)


def test_every_allergy_and_diet_phrasing_maps_to_its_codes(record_property: pytest.RecordProperty) -> None:
    results = _allergy_results(ALLERGIES) + _allergy_results(HELD_OUT)
    results += [(text, diet_code(text) == code) for items in DIETS.values() for text, code in items]
    mapped, total, missed = _rate(results)
    held, held_total, _ = _rate(_allergy_results(HELD_OUT))
    refused = [t for t in NOT_ALLERGENS if not understand_allergy(t).understood]
    record_property("figure", f"allergy/diet phrasings mapped: {mapped}/{total} = {100 * mapped / total:.1f} % "
                              f"(held-out {held}/{held_total}); words naming no allergen refused: "
                              f"{len(refused)}/{len(NOT_ALLERGENS)}")
    assert not missed, missed
    assert len(refused) == len(NOT_ALLERGENS), set(NOT_ALLERGENS) - set(refused)
