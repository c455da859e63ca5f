"""The levels' budgets (issue 40, item 4): ``deadly`` is a word of the budget, sized per
ruleset, and a name's own keys always win over the ruleset's and the level's."""

from __future__ import annotations

import pytest

from wasteland.agents.search import LEVEL_BUDGETS, RULESET_DEFAULTS, Budget, parse_budget
from wasteland.rules.errors import WastelandError
from wasteland.rules.names import RULESETS


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
    # plans alone under PnP, where single actions after them lost the robots' tram
    # platform to `hard` (docs/search.md); plans, then single actions, elsewhere
    assert deadly.plans == (1 if ruleset == "pnp" else 2)
    # 2d20's deadly cuts its continuations at four rounds and judges them by the learned
    # value (hard plays them to the end); the others cut at two with the logistic value
    assert (deadly.horizon, deadly.value) == ((4, "learned") if ruleset == "f2d20"
                                              else (2, "logistic"))
    assert hard.horizon == (0 if ruleset == "f2d20" else 2) and hard.value == "logistic"


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
    from wasteland.agents.make import make_agent

    agent = make_agent("deadly", 1)
    assert agent.kind == "deadly"
    assert agent.budget == parse_budget("search:level=deadly")  # type: ignore[attr-defined]


def test_a_2d20_fight_at_deadlys_shape_saved_anywhere_resumes_exactly(tmp_path):
    """deadly's 2d20 budget at a small count (the shipped policies guiding, whole turns
    planned) in the desert wash: saved every other decision, each resumed fight ends as the
    whole did."""
    from wasteland.cli.fight import fight_on, new_fight, resumed_fight, save_fight

    keys = {**LEVEL_BUDGETS["deadly"]["*"], **LEVEL_BUDGETS["deadly"].get("f2d20", {})}
    keys["work"] = keys.get("work", 0) * 6 // keys["rollouts"]  # the same shape, smaller
    keys["rollouts"] = 6
    name = "search:" + ",".join(f"{k}={v}" for k, v in keys.items())
    agents = ["packet", name]
    whole, per_side = new_fight("f2d20", "desert_wash", 4, agents)
    fight_on(whole, per_side)
    path = tmp_path / "f.json"
    for cut in range(3, min(len(whole.history), 33), 2):
        b, per_side = new_fight("f2d20", "desert_wash", 4, agents)
        fight_on(b, per_side, stop_after=cut)
        save_fight(b, per_side, path)
        resumed, again = resumed_fight(path, {})
        fight_on(resumed, again)
        assert resumed.history == whole.history, cut


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_level_by_name_judges_its_cuts_as_its_budget_says(ruleset):
    """``deadly`` named as a level (not ``value=learned`` spelled out) judges 2d20 cuts by
    the learned value and says so: the value is the level's under the ruleset, not the
    name's own default. Seen failing when it read the name's budget alone."""
    from wasteland.agents.base import view_of
    from wasteland.agents.make import make_agent
    from wasteland.bestiary.loader import load_scenario
    from wasteland.rules.rulesets import get_ruleset

    rs = get_ruleset(ruleset)
    agent = make_agent("deadly", 3)
    learned = ruleset == "f2d20"
    assert (agent._judge(ruleset) is not None) == learned  # type: ignore[attr-defined]
    if not learned:
        return
    b = rs.new_battle(load_scenario("ruined_street"), 5, keep_log=False)
    b.quiet = True
    while len(rs.legal_ids(b)) < 2:  # a decision with a choice to weigh, 8 standing
        rs.apply(b, rs.legal_actions(b)[0])
    agent.act(view_of(rs, b))
    assert "learned value" in agent.last_reason  # type: ignore[attr-defined]


def test_the_levels_words_say_deadlys_2d20_cut_as_its_budget_has_it():
    """`wasteland agents` describes deadly from its budget: the 2d20 cut it names is the
    level's horizon (it said two rounds after the level had moved to four)."""
    from wasteland.agents.levels import MEANING

    b = parse_budget("search:level=deadly").under("f2d20")
    assert f"cut at {b.horizon} rounds" in MEANING["deadly"]
    assert f"{b.rollouts} or more on a 4v4 map" in MEANING["deadly"]
