"""What a recipe in docs/recipes/ says: the files it names (its "## Files" list) and its code blocks, so a test
does exactly what the recipe says and checks that it touched nothing else."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "recipes"
_FILE = re.compile(r"^- `([^`]+)`", re.MULTILINE)
_CODE = re.compile(r"```python\n(.*?)```", re.DOTALL)


def _section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def named_files(recipe: str, **names: str) -> set[str]:
    """The files the recipe's "## Files" list names, with its placeholders (`<router>`) filled in."""
    text = (DOCS / recipe).read_text(encoding="utf-8")
    files = set()
    for path in _FILE.findall(_section(text, "Files")):
        for key, value in names.items():
            path = path.replace(f"<{key}>", value)
        files.add(path)
    return files


def code(recipe: str) -> str:
    """The recipe's first Python block, dedented as written in the recipe."""
    block = _CODE.search((DOCS / recipe).read_text(encoding="utf-8"))
    assert block is not None, f"{recipe} has no python block"
    lines = block.group(1).splitlines()
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    return "\n".join(line[indent:] for line in lines) + "\n"


def touched(root: Path) -> set[str]:
    """Every file under `root`, as paths relative to it."""
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
