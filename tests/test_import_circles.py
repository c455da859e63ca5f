"""No import circles where there were three (issue 23): simulate's modules, play and the
full-screen game, the agent protocol and the agents. Imports are read from the source
(every import statement, in functions and TYPE_CHECKING blocks too), so a lazy import
that closes a circle counts as much as one at the top."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import wasteland

PACKAGE = Path(wasteland.__file__).resolve().parent


@cache
def sources() -> dict[str, Path]:
    out = {}
    for p in sorted(PACKAGE.rglob("*.py")):
        parts = ["wasteland", *p.relative_to(PACKAGE).with_suffix("").parts]
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


@cache
def imports(name: str) -> frozenset[str]:
    """The wasteland modules ``name`` imports anywhere in its source."""
    path, known = sources()[name], sources()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) + 1 - node.level] \
                if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for a in node.names:  # `from . import protocol` imports a module
                sub = f"{module}.{a.name}"
                found.add(sub if sub in known else module)
    return frozenset(m for m in found if m in known and m != name)


def reached(name: str) -> set[str]:
    seen: set[str] = set()
    todo = [name]
    while todo:
        for m in imports(todo.pop()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


@pytest.mark.parametrize("name", [
    "wasteland.cli.simulate", "wasteland.cli.simulate_tables", "wasteland.sim.request",
    "wasteland.sim.modes", "wasteland.sim.simulate", "wasteland.sim.chain",
    "wasteland.sim.branch", "wasteland.cli.play", "wasteland.cli.game", "wasteland.cli.gm",
    "wasteland.tui.game", "wasteland.tui.app",
])
def test_no_module_imports_itself_round_a_circle(name):
    assert name in sources()
    assert name not in reached(name)


def test_play_and_the_full_screen_game_do_not_import_each_other():
    assert "wasteland.cli.play" not in reached("wasteland.tui.game")
    assert "wasteland.cli.play" not in reached("wasteland.tui.app")


AGENT_MODULES = ("wasteland.agents.random_agent", "wasteland.agents.scripted",
                 "wasteland.agents.policy", "wasteland.agents.external",
                 "wasteland.agents.packets", "wasteland.agents.search",
                 "wasteland.agents.levels")


def test_the_agent_protocol_imports_no_agent():
    """Each agent module imports agents/base.py for View and Agent, so base imports none
    of them; agents/make.py, above them, makes an agent from its name."""
    agents = {*AGENT_MODULES, *(m for m in sources() if m.startswith("wasteland.agents.packets."))}
    for m in AGENT_MODULES:
        assert "wasteland.agents.base" in reached(m)
    assert not reached("wasteland.agents.base") & {*agents, "wasteland.agents.make"}


def test_the_maker_imports_every_agent_where_the_graph_sees_it():
    """make_agent's kinds come from import statements (no module named in a string), and
    no agent module reaches back to the maker."""
    from wasteland.agents.make import KINDS, maker

    assert set(AGENT_MODULES) <= imports("wasteland.agents.make")
    agents = {*AGENT_MODULES, *(m for m in sources() if m.startswith("wasteland.agents.packets."))}
    assert not any("wasteland.agents.make" in reached(m) for m in agents)
    made = {maker(kind).__module__ for kind in KINDS}
    assert {m.rpartition(".")[0] if m.startswith("wasteland.agents.packets.") else m
            for m in made} == set(AGENT_MODULES)
    with pytest.raises(KeyError):
        maker("chess")


# The layers, lowest first (issue 43). A module may import its own layer and the layers
# below it, never one above; a module's layer is that of the longest prefix that names it.
# The engine's vocabulary (its errors, dice, maps, action ids, ruleset names) and the caps on input sit
# under the bestiary, whose schema and loader need them; the rest of the engine, which
# builds battles from bestiary data, sits above it. The observation encoder is under the
# agents, whose learned policy and value read observations, and the envs.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("wasteland", "wasteland._compiled", "wasteland.values", "wasteland.policies"),
    ("wasteland.rules.errors", "wasteland.rules.dice", "wasteland.rules.grid",
     "wasteland.rules.actions", "wasteland.rules.names", "wasteland.limits"),
    ("wasteland.bestiary",),
    ("wasteland.rules", "wasteland.rulesets"),
    ("wasteland.observe",),
    ("wasteland.agents",),
    ("wasteland.envs",),
    ("wasteland.training", "wasteland.sim", "wasteland.arena"),
    ("wasteland.cli",),
    ("wasteland.tui",),
    ("wasteland.cli.main",),  # the entry point: chooses the line game or the full screen
)


def layer(name: str) -> int:
    best = max((p for level in LAYERS for p in level
                if name == p or name.startswith(p + ".")), key=len, default=None)
    assert best is not None, f"{name} is in no layer: add it to LAYERS"
    return next(i for i, level in enumerate(LAYERS) if best in level)


def cycles() -> list[list[str]]:
    """The import graph's strongly connected components of more than one module
    (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sources():
        if root in index:
            continue
        work = [(root, iter(sorted(imports(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(imports(nxt)))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        component.append(m)
                        if m == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_import_graph_has_no_cycle():
    """Every import statement counts: top level, in a function, under TYPE_CHECKING. A
    lazy import only moves a circle from load time to the first call, and a TYPE_CHECKING
    one is still a module naming another's types, which the reader and mypy follow."""
    found = cycles()
    assert not found, "import cycles:\n" + "\n".join(
        f"  {len(c)} modules: {', '.join(c)}" for c in found)


def test_no_module_imports_a_higher_layer():
    found = {(m, t) for m in sources() for t in imports(m) if layer(t) > layer(m)}
    upward = [f"  {m} (layer {layer(m)}) -> {t} (layer {layer(t)})" for m, t in sorted(found)]
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def test_the_cycle_finder_sees_a_cycle_and_the_layers_order(monkeypatch):
    """The two tests above pass on the real graph; here a made-up graph shows they can fail."""
    graph = {"wasteland.rules.battle": {"wasteland.bestiary.models"},
             "wasteland.bestiary.models": {"wasteland.rules.dice", "wasteland.rules.battle"},
             "wasteland.rules.dice": set(), "wasteland.cli.game": {"wasteland.tui.app"},
             "wasteland.tui.app": {"wasteland.cli.game"}}
    monkeypatch.setattr(__import__(__name__), "sources", lambda: dict.fromkeys(graph))
    monkeypatch.setattr(__import__(__name__), "imports", lambda m: frozenset(graph[m]))
    assert sorted(cycles()) == [["wasteland.bestiary.models", "wasteland.rules.battle"],
                                ["wasteland.cli.game", "wasteland.tui.app"]]
    assert layer("wasteland.rules.dice") < layer("wasteland.bestiary.models") \
        < layer("wasteland.rules.battle") < layer("wasteland.observe.encoding") \
        < layer("wasteland.agents.policy") < layer("wasteland.envs.combat_v0") \
        < layer("wasteland.sim.fight") == layer("wasteland.arena.suite") \
        < layer("wasteland.cli.game") < layer("wasteland.tui.app") < layer("wasteland.cli.main")
