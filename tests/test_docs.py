"""docs/ says where things are: every repository path it names in backticks exists, and every link it makes lands.

The recipes' own tests (tests/recipes/) follow each recipe at runtime; this one keeps the map (docs/architecture.md)
and the recipes from naming a file or folder that has moved.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").rglob("*.md"))
TOP = {path.name for path in ROOT.iterdir() if not path.name.startswith(".")}
PATH = re.compile(r"`([A-Za-z_][\w./-]*(?:\.py|\.json|\.md|\.txt|/))`")
LINK = re.compile(r"\]\(([^)#:]+)(?:#[^)]*)?\)")


def _named(text: str) -> set[str]:
    """Backticked paths under a top-level entry of the repository (placeholders such as `<code>` are not paths),
    except on a line that says the recipe creates them ("a new file `pipeline/offline/hydration.py`")."""
    return {token for line in text.splitlines() if "new file" not in line
            for token in PATH.findall(line) if token.split("/")[0] in TOP and "/" in token.rstrip("/")
            or token.rstrip("/") in TOP}


def test_docs_exist_with_the_map_and_the_four_recipes() -> None:
    names = {path.relative_to(ROOT / "docs").as_posix() for path in DOCS}
    assert {"architecture.md", "recipes/add-a-tool.md", "recipes/add-a-persona.md", "recipes/add-a-language.md",
            "recipes/add-a-pipeline-agent.md"} <= names


def test_every_path_the_docs_name_exists() -> None:
    missing = {doc.relative_to(ROOT).as_posix(): sorted(token for token in _named(doc.read_text(encoding="utf-8"))
                                                        if not (ROOT / token).exists())
               for doc in DOCS}
    assert {doc: tokens for doc, tokens in missing.items() if tokens} == {}
    assert len(set().union(*(_named(doc.read_text(encoding="utf-8")) for doc in DOCS))) > 40, "the check sees paths"


def test_every_link_in_the_docs_lands() -> None:
    broken = [(doc.name, target) for doc in DOCS for target in LINK.findall(doc.read_text(encoding="utf-8"))
              if not (doc.parent / target).exists()]
    assert broken == []


def test_a_moved_file_is_caught() -> None:
    assert _named("see `agent/no_such_module.py` and `gym/training/`") == {"agent/no_such_module.py", "gym/training/"}
    assert not (ROOT / "agent/no_such_module.py").exists()
