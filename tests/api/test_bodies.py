"""The body patterns /schema documents are the rules the validators apply (api/bodies.py)."""

from __future__ import annotations

import re
import sys

from api.bodies import NO_NUL, NOT_BLANK, is_blank


def test_the_blank_pattern_refuses_exactly_the_characters_strip_removes() -> None:
    """One character is a valid NOT_BLANK string exactly when `str.strip()` keeps it (and it is not NUL)."""
    pattern = re.compile(NOT_BLANK)
    wrong = [hex(code) for code in range(1, sys.maxunicode + 1)
             if bool(pattern.fullmatch(chr(code))) == chr(code).isspace()]
    assert wrong == []


def test_not_blank_and_no_nul_agree_with_the_validators() -> None:
    for text in ["hi", " a ", "\u3000x", "x\n", "\u00a0\u2003", " ", "\t\n", "\x1c", "a\x00", "\x00", ""]:
        assert bool(re.fullmatch(NOT_BLANK, text)) == (not is_blank(text) and "\x00" not in text), repr(text)
        assert bool(re.fullmatch(NO_NUL, text)) == ("\x00" not in text), repr(text)
