"""A budget in work (``search:work=N``, issue 40 item 4): the continuations a decision buys
are the work over what one costs in this fight, learned from one continuation of each
candidate (decisions played plus a fork's worth, times the combatants standing), never
fewer than ``rollouts`` and never more than SPREAD times as many."""

from __future__ import annotations

import pytest

from wasteland.agents import search
from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.agents.search import FORK, SPREAD, SearchAgent, parse_budget
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.battle import ACTIVE
from wasteland.rules.rulesets import get_ruleset


def _decision(seed: int = 5):
    """The first decision of side 1 in a PnP ruined street with more than two legal
    actions."""
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("ruined_street"), seed)
    packet = make_agent("packet", 1)
    while True:
        v = view_of(rs, b)
        if b.combatants[v.decision.combatant].side == 1 and len(v.legal_ids) > 2:
            return v
        rs.apply(b, packet.act(v))


def _told(monkeypatch, name: str, played: int) -> tuple[list[int], int]:
    """The totals the search reported while deciding, every continuation playing
    ``played`` decisions (and a better value for each candidate after the first, so that
    none stops early); the continuations it played."""
    def fake(rs, b, first, side, seed, horizon, base, plan=None, slot=-1, outlook=None):
        if outlook is not None and outlook.tally is not None:
            outlook.tally[0] += played
        return 0.9 if first != 0 else 0.1

    monkeypatch.setattr(search, "continuation", fake)
    v = _decision()
    agent = SearchAgent(name, seed=2)
    totals: list[int] = []
    agent.on_progress = lambda done, total: totals.append(total)
    agent.act(v)
    return totals, agent.continuations


@pytest.mark.parametrize("played, work", [(30, 6_000), (30, 60_000), (10, 10_000_000),
                                          (30, 10)])
def test_the_work_buys_continuations_by_what_one_costs(monkeypatch, played: int,
                                                        work: int) -> None:
    v = _decision()
    standing = sum(c.status == ACTIVE for c in v.battle.combatants)
    rollouts = 8
    totals, spent = _told(monkeypatch, f"search:rollouts={rollouts},candidates=4,plans=0,"
                                       f"horizon=1,work={work}", played)
    want = max(rollouts, min(rollouts * SPREAD, work // ((played + FORK) * standing)))
    # the total it said while searching; at the end it says what it played
    assert totals[-2] == want and totals[-1] == spent
    assert rollouts <= spent <= want


def test_without_work_the_rollouts_are_the_budget(monkeypatch) -> None:
    totals, spent = _told(monkeypatch, "search:rollouts=8,candidates=4,plans=0,horizon=1", 30)
    assert set(totals) == {8} and spent <= 8


def test_work_is_a_budget_key_that_names_itself_again() -> None:
    b = parse_budget("search:work=48000,wide=1")
    assert (b.work, b.wide) == (48000, 1) and parse_budget(b.text()) == b
