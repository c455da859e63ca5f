"""A search budget's name is what a save records and its resume reads back (issue 39,
item 6): every budget the name accepts is named again exactly, so a resumed game plays
with the budget it was saved with. And where a continuation is cut for a given horizon
(item 8: a horizon one round too long survived every other test)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wasteland.agents import search
from wasteland.agents.base import kind_of, view_of
from wasteland.agents.make import make_agent
from wasteland.agents.packets import PacketAgent
from wasteland.agents.search import Budget, parse_budget
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.actions import ACTION_INDEX
from wasteland.rules.errors import WastelandError
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset

FLOATS = Budget.FLOATS


def _value(key: str) -> st.SearchStrategy[float]:
    lo, hi = Budget.LIMITS[key]
    if key in FLOATS:
        return st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    return st.integers(int(lo), int(hi))


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({}, optional={k: _value(k) for k in Budget.LIMITS}))
def test_every_accepted_budget_names_itself_so_that_it_reads_back_the_same(values):
    name = "search" + (":" + ",".join(f"{k}={v!r}" for k, v in values.items()) if values else "")
    budget = parse_budget(name)
    assert parse_budget(budget.text()) == budget


@pytest.mark.parametrize("name", [
    "search:seconds=0.5,candidates=3",  # was saved as search@0.5: candidates lost
    "search:z=0.123456789",  # was saved as z=0.123457
    "search@0.0123456789",
    "search:seconds=60,horizon=0,plans=2",
])
def test_a_saved_search_agent_is_made_again_with_its_own_budget(name):
    """What play, gm and fight record of an agent (kind_of) makes the same agent again."""
    agent = make_agent(name, 3)
    again = make_agent(kind_of(agent), 3)
    assert again.budget == agent.budget  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["search:seconds=0.0005", "search@0.0005",
                                  "search:seconds=0", "search:seconds=61"])
def test_a_time_budget_its_resume_would_refuse_is_refused_up_front(name):
    """``play --ai search:seconds=0.0005`` played, saved as search@0.0005, and its resume
    refused it: both forms now take the one range, 0.001 to 60 seconds."""
    with pytest.raises(WastelandError) as e:
        make_agent(name, 0)
    assert "0.001" in str(e.value) and "60" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("horizon", [1, 2])
def test_a_continuation_is_cut_when_its_horizon_of_rounds_has_begun(ruleset, horizon,
                                                                    monkeypatch):
    """docs/search.md: a continuation is played on for ``horizon`` rounds: from a decision
    in round r it is judged at the first decision of round r + horizon, not a round later
    (or earlier); horizon 0 plays to the end."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("vault_corridor"), 3)
    first = ACTION_INDEX[PacketAgent(1).act(view_of(rs, b))]
    judged: list[tuple[int, bool]] = []
    monkeypatch.setattr(search, "value",
                        lambda f, side: judged.append((f.round, f.over)) or 0.5)
    search.continuation(rs, b, first, 0, 7, horizon, PacketAgent)
    search.continuation(rs, b, first, 0, 7, 0, PacketAgent)
    assert judged[0] == (b.round + horizon, False)
    assert judged[1][1]  # to the end
