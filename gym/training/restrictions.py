"""A member's words about an injury or a "never" rule, mapped once to codes, and the codes shown back in words
(TRAINER.md "Library-only prescriptions and structured constraints").

- An injury is a structured restriction: a body region, a side, the movement patterns it restricts (by default what
  a strength coach restricts for that region: a shoulder → no overhead pressing, no loaded shoulder flexion above
  90°) and an optional until date (the preference's expiry).
- A "never" rule resolves to library exercises, a family or a pattern: "never lunges" → every exercise tagged
  `lunge` (not goblet squats, not the leg press); "never walking lunges" → that exercise and its family. Said with a
  "never" (or "no", "avoid", "without") it is hard, with or without exclusions the model filled.
- Shown back in the member's language: "left shoulder — no overhead pressing, no loaded shoulder flexion above 90°".

The words below are the only word lists of the rules: every check runs on codes and on the library's tags.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from core.i18n import has_key, translate
from gym.training.constraints import Conflict, Exclusions, exclusions_of, union
from gym.training.exercise_words import display_name
from gym.training.movements import name_key, spellings

# What a strength coach restricts for an injured region (shown back, enforced as the injury's patterns).
REGION_PATTERNS: dict[str, tuple[str, ...]] = {
    "shoulder": ("overhead_press", "shoulder_flexion_loaded_above_90"),
    "neck": ("spinal_loading", "overhead_hold"),
    "elbow": ("dip", "hanging"),
    "wrist": ("wrist_extension",),
    "chest": ("horizontal_push", "dip"),
    "upper_back": ("spinal_loading",),
    "lower_back": ("spinal_loading", "spinal_flexion_loaded", "hinge"),
    "hip": ("deep_knee_flexion", "lunge", "jump"),
    "knee": ("deep_knee_flexion", "jump", "lunge"),
    "ankle": ("jump", "running"),
}

_HE = "(?:[ובלהמש]{0,2})"  # Hebrew prefix letters (and, in, to, the, from, that) before a word
REGION_WORDS: dict[str, str] = {
    "lower_back": r"lower back|low back|lumbar|גב (?:ה)?תחתון|поясниц\w*|нижн\w* (?:част\w* )?спин\w*",
    "upper_back": r"upper back|גב (?:ה)?עליון|верхн\w* (?:част\w* )?спин\w*",
    "shoulder": rf"shoulders?|rotator cuff|{_HE}כתף|{_HE}כתפ(?:יים|י|ו|ה)\b|плеч\w*",
    "knee": rf"knees?|{_HE}ברך|{_HE}ברכ(?:יים|י|ו|ה)\b|колен\w*",
    "neck": rf"neck|{_HE}צוואר|ше[яиюей]\b",
    "elbow": rf"elbows?|{_HE}מרפק\w*|локт\w*|локоть",
    "wrist": rf"wrists?|{_HE}שורש(?:י)? (?:ה)?כף|{_HE}פרק(?:י)? (?:ה)?יד|запяст\w*",
    "hip": rf"hips?|{_HE}מפרק (?:ה)?ירך|{_HE}אגן|тазобедр\w*|бедр\w*",
    "ankle": rf"ankles?|{_HE}קרסול\w*|лодыж\w*|голеностоп\w*",
    "chest": rf"chest|pec(?:s|toral)?|{_HE}חזה|груд\w*",
}
SIDE_WORDS: dict[str, str] = {
    "both": rf"\bboth\b|{_HE}שתי|{_HE}שני|\bоб[аеи]\b",
    "left": rf"\bleft\b|{_HE}שמאל\w*|\bлев\w*",
    "right": rf"\bright\b|{_HE}ימין\w*|{_HE}ימני\w*|\bправ\w*",
}
_DO = r"(?:give|do|want|include|put|add|program|schedule|prescribe)"
NEVER_WORDS = re.compile(
    rf"\bnever\b|\bno\b|\bno more\b|\bavoid\w*|\bwithout\b|\bban\w*|\bexclud\w*|\bdon'?t (?:ever )?{_DO}|"
    rf"\bdo not (?:ever )?{_DO}|\bstop {_DO}\w*|\bcan'?t do\b|\bcannot do\b|\bcan not do\b|\bskip\b|"
    r"\brefuse\w* to do\b|\bkeep\b.*\bout\b|\btake out\b|\bleave out\b|"
    r"אף פעם|לעולם לא|בשום אופן|\bבלי\b|\bללא\b|אסור|להימנע|תימנע|\bלא (?:רוצה|לתת|להכניס|לעשות|עוד)\b|"
    r"\bאל (?:תיתן|תתן|תכניס|תוסיף)\b|\bתוריד\b|\bלהוריד\b|\bתוציא\b|\bלהוציא\b|\bאין לי כוח\b|"
    r"\bלא בשבילי\b|\bלא יכול\w*\b|"
    r"никогда|\bбез\b|нельзя|избега\w*|исключ\w*|\bхватит\b|\bникаки[хем]\b|\bубер\w*|\bубра\w*|"
    r"\bне (?:давай|делай|хочу|включай|ставь|добавляй|надо|нужно|давать|делать|включать|добавлять|могу|буду)\b",
    re.IGNORECASE)
CLAUSE = re.compile(r"[.;!?\n]|\bbut\b|\bאבל\b|\bно\b", re.IGNORECASE)
LATIN_SUFFIXES = ("", "s", "es", "ing", "ed", "er", "ers", "ping", "ning", "ging", "metric", "metrics")
HEBREW_PREFIX = "ובלהמשכ"
# The words that name a pattern's family (word starts; "lunge" also matches "lunges", "выпад" "выпады").
FAMILY_WORDS: dict[str, tuple[str, ...]] = {
    "lunge": ("lunge", "split squat", "מכרע", "לאנג'", "выпад", "сплит-присед"),
    "burpee_family": ("burpee", "sprawl", "squat thrust", "ברפי", "бёрпи", "берпи", "бурпи"),
    "jump": ("jump", "plyo", "hop", "bound", "קפיצ", "קפוץ", "прыж", "прыга", "плиометр"),
    "running": ("run", "jog", "sprint", "ריצ", "לרוץ", "бег", "пробеж"),
    "overhead_press": ("overhead press", "overhead pressing", "pressing overhead", "press overhead", "overhead",
                       "לחיצה מעל הראש", "לחיצות מעל הראש", "מעל הראש", "жим над головой", "жимы над головой",
                       "жим вверх", "над головой"),
    "squat": ("squat", "סקוואט", "כריעה", "присед"),
    "hinge": ("hinge", "hinging", "hip hinge"),
    "carry": ("carry", "carries", "loaded carr", "נשיאות", "переноск"),
    "hanging": ("hang", "hanging", "תלייה", "תליות", "вис"),
    "rotation": ("twist", "rotation", "רוטציה", "ротац"),
    "spinal_loading": ("spinal load", "axial load", "עומס על עמוד השדרה", "осевая нагрузк", "нагрузк на позвоночник"),
}
MIN_ALIAS = 3  # shorter aliases (BS, DL, PP) are whiteboard shorthand, not words a member writes in a sentence


@dataclass(frozen=True)
class Said:
    """What the member's words say: the exclusions they name and whether they said "never" (or "no", "avoid")."""

    exclusions: Exclusions
    never: bool


