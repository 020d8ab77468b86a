"""The project's import graph, read from the source (every import, lazy and TYPE_CHECKING ones included):
no module cycle in any package, and imports point down api -> evals -> pipeline -> offline_model -> agent -> tools ->
rag -> gym -> core. The offline demo model implements agent/'s model interface from above it: agent/ never imports it,
only the composition root (agent.composition, which nothing in agent/ imports) does. Inside each layer its
subpackages are layered too.

The subpackage rule: a layer's own modules (`gym/*.py`) are one unit and each of its subpackages, with everything
under it (`gym/training/`, `gym/nutrition/` with `gym/nutrition/payloads/`), is another; imports between the units
of a layer point one way only, so the units form no cycle. A subpackage that builds on its parent's modules is
never imported by them, and of two siblings only one imports the other. A module that wires a layer's subpackages
together stands above them in a subpackage of its own (`api/app/`, the app factory over the controllers and the MCP
routes; `api/cli/` above it; `tools/catalog/`, the registry of every leaf under `tools/leaves/`), as
litestar-fullstack's `app/server/` and `app/cli/` stand above its `app/domain/`; an interface that a layer's own
modules and a subpackage both build on is a unit below them (`pipeline/agents/`, which `pipeline/offline/`
implements). A subpackage's own subpackages (`gym/nutrition/payloads/`) are its internals, as its modules are: no
module cycle anywhere is the first test's business.
"""

from __future__ import annotations

import ast
from functools import cache
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


@cache
def _packages_found() -> dict[str, Path]:
    """The project's packages (directories with an __init__.py), by name."""
    return {name: path for name, path in _modules().items() if path.name == "__init__.py"}


def unit_of(module: str) -> str:
    """The unit of a layer a module belongs to: the layer itself for its own modules, else its top subpackage
    (`gym.members` -> `gym`, `gym.nutrition.payloads.intake` -> `gym.nutrition`)."""
    parts = module.split(".")
    own = len(parts) == 1 or (len(parts) == 2 and _packages_found().get(module) is None)
    return parts[0] if own else ".".join(parts[:2])


def unit_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The import graph between the units of each layer (imports across layers are the layer test's business)."""
    units: dict[str, set[str]] = {}
    for source, targets in graph.items():
        edges = units.setdefault(unit_of(source), set())
        edges.update(unit_of(t) for t in targets if t.split(".")[0] == source.split(".")[0]
                     and unit_of(t) != unit_of(source))
    return units


def test_units_of_a_layer() -> None:
    assert [unit_of(m) for m in ("gym", "gym.members", "gym.training", "gym.training.models",
                                 "gym.nutrition.payloads.intake", "api.controllers.agent")] == [
        "gym", "gym", "gym.training", "gym.training", "gym.nutrition", "api.controllers"]
    graph = {"gym.a": {"gym.training.b"}, "gym.training.b": {"gym.c", "core.d"}, "gym.c": set(), "core.d": set()}
    assert unit_graph(graph) == {"gym": {"gym.training"}, "gym.training": {"gym"}, "core": set()}
    assert cycles(unit_graph(graph)) == [["gym", "gym.training"]]


def test_subpackages_import_one_way() -> None:
    """No cycle between the units of any layer (agent/ included: the engine imports no persona, and the offline demo
    model is a layer of its own)."""
    graph = import_graph()
    units = unit_graph(graph)
    assert {"gym.training", "gym.nutrition", "tools.leaves", "api.controllers", "agent.trainer"} <= set(units), "units seen"
    found = cycles(units)
    why = {" <-> ".join(cycle): sorted(f"{source} -> {target}" for source, targets in graph.items()
                                       for target in targets if unit_of(source) in cycle and unit_of(target) in cycle
                                       and unit_of(source) != unit_of(target))
           for cycle in found}
    assert why == {}, "subpackage cycles (the imports between their units)"
