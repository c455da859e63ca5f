"""Helpers of the simulation tests: a spec of a built-in scenario, and the command run in
this process (a subprocess costs half a second of imports)."""

from __future__ import annotations

import sys

import pytest

from wasteland.bestiary.loader import load_scenario
from wasteland.sim.spec import SimSpec, side_agents


def spec(scenario: str = "ruined_street", ruleset: str = "pnp", agents: str | None = None,
         party: int = 0) -> SimSpec:
    sc = load_scenario(scenario)
    return SimSpec(ruleset, sc, side_agents(sc, agents.split(",") if agents else None), party)


def closet(us: str, them: str) -> str:
    """A scenario file's text: a corridor three squares long, ``us`` at one end and
    ``them`` at the other, no free square but the one between them."""
    return f"""\
id: closet
name: Closet
map: |
  #####
  #...#
  #####
legend: {{".": floor, "#": wall}}
sides:
  - name: Us
    combatants: [{{creature: {us}, at: [1, 1]}}]
  - name: Them
    combatants: [{{creature: {them}, at: [3, 1]}}]
"""


def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        *args: str) -> tuple[int, str, str]:
    """`wasteland ARGS` through main(): its exit code, stdout and stderr."""
    from wasteland.cli.main import main

    monkeypatch.setattr(sys, "argv", ["wasteland", *args])
    with pytest.raises(SystemExit) as e:
        main()
    out = capsys.readouterr()
    code = e.value.code
    return code if isinstance(code, int) else 0, out.out, out.err
