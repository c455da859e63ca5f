"""A search budget's commas stay with it wherever an agent list is read (issue 39, item 7):
`--agents 'search:rollouts=2,candidates=2,packet'` was refused because the comma that
separates agents split the budget. Each command here makes the search agent with both
keys (recorded as it is made, in this process: the commands make each agent once before
any fight to check it)."""

from __future__ import annotations

import json
import sys

import pytest

from wasteland.agents import search
from wasteland.agents.external import check_saved_programs
from wasteland.rules.errors import WastelandError

BUDGET = "search:rollouts=2,candidates=2"


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[search.Budget]:
    """The budgets of the search agents made while the test runs."""
    out: list[search.Budget] = []
    real = search.SearchAgent.__init__

    def spy(self, name: str = "search", seed: int = 0) -> None:  # type: ignore[no-untyped-def]
        real(self, name, seed)
        out.append(self.budget)

    monkeypatch.setattr(search.SearchAgent, "__init__", spy)
    return out


def _cli(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    from wasteland.cli.main import main

    monkeypatch.setattr(sys, "argv", ["wasteland", *args])
    with pytest.raises(SystemExit) as e:
        main()
    out = capsys.readouterr()
    return int(e.value.code or 0), out.out, out.err


def _both_keys(made: list[search.Budget]) -> None:
    assert made and all((b.rollouts, b.candidates) == (2, 2) and b.given == {"rollouts",
                                                                            "candidates"}
                        for b in made)


def test_fight_agents_keep_a_budgets_commas(made, capsys, monkeypatch):
    code, out, err = _cli(capsys, monkeypatch, "fight", "--scenario", "duel", "--max-rounds",
                          "2", "--agents", f"{BUDGET},packet", "--json")
    assert code == 0, err
    _both_keys(made)
    assert json.loads(out)["decisions"][0]["reason"].startswith("search")  # side 0 searched


def test_simulate_agents_keep_a_budgets_commas(made, capsys, monkeypatch):
    code, out, err = _cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "1",
                          "--jobs", "1", "--agents", BUDGET, "--json")
    assert code == 0, err
    _both_keys(made)
    assert set(json.loads(out)["agents"].values()) == {BUDGET}  # one agent for every side


def test_evaluate_agents_keep_a_budgets_commas(made, capsys, monkeypatch, tmp_path):
    code, out, err = _cli(capsys, monkeypatch, "evaluate", "--agents", f"{BUDGET},packet",
                          "--scenarios", "duel", "--rulesets", "pnp", "-n", "1", "--jobs", "1",
                          "--no-cache", "--json")
    assert code == 0, err
    _both_keys(made)
    assert BUDGET in out and "candidates=2,packet" not in out


def test_a_resumed_program_named_again_is_found_whatever_commas_it_holds():
    """A save's cmd: side must be named again on the command line. play's --ai names one
    agent, so a program whose command holds a comma is named by the whole value (cut at
    its comma, the resume was refused); a list is cut as agents (the budget's keys are not
    taken for agents)."""
    prog = "cmd:prog --sides a,b"
    check_saved_programs([prog], prog, "s.json", "--ai", prog)
    check_saved_programs(["cmd:prog", BUDGET], f"{BUDGET},cmd:prog", "s.json", "--agents",
                         f"{BUDGET},cmd:prog")
    with pytest.raises(WastelandError, match="never starts a program by itself"):
        check_saved_programs(["cmd:prog"], BUDGET, "s.json", "--agents", "cmd:prog")
