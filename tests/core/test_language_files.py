"""A language is one registry entry plus its files (core.languages.FILES): a registered language lacking any file,
or any key of the default language's file, fails here with the files and keys it lacks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agent.trainer.prompt import trainer_system
from core.i18n import LOCALES_DIR, REGISTRY, language_name
from core.languages import FILES, UnknownLanguage, load


def test_every_registered_language_has_every_file_and_key() -> None:
    gaps = REGISTRY.gaps()
    assert not gaps, "registered languages lack files or keys:\n" + "\n".join(gaps)


def _with_spanish(tmp_path: Path) -> Path:
    """A copy of locales/ with Spanish registered and its files copied from English."""
    root = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, root)
    registry = json.loads((root / "languages.json").read_text(encoding="utf-8"))
    registry["languages"].append({"code": "es", "name": "Español", "english": "Spanish", "dir": "ltr", "firstDay": 1})
    (root / "languages.json").write_text(json.dumps(registry), encoding="utf-8")
    for file in FILES:
        shutil.copyfile(root / file.of("en"), root / file.of("es"))
    return root


def test_a_language_without_a_file_is_named_with_the_file(tmp_path: Path) -> None:
    root = _with_spanish(tmp_path)
    assert load(root).gaps() == []
    (root / "stopwords" / "es.txt").unlink()
    stopwords = next(file for file in FILES if file.path == "stopwords/{code}.txt")
    assert load(root).gaps() == [f"locales/stopwords/es.txt: missing ({stopwords.holds})"]


def test_a_language_missing_keys_is_named_with_the_keys(tmp_path: Path) -> None:
    root = _with_spanish(tmp_path)
    strings = json.loads((root / "es.json").read_text(encoding="utf-8"))
    del strings["offline"]["trainer"]["errors"]
    del strings["console"]["nutrition"]["food"]["chicken breast"]
    (root / "es.json").write_text(json.dumps(strings), encoding="utf-8")
    [gap] = load(root).gaps()
    assert gap.startswith("locales/es.json: ")
    assert "console.nutrition.food.chicken breast" in gap and "offline.trainer.errors." in gap
    exercises = json.loads((root / "exercises" / "es.json").read_text(encoding="utf-8"))
    del exercises["exercises"]["Back Squat"]["name"]
    (root / "exercises" / "es.json").write_text(json.dumps(exercises), encoding="utf-8")
    assert "locales/exercises/es.json: 1 keys of exercises/en.json missing: exercises.Back Squat.name" in \
        load(root).gaps()


def test_the_trainer_prompt_names_the_registered_language_and_refuses_another() -> None:
    for lang in REGISTRY.languages:
        assert trainer_system(lang.code, "")[1]["text"].endswith(f"Reply language: {lang.english}")
    assert language_name("he") == "Hebrew"
    with pytest.raises(UnknownLanguage, match="'es' is not registered"):
        trainer_system("es", "")
