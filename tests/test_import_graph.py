"""The project's import graph, read from the source (every import, lazy and TYPE_CHECKING ones included):
no module cycle in any package, and imports point down api -> evals -> pipeline -> offline_model -> agent -> tools ->
rag -> gym -> core. The offline demo model implements agent/'s model interface from above it: agent/ never imports it,
only the composition root (agent.composition, which nothing in agent/ imports) does."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("core", "gym", "rag", "tools", "agent", "offline_model", "pipeline", "evals", "api")  # lowest first
COMPOSITION_ROOT = "agent.composition"  # builds the model client the settings name: sits just above offline_model


def _modules() -> dict[str, Path]:
    found = {}
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The project module an import name lands in (`gym.members.Member` -> `gym.members`)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            else:
                continue
            for target in targets:
                owner = _owner(target, modules)
                if owner is not None and owner != name:
                    graph[name].add(owner)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"gym.a": {"gym.b"}, "gym.b": {"gym.c"}, "gym.c": {"gym.a"}, "gym.d": {"gym.a"}}
    assert cycles(graph) == [["gym.a", "gym.b", "gym.c"]]
    assert cycles({"gym.a": {"gym.b"}, "gym.b": set()}) == []


def test_no_import_cycle_in_any_package() -> None:
    graph = import_graph()
    assert "gym.members" in graph and graph["tools.runner"], "the walk must see the project's modules"
    assert cycles(graph) == []


def rank(module: str) -> float:
    """A module's place in LAYERS; the composition root ranks between offline_model and pipeline."""
    layers = {layer: i for i, layer in enumerate(LAYERS)}
    return layers["offline_model"] + 0.5 if module == COMPOSITION_ROOT else layers[module.split(".")[0]]


def test_imports_point_down_the_layers() -> None:
    upward = sorted(f"{source} -> {target}" for source, targets in import_graph().items() for target in targets
                    if rank(target) > rank(source))
    assert upward == []


def test_only_the_composition_root_imports_the_offline_model() -> None:
    """agent/ runs on the model interface; the offline demo model is wired in by the composition root alone."""
    graph = import_graph()
    assert any(t.startswith("offline_model") for t in graph[COMPOSITION_ROOT]), "the root must wire it in"
    reaching = sorted(source for source, targets in graph.items() if source.startswith("agent")
                      and source != COMPOSITION_ROOT and any(t.startswith("offline_model") for t in targets))
    assert reaching == []
    assert not any(source.startswith(("agent", "offline_model")) for source, targets in graph.items()
                   if COMPOSITION_ROOT in targets)


def test_date_arithmetic_does_not_import_the_orm() -> None:
    graph = import_graph()
    assert graph["gym.periods"] <= {"gym.errors", "core.errors"}
    source = (ROOT / "gym" / "periods.py").read_text()
    assert "sqlalchemy" not in source


def test_the_nutrition_tools_call_the_nutrition_domain_directly() -> None:
    """The nutrition domain lives in gym/nutrition/, below tools/: the nutrition__* tools call its service, with
    no port in core/ between them (issue 23)."""
    assert "gym.nutrition.service" in import_graph()["tools.leaves.nutrition"]
