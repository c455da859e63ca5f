"""The levels' budgets (issue 40, item 4): ``deadly`` is a word of the budget, sized per
ruleset, and a name's own keys always win over the ruleset's and the level's."""

from __future__ import annotations

import pytest

from wasteland.agents.search import LEVEL_BUDGETS, RULESET_DEFAULTS, Budget, parse_budget
from wasteland.rules.errors import WastelandError
from wasteland.rules.protocol import RULESETS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_deadly_is_its_levels_budget_over_the_rulesets_defaults(ruleset):
    hard = parse_budget("search").under(ruleset)
    deadly = parse_budget("search:level=deadly").under(ruleset)
    want = {**RULESET_DEFAULTS.get(ruleset, {}), **LEVEL_BUDGETS["deadly"]["*"],
            **LEVEL_BUDGETS["deadly"].get(ruleset, {})}
    for key, value in want.items():
        assert getattr(deadly, key) == value, key
    # deadly weighs more than the default, in every ruleset
    assert deadly.rollouts > hard.rollouts and deadly.candidates > hard.candidates
    assert deadly.plans == 2


def test_a_key_the_name_gives_wins_over_the_level_and_the_ruleset():
    b = parse_budget("search:level=deadly,rollouts=7,horizon=3").under("f2d20")
    assert (b.rollouts, b.horizon, b.candidates) == (7, 3, 10)
    named = parse_budget("search:level=deadly,rollouts=7,horizon=3")
    assert parse_budget(named.text()) == named


def test_level_is_a_word_of_the_budget():
    assert Budget().level == "hard" and parse_budget("search:level=hard") == Budget(
        level="hard", given=frozenset({"level"}))
    assert parse_budget("search:level=deadly").text() == "search:level=deadly"
    with pytest.raises(WastelandError, match="level must be one of hard, deadly"):
        parse_budget("search:level=godlike")


def test_the_deadly_level_is_the_deadly_budget():
    from wasteland.agents.base import make_agent

    agent = make_agent("deadly", 1)
    assert agent.kind == "deadly"
    assert agent.budget == parse_budget("search:level=deadly")  # type: ignore[attr-defined]
