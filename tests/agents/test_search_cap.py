"""The search's safety cap on a turn (issue 40, item 4): a search still running when its
combatant's turn has taken ``cap`` seconds stops, plays the best it has, says so, and the
same decision is made again by stopping after as many continuations. The clock is the
agent's own and faked here: no test waits or times anything."""

from __future__ import annotations

import pytest

from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.agents.search import Budget, SearchAgent, parse_budget
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.rulesets import get_ruleset

BUDGET = "search:rollouts=200,candidates=6,plans=2,horizon=1,full=0"


class Clock:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 1000.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _view(ruleset: str = "pnp", seed: int = 4):
    """The first decision of the fight with more than one legal action and room for the
    search (more than one candidate)."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("ruined_street"), seed)
    packet = make_agent("packet", 1)
    while True:
        v = view_of(rs, b)
        if len(v.legal_ids) > 3:
            return rs, b, v
        rs.apply(b, packet.act(v))


def test_cap_is_a_budget_key_of_seconds_with_three_by_default() -> None:
    assert Budget().cap == 3.0
    b = parse_budget("search:cap=0.5")
    assert b.cap == 0.5 and parse_budget(b.text()) == b
    assert parse_budget("search:cap=0").cap == 0.0


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_a_search_past_its_cap_stops_says_so_and_is_made_again_by_its_count(ruleset):
    rs, b, v = _view(ruleset)
    agent = SearchAgent(BUDGET + ",cap=3", seed=7)
    agent.clock = Clock(0.05)  # 60 reads make the 3 s: a few dozen continuations
    action = agent.act(v)
    assert 0 < agent.cut < 200
    assert "cut by the 3 s cap on its turn" in agent.last_reason
    assert f"{agent.cut} continuations" in agent.last_reason
    again = SearchAgent(BUDGET + ",cap=3", seed=7)
    again.stop_after = agent.cut  # on the real clock: no cap cuts it on this machine
    assert again.act(v) == action and again.cut == agent.cut
    assert again.last_reason.replace(f"stopped after {agent.cut}", "") == \
        agent.last_reason.replace("cut by the 3 s cap on its turn", "")


def test_an_uncut_search_spends_its_whole_budget_and_says_nothing_of_the_cap() -> None:
    rs, b, v = _view()
    for cap in ("0", "600"):
        agent = SearchAgent(BUDGET + f",cap={cap}", seed=7)
        agent.clock = Clock(0.05)
        agent.act(v)
        assert agent.cut == 0 and "cap" not in agent.last_reason


def test_the_cap_counts_the_whole_turn_and_starts_again_on_the_next() -> None:
    rs, b, v = _view()
    agent = SearchAgent(BUDGET + ",cap=3", seed=7)
    clock = agent.clock = Clock(0.0)
    agent.act(v)
    assert agent.cut == 0
    # the turn has taken 2.9 s (another decision of it): the next search gets 0.1 s
    agent._turn_used = 2.9
    clock.step = 0.01
    agent.act(v)
    assert 0 < agent.cut <= 12
    # a decision of another turn has the whole cap again
    b.round += 1
    agent.act(view_of(rs, b))
    assert agent.cut == 0