def _words(text: str) -> list[str]:
    return name_key(text).split()


@cache
def _family_keys() -> list[tuple[tuple[str, ...], str]]:
    return [(tuple(_words(w)), pattern) for pattern, words in FAMILY_WORDS.items() for w in words]


@cache
def _exercise_keys() -> list[tuple[tuple[str, ...], str]]:
    return [(tuple(key.split()), exercise.name) for key, exercise in spellings().items()
            if len(key.replace(" ", "")) >= MIN_ALIAS]


def _starts(word: str, stem: str) -> bool:
    """Does the word say the stem: English with its endings ("lunges", "jumping"), Hebrew and Russian with any
    ending ("выпады", "קפיצות") and Hebrew with its prefix letters ("והמכרעים")."""
    if stem.isascii():
        return word.startswith(stem) and word[len(stem):] in LATIN_SUFFIXES
    return any(word[k:].startswith(stem) and all(c in HEBREW_PREFIX for c in word[:k]) for k in range(3))


def _same(word: str, name_word: str) -> bool:
    """A word of the sentence is this word of an exercise's name: the same, with Hebrew prefix letters ("והדדליפט"),
    or a Russian case ending ("становую тягу" for "становая тяга")."""
    if word == name_word or name_word.isascii():
        return word == name_word
    if any(word[k:] == name_word and all(c in HEBREW_PREFIX for c in word[:k]) for k in (1, 2)):
        return True
    stem = max(3, len(name_word) - 2)
    return bool(re.fullmatch(r"[а-яё-]+", name_word)) and abs(len(word) - len(name_word)) <= 3 and \
        word[:stem] == name_word[:stem]


def _hits(words: list[str]) -> list[tuple[int, int, str, str]]:
    """(start, length, kind, value) of every family word and exercise name in `words`."""
    hits = []
    for i in range(len(words)):
        for stems, pattern in _family_keys():
            n = len(stems)
            if n and i + n <= len(words) and all(_starts(w, s) for w, s in zip(words[i:i + n], stems, strict=True)):
                hits.append((i, n, "pattern", pattern))
        for key, name in _exercise_keys():
            n = len(key)
            if n and i + n <= len(words) and all(_same(w, k) for w, k in zip(words[i:i + n], key, strict=True)):
                hits.append((i, n, "exercise", name))
    return hits


def _chosen(hits: list[tuple[int, int, str, str]]) -> list[tuple[str, str]]:
    """The longest non-overlapping hits; a family word wins a tie with an exercise name ("lunges" is the family)."""
    taken: set[int] = set()
    out = []
    for start, length, kind, value in sorted(hits, key=lambda h: (-h[1], h[2] != "pattern", h[0])):
        span = set(range(start, start + length))
        if span & taken:
            continue
        taken |= span
        out.append((kind, value))
    return out


