"""The red flags a member's words name (NUTRITION.md, PHYSICIAN's safety floor), as rules over the concepts of
`gym.nutrition.safety_words` (en, he, ru), read by `gym.nutrition.safety_text`.

Each rule says what a clinician listens for, not a list of phrasings: chest pain is a chest (or the heart) and a
pain in one clause, unless the words around say sore muscles after a chest exercise, or heartburn after food, and
nothing cardiac (radiating, the left arm or jaw, sweating, brought on by running or stairs); breathlessness counts at
rest (or "always"), not after a sprint. Any rule's finding is dropped when it is negated ("no chest pain", "никогда
не терял сознание") or about someone else ("my wife is pregnant", "у мамы диабет", "runs in my family").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from gym.nutrition.safety_text import Hit, Sentence, sentences

PALPITATION_BPM = 110  # a resting pulse at or above this, told in words, is a racing heart


def _kept(s: Sentence, hits: list[Hit]) -> bool:
    return any(not s.excluded(h.start) for h in hits)


def _first(a: Hit, b: Hit) -> int:
    return min(a.start, b.start)


def chest_pain(s: Sentence) -> bool:
    if _kept(s, s.of("ANGINA")):
        return True
    for arm, effort in s.pairs(("ARM_JAW",), ("CARDIO",), window=8):  # the left arm or jaw on exertion
        if not s.excluded(_first(arm, effort)):
            return True
    for place, pain in s.pairs(("CHEST", "HEART"), ("PAIN", "BURN"), window=6):
        at = _first(place, pain)
        if s.excluded(at):
            continue
        cardiac = s.in_part(at, "CARDIAC", "CARDIO")
        muscular = s.in_part(at, "MUSCLE", "CHEST_EX")
        heartburn = s.in_part(at, "REFLUX") or (s.in_part(at, "BURN") and s.in_part(at, "FOOD"))
        if place.concept == "CHEST" and (muscular or heartburn) and not cardiac:
            continue
        return True
    return False


def _fainting_word(s: Sentence, hit: Hit) -> bool:
    """"faint" as a verb or a state ("I fainted", "felt faint"), not an adjective ("a faint click")."""
    return not (s.words[hit.start] == "faint" and s.ending(hit.start, "DET"))


def syncope(s: Sentence) -> bool:
    if any(_fainting_word(s, h) and not s.excluded(h.start) for h in s.of("FAINT", "BLACKOUT")):
        return True
    for h in s.of("COLLAPSE"):
        if not s.excluded(h.start) and not s.in_clause(h.start, "COLLAPSE_NOT"):
            return True
    for lose, conscious in s.pairs(("LOSE",), ("CONSCIOUS",), window=2):
        if not s.excluded(_first(lose, conscious)):
            return True
    for dark in s.of("DARK"):  # "everything went black", "השחיר לי בעיניים", "в глазах потемнело"
        around = [h for h in s.hits if abs(h.start - dark.start) <= 3 and s.clause[h.start] == s.clause[dark.start]]
        names = {h.concept for h in around}
        seen = "VISION" in names and ("GO" in names or not s.words[dark.start].isascii())
        if (seen or any(s.word(dark.start + k) == "לי" for k in (-1, 1))) and not s.excluded(dark.start):
            return True
    if any(not s.excluded(_first(d, f)) for d, f in s.pairs(("DIZZY", "SLUMP"), ("FALL", "FLOOR"), window=8,
                                                           across_commas=True)):
        return True  # "dizzy and fell", "my legs gave way and I was on the ground"
    if any(not s.excluded(_first(w, f)) for w, f in s.pairs(("WAKE",), ("FLOOR",), window=4)):
        return True  # "woke up on the bathroom floor"
    return any(s.words[h.start] in ("greyed", "grayed", "blanked", "whited") and not s.excluded(h.start)
               for h in s.of("SLUMP"))


def dyspnea_at_rest(s: Sentence) -> bool:
    symptoms = list(s.of("BREATH_SYM"))
    symptoms += [_span(b, d) for b, d in s.pairs(("BREATHE",), ("DIFFICULT",), window=2)]
    symptoms += [_span(a, b) for a, b in s.pairs(("AIR",), ("AIR_LACK",), window=2)]
    for h in symptoms:
        if s.excluded(h.start) or s.in_part(h.start, "NOSE"):
            continue
        if s.in_part(h.start, "REST", "ALWAYS") or not s.in_part(h.start, "INTENSE"):
            return True
    return any(not s.excluded(h.start) and s.in_part(h.start, "REST", "ALWAYS") for h in s.of("BREATH_MILD"))


def _span(a: Hit, b: Hit) -> Hit:
    return Hit("PAIR", min(a.start, b.start), max(a.end, b.end))


def palpitations(s: Sentence) -> bool:
    if _kept(s, s.of("PALP")):
        return True
    if any(not s.excluded(_first(h, o)) for h, o in s.pairs(("HEART", "PULSE"), ("HEART_ODD",), window=4)):
        return True  # "my ticker is skipping", "сердце останавливается", "הלב מפספס פעימות"
    for heart, race in s.pairs(("HEART", "PULSE"), ("RACE",), window=3):
        at = _first(heart, race)
        if s.excluded(at):
            continue
        if s.in_part(at, "REST", "NOREASON") or not s.in_part(at, "INTENSE"):
            return True
    for pulse in s.of("PULSE"):  # "resting heart rate of 140", "пульс 130 в покое"
        numbers = [int(w) for w in s.words if w.isdecimal() and len(w) <= 3]
        if numbers and max(numbers) >= PALPITATION_BPM and s.in_part(pulse.start, "REST"):
            return True
    return False


def bleeding(s: Sentence) -> bool:
    if any(not s.excluded(_first(b, p)) for b, p in s.pairs(("BLOOD",), ("SITE",), window=4)):
        return True
    if any(not s.excluded(_first(c, v)) for c, v in s.pairs(("COFFEE",), ("SITE",), window=4)):
        return True
    for black, stool in s.pairs(("BLACK",), ("STOOL",), window=5):
        if not s.excluded(_first(black, stool)) and not s.in_part(black.start, "IRON"):
            return True
    for red, urine in s.pairs(("RED",), ("URINE",), window=3):
        beets = [h for h in s.of("BEET") if s.part[h.start] == s.part[red.start]]
        if not s.excluded(_first(red, urine)) and not any(not s.negated(h.start) for h in beets):
            return True
    return False


def pregnancy(s: Sentence) -> bool:
    if _kept(s, s.of("PREG")):
        return True
    for test in s.of("PREG_TEST"):  # a pregnancy test: only a positive one says so
        if s.in_part(test.start, "POSITIVE") and not s.excluded(test.start):
            return True
    for h in s.of("PREG_POSITION"):  # "я в положении", not "в положении лёжа"
        if not s.follows(h, ("POSITION_NOT",), 1) and not s.excluded(h.start):
            return True
    return any(_month_of_pregnancy(s, h) for h in s.of("MONTH_WEEK"))


def _month_of_pregnancy(s: Sentence, h: Hit) -> bool:
    """"אני בחודש החמישי", "אני בשבוע 12", "я на четвёртом месяце": a month or week of the member's own, said with
    nothing after it (not "the third month of the program")."""
    last = max((i for i in range(len(s.words)) if s.clause[i] == s.clause[h.start]), default=h.start)
    if s.words[h.start] in ("בחודש", "בשבוע"):
        return s.word(h.start - 1) == "אני" and last <= h.end and not s.excluded(h.start)
    return s.word(h.start - 2) == "на" and last == h.start and not s.excluded(h.start)


def breastfeeding(s: Sentence) -> bool:
    found = list(s.of("BF"))
    found += [n for n in s.of("NURSING") if s.follows(n, ("BABY",), 3)]
    for h in found:
        stopped = any(h.start - 3 <= stop.start < h.start for stop in s.of("STOP"))
        if not stopped and not s.excluded(h.start):
            return True
    return False


OF = frozenset({"with", "in", "of", "my", "the", "с", "со", "в", "של", "ה"})  # "problems with my heart"


def _organ_condition(s: Sentence, organ: str) -> bool:
    """The organ named with an illness: "heart failure", "kidneys are failing", "מחלת לב", "болезнь почек",
    "problems with my heart"; not "a panic attack, and my heart ..."."""
    for place, cond in s.pairs((organ,), ("COND",), window=3):
        if place.start < cond.start:
            between = s.words[place.end:cond.start]
            ok = len(between) <= 2 and all(w in ("is", "are", "was", "were", "my", "the") for w in between)
        else:
            ok = all(w in OF for w in s.words[cond.end:place.start])
        if ok and not s.excluded(_first(place, cond)):
            return True
    return False


def heart_condition(s: Sentence) -> bool:
    if _kept(s, s.of("HEART_COND")) or _organ_condition(s, "HEART"):
        return True
    for bp in s.of("BP"):  # "my bp is through the roof", "давление 160 на 100"
        high = s.in_clause(bp.start, "HIGH") or any(w.isdecimal() and 140 <= int(w) <= 300 for w in s.words)
        if high and not s.in_clause(bp.start, "NORMAL") and not s.excluded(bp.start):
            return True
    return False


def kidney_disease(s: Sentence) -> bool:
    if _kept(s, s.of("KIDNEY_COND")) or _organ_condition(s, "KIDNEY"):
        return True
    told = [*s.of("KIDNEY_FN"), *(k for k, _ in s.pairs(("KIDNEY",), ("WORKING",), window=4))]
    for fn in told:  # "kidney function at 40 percent", "my kidneys are only working at 30%"
        low = s.in_part(fn.start, "LOW") or any(w.isdecimal() for w in s.words)
        if low and not s.in_part(fn.start, "NORMAL") and not s.excluded(fn.start):
            return True
    return False


def diabetes(s: Sentence) -> bool:
    return _kept(s, s.of("DIAB", "TYPE1"))


def amenorrhea(s: Sentence) -> bool:
    found = list(s.of("AMEN"))
    for period in s.of("PERIOD"):
        if s.in_part(period.start, "MENO"):
            return False
        found += [neg for neg in s.of("NEG") if _only(s, neg.end, period.start, "FILLER")]
        found += [lost for lost in s.of("LOST") if _only(s, lost.end, period.start, "FILLER")]
        found += [period for stop in s.of("STOPPED") if _only(s, period.end, stop.start, "GLUE")]
    return _kept(s, found)


def _only(s: Sentence, start: int, end: int, concept: str, most: int = 3) -> bool:
    """Words start..end (exclusive) are at most `most` words, each of `concept`, in one clause."""
    if not 0 <= end - start <= most or s.clause[max(start - 1, 0)] != s.clause[min(end, len(s.words) - 1)]:
        return False
    return all(any(h.concept == concept and h.start <= k < h.end for h in s.hits) for k in range(start, end))


def eating_disorder(s: Sentence) -> str | None:
    """`eating_disorder_active`, or `eating_disorder_history` for one told as past ("recovered ten years ago")."""
    found = list(s.of("ED", "ED_ACT"))
    found += [_span(v, p) for v, p in s.pairs(("VOMIT",), ("PURPOSE",), window=5)]
    found += [lax for lax in s.of("LAXATIVE") if s.in_part(lax.start, "WEIGHT")]
    found += [p for p in s.of("PURGE")  # "I purge after binges", not "I purged the junk food from my pantry"
              if s.in_part(p.start, "BINGE") or s.word(p.end) in ("after", "אחרי", "после")]
    found += s.of("CHEW_SPIT")
    kept = [h for h in found if not s.excluded(h.start)]
    if not kept:
        return None
    past = all(s.in_part(h.start, "ED_HISTORY") and not s.in_part(h.start, "STILL") for h in kept)
    return "eating_disorder_history" if past else "eating_disorder_active"


def insulin(s: Sentence) -> bool:
    """Insulin used: the drug with a use ("I inject insulin", "on insulin", "משאבת אינסולין"), a brand, or type 1
    diabetes (treated with insulin by definition)."""
    if _kept(s, s.of("BRAND", "TYPE1")):
        return True
    return any(not s.excluded(_first(i, u)) for i, u in s.pairs(("INSULIN",), ("INSULIN_USE",), window=3))


RULES: tuple[tuple[str, Callable[[Sentence], bool]], ...] = (
    ("chest_pain", chest_pain), ("syncope", syncope), ("dyspnea_at_rest", dyspnea_at_rest),
    ("palpitations", palpitations), ("bleeding", bleeding), ("pregnancy", pregnancy),
    ("breastfeeding", breastfeeding), ("heart_condition", heart_condition), ("kidney_disease", kidney_disease),
    ("diabetes", diabetes), ("amenorrhea", amenorrhea), ("insulin", insulin))


# The concepts some rule starts from: a sentence naming none of them names no red flag (most of a meal plan's text).
STARTS = frozenset({
    "ANGINA", "ARM_JAW", "CHEST", "HEART", "FAINT", "BLACKOUT", "COLLAPSE", "LOSE", "DARK", "DIZZY", "SLUMP", "WAKE",
    "BREATH_SYM", "BREATHE", "AIR", "BREATH_MILD", "PALP", "PULSE", "BLOOD", "COFFEE", "BLACK", "RED", "PREG",
    "PREG_TEST", "PREG_POSITION", "MONTH_WEEK", "BF", "NURSING", "HEART_COND", "KIDNEY", "KIDNEY_COND", "KIDNEY_FN",
    "BP", "DIAB", "TYPE1", "AMEN", "PERIOD", "ED", "ED_ACT", "VOMIT", "LAXATIVE", "PURGE", "CHEW_SPIT", "INSULIN",
    "BRAND"})


@lru_cache(maxsize=16_384)
def red_flags(text: str | None) -> frozenset[str]:
    """The red-flag codes a free text names (a question, a check-in's notes, an intake entry, an agent's string)."""
    found: set[str] = set()
    for s in sentences(text or ""):
        if not s.concepts & STARTS:
            continue
        found.update(code for code, rule in RULES if rule(s))
        if (disorder := eating_disorder(s)) is not None:
            found.add(disorder)
    if "eating_disorder_active" in found:
        found.discard("eating_disorder_history")
    return frozenset(found)


# What a `medical_history.conditions` entry names in one word: "heart murmur" or just "heart", "почки", "binge".
CONDITION_WORDS = {"HEART": "heart_condition", "KIDNEY": "kidney_disease", "COND_ED": "eating_disorder_active",
                   "COND_PREG": "pregnancy"}


def condition_flags(condition: str) -> set[str]:
    """The red flags of a condition the intake lists: its words, and an organ or a word that names a condition when
    listed as one."""
    found = set(red_flags(condition))
    for s in sentences(condition):
        found.update(code for concept, code in CONDITION_WORDS.items() if _kept(s, s.of(concept)))
    return found


def medication_flags(medication: str) -> set[str]:
    """The red flags of a medication the intake lists: its words, and insulin named at all (the drug or a brand)."""
    found = set(red_flags(medication))
    if any(_kept(s, s.of("INSULIN", "BRAND")) for s in sentences(medication)):
        found.add("insulin")
    return found
