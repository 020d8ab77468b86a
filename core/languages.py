"""The one language registry: `locales/languages.json`'s entries and the files every registered language needs.

A language is one entry in languages.json (code, own name, English name, direction, first day of the week) plus
one file of each kind in `FILES`, under `locales/`. `Registry.gaps` names every file a registered language lacks,
and every key of the default language's file its own lacks, so a language half added fails its test
(tests/core/test_language_files.py) instead of falling back to English at run time. The recipe for adding one is
docs/recipes/add-a-language.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class UnknownLanguage(LookupError):
    """A language code that is not in locales/languages.json: code asked for a language nobody registered."""


@dataclass(frozen=True)
class Language:
    code: str  # ISO 639-1, what `x-locale` and `accept-language` name
    name: str  # its own name ("עברית"), for the language picker
    english: str  # its English name ("Hebrew"), for prompts that tell a model which language to write
    dir: str  # ltr | rtl
    first_day: int  # ISO weekday the week starts on (7: Sunday)


@dataclass(frozen=True)
class LanguageFile:
    """One file every language has, `path` relative to locales/ with `{code}` for the language's code."""

    path: str
    holds: str

    def of(self, code: str) -> str:
        return self.path.format(code=code)


FILES: tuple[LanguageFile, ...] = (
    LanguageFile("{code}.json", "every string a person reads, the offline model's phrasings among them "
                                "(offline.*), the food names (console.nutrition.food.*)"),
    LanguageFile("exercises/{code}.json", "the exercise library's names, aliases and cues, and the equipment "
                                          "modifiers (gym.library_entry, gym.training.exercise_words)"),
    LanguageFile("stopwords/{code}.txt", "the words of a staff request that name nothing, left out of search "
                                         "(rag.stopwords)"),
    LanguageFile("foods/{code}.json", "each library food's name and the other words it is typed as "
                                      "(gym.nutrition.foods)"),
    LanguageFile("food_words/{code}.json", "the words of allergies, aversions and diets: each food concept's, each "
                                           "diet pattern's and the frame words that name no food "
                                           "(gym.nutrition.food_words)"),
)


def _leaves(node: Any, prefix: str = "") -> set[str]:
    """The dotted paths of a JSON tree's leaves (a list or a string is a leaf)."""
    if not isinstance(node, dict):
        return {prefix}
    return set().union(*(_leaves(value, f"{prefix}.{key}" if prefix else key) for key, value in node.items()))


@dataclass(frozen=True)
class Registry:
    root: Path  # the locales/ directory
    default: str
    languages: tuple[Language, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(lang.code for lang in self.languages)

    def language(self, code: str) -> Language:
        """The registered language `code`; UnknownLanguage (never a silent default) for any other."""
        for lang in self.languages:
            if lang.code == code:
                return lang
        raise UnknownLanguage(f"language {code!r} is not registered in {self.root.name}/languages.json "
                              f"(registered: {', '.join(self.codes)})")

    def gaps(self) -> list[str]:
        """What each registered language lacks: a file of `FILES` absent or empty, or keys of the default
        language's file missing from its own. Empty when every language is complete."""
        out: list[str] = []
        for file in FILES:
            reference = self._keys(file, self.default)
            for code in self.codes:
                path = self.root / file.of(code)
                if not path.is_file() or not path.read_text(encoding="utf-8").strip():
                    out.append(f"locales/{file.of(code)}: missing ({file.holds})")
                    continue
                missing = sorted(reference - self._keys(file, code))
                if missing:
                    shown = ", ".join(missing[:20]) + (f" and {len(missing) - 20} more" if len(missing) > 20 else "")
                    out.append(f"locales/{file.of(code)}: {len(missing)} keys of {file.of(self.default)} missing: "
                               f"{shown}")
        return out

    def _keys(self, file: LanguageFile, code: str) -> set[str]:
        path = self.root / file.of(code)
        if path.suffix != ".json" or not path.is_file():
            return set()
        return _leaves(json.loads(path.read_text(encoding="utf-8")))


def load(root: Path) -> Registry:
    """The registry written in `root`/languages.json."""
    raw = json.loads((root / "languages.json").read_text(encoding="utf-8"))
    languages = tuple(Language(lang["code"], lang["name"], lang["english"], lang["dir"], lang["firstDay"])
                      for lang in raw["languages"])
    return Registry(root, raw["default"], languages)
