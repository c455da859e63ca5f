"""The search agent reports its progress (issue 40, item 5): ``on_progress(done, total)``
after each continuation and once at the end, and the decision is the same with or
without a listener."""

from __future__ import annotations

import pytest

from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.agents.search import SearchAgent
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.rulesets import get_ruleset

BUDGET = "search:rollouts=12,candidates=3,horizon=1"


def _fight(ruleset: str, listen: bool, decisions: int = 12):
    """A duel of the search (side 1) and the packet (side 0): the search's choices and
    reasons, its random state at the end, and what each decision reported."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("duel"), 5)
    search = SearchAgent(BUDGET, seed=3)
    agents = [make_agent("packet", 1), search]
    calls: list[tuple[int, int]] = []
    reports: list[list[tuple[int, int]]] = []
    if listen:
        search.on_progress = lambda done, total: calls.append((done, total))
    seen = []
    while not b.over and len(seen) < decisions:
        v = view_of(rs, b)
        side = b.combatants[v.decision.combatant].side
        action = agents[side].act(v)
        if side == 1:
            seen.append((action, search.last_reason))
            reports.append(calls[:])
            calls.clear()
        rs.apply(b, action)
    return seen, search.rng.getstate(), reports


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_a_listener_changes_nothing(ruleset):
    quiet = _fight(ruleset, False)
    heard = _fight(ruleset, True)
    assert heard[:2] == quiet[:2]
    assert any("continuations" in why for _, why in quiet[0])  # it did search


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_progress_rises_and_ends_at_the_total(ruleset):
    seen, _, reports = _fight(ruleset, True)
    searched = [r for (_, why), r in zip(seen, reports) if "continuations" in why]
    assert searched
    for report in searched:
        dones = [d for d, _ in report]
        totals = {t for _, t in report}
        assert len(report) >= 2 and len(totals) == 1
        total = totals.pop()
        assert total > 0 and report[-1] == (total, total)
        assert dones == sorted(dones) and dones[0] >= 1 and dones[-1] == total
    # a decision that weighs nothing reports nothing
    for (_, why), report in zip(seen, reports):
        if "continuations" not in why:
            assert report == []


def test_a_time_budget_reports_no_total_until_it_ends():
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("duel"), 5)
    search = SearchAgent("search@0.05", seed=3)
    packet = make_agent("packet", 1)
    calls: list[tuple[int, int]] = []
    search.on_progress = lambda done, total: calls.append((done, total))
    for _ in range(30):
        v = view_of(rs, b)
        mine = b.combatants[v.decision.combatant].side == 1
        action = (search if mine else packet).act(v)
        if calls:
            break
        rs.apply(b, action)
    assert len(calls) >= 2
    *going, last = calls
    assert all(t == 0 for _, t in going)
    assert last == (going[-1][0], going[-1][0])


def test_an_exception_from_the_listener_ends_the_search():
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("duel"), 5)
    search = SearchAgent(BUDGET, seed=3)
    n = {"calls": 0}

    def stop(done: int, total: int) -> None:
        n["calls"] += 1
        raise KeyboardInterrupt

    search.on_progress = stop
    packet = make_agent("packet", 1)
    for _ in range(30):
        v = view_of(rs, b)
        if b.combatants[v.decision.combatant].side == 1:
            try:
                rs.apply(b, search.act(v))
            except KeyboardInterrupt:
                break
        else:
            rs.apply(b, packet.act(v))
    assert n["calls"] == 1
