"""Locale negotiation: x-locale first, then accept-language by q-value (RFC 9110), else en."""

import pytest

from core.i18n import resolve_locale


@pytest.mark.parametrize(("x_locale", "accept", "expected"), [
    (None, "he;q=0", "en"),                      # q=0 is "not acceptable", never the pick
    (None, "he;q=0, ru;q=0.1", "ru"),
    (None, "he; q=0.0", "en"),                   # whitespace around the parameter
    (None, "he;Q=0.000", "en"),
    (None, "ru;q=0.4, he;q=0.8", "he"),
    (None, "he;q=0.5, ru;q=0.5", "he"),          # equal weights keep the header's order
    (None, "fr, he-IL;q=0.9, ru;q=0.8", "he"),   # unsupported entries are skipped
    (None, "he;q=abc, ru;q=0.2", "ru"),          # a malformed q counts as 0
    (None, "he;q=2, ru;q=0.2", "ru"),            # q above 1 is malformed
    (None, "he;level=1;q=0.7, ru;q=0.6", "he"),  # q after another parameter
    (None, "he;q=0, he-IL;q=0.3", "he"),
    (None, "", "en"),
    (None, None, "en"),
    ("ru", "he", "ru"),
    ("xx", "he;q=0", "en"),
])
def test_resolve_locale_reads_q_values(x_locale, accept, expected) -> None:
    assert resolve_locale(x_locale, accept) == expected
