"""The offline model's conversation title: a short cleaned phrase from the staff member's first message
(greetings, "can you", "please" and punctuation dropped, the first clause, at most 6 words, capitalized).
An extract, never an invention: every word comes from the message."""

from __future__ import annotations

import re

MAX_WORDS = 6
_LEADING = re.compile(
    r"^(?:hey|hi|hello|ok(?:ay)?|so|please|pls|spotter|can you|could you|would you|will you|i want to|"
    r"i'd like to|i would like to|i need to|let's|help me|привет|пожалуйста|можешь|можете|помоги|"
    r"היי|שלום|בבקשה|תוכל|תוכלי|אפשר)\b[\s,:;!-]*",
    re.IGNORECASE,
)
_TRAILING = re.compile(r"[\s,]*\b(?:please|pls|for me|thanks|thank you|пожалуйста|спасибо|בבקשה|תודה)$",
                       re.IGNORECASE)
_CLAUSE = re.compile(r"\s+(?:and|then|и|а потом)\s+|\s+ו(?=\S)", re.IGNORECASE)


def offline_title(message: str) -> str:
    line = next((part for part in message.strip().splitlines() if part.strip()), "")
    phrase = re.split(r"(?<=[^\d])[.?!;]+(?:\s|$)|[?!]", line.strip(), maxsplit=1)[0]
    phrase = re.sub(r"[\"“”„«»‘’`*#()\[\]{}<>]", "", phrase)
    previous = None
    while previous != phrase:
        previous = phrase
        phrase = _TRAILING.sub("", _LEADING.sub("", phrase.strip(" ,.:;!?-"))).strip(" ,.:;!?-")
    words = phrase.split()
    if len(words) > MAX_WORDS:
        first = _CLAUSE.split(phrase, maxsplit=1)[0].split()
        words = first if 2 <= len(first) <= MAX_WORDS else words[:MAX_WORDS]
    title = " ".join(words).strip(" ,.:;-")
    return (title[:1].upper() + title[1:])[:200] if title else "Conversation"
