"""One exercise of the built-in library (gym/exercise_library.py): category, the equipment it needs, the muscles it
works (prime mover first), its tags from closed vocabularies (movement patterns, body regions, side), which
gym/library_tags.py gives it, and its aliases in every registered language (`aliases.<name>` in
`locales/exercises/<code>.json`).

Fields are written with "|" separators to keep one exercise per line in the data modules.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.i18n import in_every_language

PRIMARY_SHARE = 0.5  # the prime mover's share of the work; the other listed muscles split the rest evenly


@dataclass(frozen=True)
class LibraryExercise:
    name: str
    category: str
    equipment: tuple[str, ...]
    muscles: tuple[str, ...]  # library muscle names (gym.exercise_library.MUSCLES), the prime mover first
    aliases: tuple[str, ...]  # the other names it is written as, every registered language's in the registry's order
    patterns: tuple[str, ...] = ()  # gym.library_vocab.MOVEMENT_PATTERNS, in the vocabulary's order
    regions: tuple[str, ...] = ()  # gym.library_vocab.BODY_REGIONS it loads
    side: str = "bilateral"  # bilateral | unilateral (one side at a time)

    @property
    def all_aliases(self) -> list[str]:
        return list(self.aliases)

    @property
    def key(self) -> str:
        """Its id: the name in lower case with hyphens ("Farmer's Carry" → "farmers-carry")."""
        return "-".join("".join(c for c in self.name.lower() if c.isalnum() or c.isspace() or c == "-")
                        .replace("-", " ").split())

    @property
    def primary(self) -> str | None:
        return self.muscles[0] if self.muscles else None

    @property
    def secondary(self) -> tuple[str, ...]:
        return self.muscles[1:]

    @property
    def shares(self) -> tuple[tuple[str, float], ...]:
        """(library muscle, share of the work): the prime mover 0.5, the others the rest evenly; one muscle: all."""
        if not self.muscles:
            return ()
        if len(self.muscles) == 1:
            return ((self.muscles[0], 1.0),)
        rest = (1 - PRIMARY_SHARE) / len(self.secondary)
        return ((self.muscles[0], PRIMARY_SHARE), *((m, rest) for m in self.secondary))


def split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split("|") if part.strip())


def x(name: str, category: str, equipment: str, muscles: str) -> LibraryExercise:
    return LibraryExercise(name, category, split(equipment), split(muscles),
                           in_every_language("exercises", "aliases", name))
