"""docs/recipes/add-a-language.md, followed at run time: Spanish is added to a copy of the tree by the recipe's
steps, the copied code (run from the copy) negotiates it, names it in the trainer's prompt, searches without its
stopwords, knows an exercise and a food by their names in it and reads an allergy written in it, the completeness check finds nothing missing and names a file taken away, and the files the
recipe lists are the only ones that changed."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from core.languages import FILES, load

REPO = Path(__file__).resolve().parents[2]
RECIPE = REPO / "docs" / "recipes" / "add-a-language.md"
PACKAGES = ("core", "gym", "rag", "tools", "agent", "locales")
SPANISH = {"code": "es", "name": "Español", "english": "Spanish", "dir": "ltr", "firstDay": 1}
PROBE = """
import json
from agent.trainer.prompt import trainer_system
from core.i18n import REGISTRY, resolve_locale, translate
from gym.nutrition.allergy_terms import understand_allergy
from gym.nutrition.foods import FOODS
from gym.training.movements import resolve
from rag.stopwords import terms
print(json.dumps({"gaps": REGISTRY.gaps(), "locale": resolve_locale(None, "es-MX,es;q=0.9,en;q=0.5"),
                  "prompt": trainer_system("es", "")[1]["text"], "error": translate("agent.errors.internal", "es"),
                  "terms": [t.text for t in terms("busca el press de banca")],
                  "food": FOODS["chicken breast"].names["es"], "aliases": FOODS["chicken breast"].aliases,
                  "allergy": understand_allergy("alergia al cacahuete").codes,
                  "exercises": [getattr(resolve(name), "name", None)
                                for name in ("sentadilla trasera", "Sentadilla con barra")]}))
"""


def recipe_files(code: str) -> set[str]:
    """The paths the recipe's "The files" section lists, for language `code`."""
    section = RECIPE.read_text(encoding="utf-8").split("## The files", 1)[1].split("\n## ", 1)[0]
    return {path.replace("<code>", code) for path in re.findall(r"^- `([^`]+)`", section, re.MULTILINE)}


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def follow_recipe(root: Path) -> None:
    """The recipe's steps 1-6 for Spanish, translating a few strings of each file (a tiny example)."""
    locales = root / "locales"
    registry = json.loads((locales / "languages.json").read_text(encoding="utf-8"))
    registry["languages"].append(SPANISH)
    (locales / "languages.json").write_text(json.dumps(registry, ensure_ascii=False, indent=2), encoding="utf-8")
    strings = json.loads((locales / "en.json").read_text(encoding="utf-8"))
    strings["agent"]["errors"]["internal"] = "Algo salió mal. Inténtalo de nuevo."
    (locales / "es.json").write_text(json.dumps(strings, ensure_ascii=False), encoding="utf-8")
    exercises = json.loads((locales / "exercises" / "en.json").read_text(encoding="utf-8"))
    exercises["exercises"]["Back Squat"]["name"] = "Sentadilla trasera"
    exercises["aliases"]["Back Squat"] = ["sentadilla con barra"]
    (locales / "exercises" / "es.json").write_text(json.dumps(exercises, ensure_ascii=False), encoding="utf-8")
    (locales / "stopwords" / "es.txt").write_text("el la los las de del un una y o busca buscar muestra\n",
                                                  encoding="utf-8")
    foods = json.loads((locales / "foods" / "en.json").read_text(encoding="utf-8"))
    foods["chicken breast"] = {"name": "pechuga de pollo", "aliases": ["pollo"]}
    (locales / "foods" / "es.json").write_text(json.dumps(foods, ensure_ascii=False), encoding="utf-8")
    words = json.loads((locales / "food_words" / "en.json").read_text(encoding="utf-8"))
    words["concepts"]["peanut"] = ["cacahuete", "maní"]
    words["frame"] = ["alergia", "alérgico", "a", "al", "los", "sin"]
    (locales / "food_words" / "es.json").write_text(json.dumps(words, ensure_ascii=False), encoding="utf-8")


def test_a_language_added_by_the_recipe(tmp_path: Path) -> None:
    for package in PACKAGES:
        shutil.copytree(REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    before = tree(tmp_path)

    follow_recipe(tmp_path)

    after = tree(tmp_path)
    touched = {path for path in after if before.get(path) != after[path]} | (set(before) - set(after))
    # The recipe's list is the registry's (core.languages.FILES), and what following it changed.
    assert touched == recipe_files("es") == {"locales/languages.json", *(f"locales/{f.of('es')}" for f in FILES)}

    # The copy's own code, imported from the copy (the working directory comes first on sys.path).
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}, check=False)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["gaps"] == []
    assert seen["locale"] == "es"
    assert seen["prompt"].endswith("Reply language: Spanish")
    assert seen["error"] == "Algo salió mal. Inténtalo de nuevo."
    assert seen["terms"] == ["press", "banca"]
    assert seen["food"] == "pechuga de pollo" and seen["aliases"][-1] == "pollo"
    assert seen["allergy"] == ["peanut"]
    assert seen["exercises"] == ["Back Squat", "Back Squat"]

    (tmp_path / "locales" / "exercises" / "es.json").unlink()
    assert [gap.split(":")[0] for gap in load(tmp_path / "locales").gaps()] == ["locales/exercises/es.json"]