def said_rule(text: str, *, whole: bool = False) -> Said:
    """The exercises and pattern families a "never" sentence names, in any of the three languages: in each clause,
    what comes after its "never"/"no"/"avoid" (`whole`: every clause, all of it — words the caller already knows
    name things to leave out, "lunges")."""
    exercises: list[str] = []
    patterns: list[str] = []
    never = False
    for clause in CLAUSE.split(text):
        negation = NEVER_WORDS.search(clause)
        never = never or negation is not None
        if negation is None and not whole:
            continue
        scope = clause if whole or negation is None else clause[negation.start():]  # "keep lunges out"
        for kind, value in _chosen(_hits(_words(scope))):
            (patterns if kind == "pattern" else exercises).append(value)
    return Said(Exclusions(exercises=exercises, patterns=patterns).canonical(), never)


def injury_place(text: str) -> tuple[str | None, str | None]:
    """The body region and side the words name ("my left shoulder hurts" → shoulder, left)."""
    lowered = text.lower()
    region = next((r for r, words in REGION_WORDS.items() if re.search(words, lowered)), None)
    side = next((s for s, words in SIDE_WORDS.items() if re.search(words, lowered)), None)
    return region, side


def injury_restriction(region: str | None, side: str | None = None,
                       patterns: Iterable[str] = ()) -> Exclusions:
    """An injury as a structured restriction: its place, and its patterns — the ones named and always what a coach
    restricts for that region."""
    chosen = [*patterns, *REGION_PATTERNS.get(region or "", ())]
    return Exclusions(patterns=chosen, region=region, side=side).canonical()


def structured(type: str, description: str, guidance: str, exclusions: Exclusions,
               hard: bool | None) -> tuple[Exclusions, bool]:
    """A preference as it is saved: the exclusions the caller filled, with what the member's words (its
    description) say added — never fewer —, an injury's place and its region's patterns, and whether it is hard:
    every injury, an explicit rule, and anything said with "never" that names library exercises or patterns."""
    said = said_rule(description)  # the member's words; the guidance is the model's, and names alternatives too
    rules = exclusions
    if type == "injury":
        region, side = injury_place(f"{description}. {guidance}")
        rules = union(rules, injury_restriction(rules.region or region, rules.side or side, rules.patterns))
    never = said.never and not said.exclusions.is_empty()  # "never" naming a library thing, not "no mornings"
    is_hard = type == "injury" or bool(hard) or (hard is None and not rules.is_empty()) or never
    if is_hard:
        rules = union(rules, said.exclusions)
    return rules.canonical(), is_hard


# --- shown back ----------------------------------------------------------------------------------------------

def _say(key: str, locale: str, **params: Any) -> str:
    return translate(f"trainer.rules.{key}", locale, **params)


def place_text(region: str | None, side: str | None, locale: str) -> str | None:
    """"left shoulder", "כתף שמאל", "левое плечо"."""
    if not region:
        return None
    return _say(f"place.{region}.{side or 'any'}", locale)


def value_text(kind: str, value: str, locale: str) -> str:
    """One excluded thing as the member reads it: "no overhead pressing", "no Burpee"."""
    if kind in ("pattern", "patterns"):
        return _say(f"no.{value}", locale)
    if kind in ("exercise", "exercises"):
        return _say("noExercise", locale, name=display_name(value, locale))
    if kind in ("muscle", "muscles"):
        key = f"console.member.muscle.{value}"
        return _say("noMuscle", locale, muscle=translate(key, locale) if has_key(key, locale) else value)
    return _say("noEquipment", locale, equipment=value)


def rule_text(exclusions: Mapping[str, Any] | Exclusions, locale: str, *, injury: bool) -> str:
    """A preference's structure shown back: "left shoulder — no overhead pressing, no loaded shoulder flexion
    above 90°" for an injury, "never: no lunges" for a rule."""
    rules = exclusions if isinstance(exclusions, Exclusions) else exclusions_of(exclusions)
    rules = rules.canonical()
    what = ", ".join(value_text(kind, v, locale) for kind, values in rules.lists().items() for v in values)
    if injury:
        where = place_text(rules.region, rules.side, locale) or _say("anInjury", locale)
        return _say("injury", locale, place=where, what=what) if what else where
    return _say("never", locale, what=what)


def refusal_text(conflict: Conflict | Mapping[str, Any], locale: str) -> str:
    """Why the rules refused an exercise: "no overhead pressing — left shoulder", "no lunges — your never rule"."""
    get = conflict.get if isinstance(conflict, Mapping) else lambda k, d=None: getattr(conflict, k, d)
    what = ", ".join(value_text(str(get("rule")), str(v), locale) for v in get("values") or ())
    injury = bool(get("injury"))
    why = (place_text(get("region"), get("side"), locale) or _say("anInjury", locale)) if injury \
        else _say("yourRule", locale)
    return _say("because", locale, what=what, why=why)
