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
    """Each agent module imports agents/base.py for View and Agent, so base makes the
    agents from a table of names (base.MAKERS) imported on first use."""
    agents = {*AGENT_MODULES, *(m for m in sources() if m.startswith("wasteland.agents.packets."))}
    for m in AGENT_MODULES:
        assert "wasteland.agents.base" in reached(m)
    assert not imports("wasteland.agents.base") & agents


def test_the_table_names_every_agent():
    from wasteland.agents.base import MAKERS, maker

    assert {path.partition(":")[0] for path in MAKERS.values()} == set(AGENT_MODULES)
    for kind in MAKERS:
        assert isinstance(maker(kind), type)
