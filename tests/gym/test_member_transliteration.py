"""Issue 17 item 8: Hebrew and Cyrillic spellings find members whose names are stored in Latin letters."""

from __future__ import annotations

from gym import member_search
from gym.transliteration import cyrillic_to_latin, hebrew_skeletons, latin_skeleton
from tests.gym.test_members import _gym


def test_skeletons_and_transliteration() -> None:
    assert latin_skeleton("Saar Cohen") in hebrew_skeletons("סער כהן")
    assert latin_skeleton("Dani Mizrahi") in hebrew_skeletons("דני מזרחי")
    assert cyrillic_to_latin("Саар Коэн") == "saar koen"
    assert cyrillic_to_latin("Saar") is None


async def test_hebrew_and_cyrillic_find_latin_names(db, factory) -> None:
    org, made = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        he_saar = await member_search.search_members(session, org.id, "סער")
        he_full = await member_search.search_members(session, org.id, "סער כהן")
        he_dani = await member_search.search_members(session, org.id, "דני מזרחי")
        ru_saar = await member_search.search_members(session, org.id, "Саар")
        ru_full = await member_search.search_members(session, org.id, "Саар Коэн")
        nobody = await member_search.search_members(session, org.id, "זלמן")
    assert {hit.full_name for hit in he_saar[:2]} == {"Saar Cohen", "Saar Levi"}
    assert he_full[0].id == made["Saar Cohen"]
    assert he_dani[0].id == made["Dani Mizrahi"]
    assert {hit.full_name for hit in ru_saar[:2]} == {"Saar Cohen", "Saar Levi"}
    assert ru_full[0].id == made["Saar Cohen"]
    assert nobody == []


async def test_hebrew_with_no_consonant_to_match_is_searched_as_typed_not_a_crash(db, factory) -> None:
    """An aleph has no Latin consonant: a query whose Hebrew is only such letters ("א", or "ëmא/ñ" as schemathesis
    sent it) has no skeleton to compare, and is searched by its letters instead (it was GREATEST() with no
    arguments: a syntax error, 500)."""
    org, _ = await _gym(db, factory)
    assert hebrew_skeletons("א") == [] and hebrew_skeletons("ëmא/ñ") == []
    async with db.scope(org_id=org.id) as session:
        for query in ("א", "ëmא/ñ", "א א"):
            assert await member_search.search_members(session, org.id, query) == []
        assert [h.full_name for h in await member_search.search_members(session, org.id, "Saar Cohen א")][:1] == [
            "Saar Cohen"]
