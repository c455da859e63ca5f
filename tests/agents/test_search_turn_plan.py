"""The search plans a turn once (``turn=1``, issue 40 item 3): the plan that won the first
decision of a combatant's turn plays the rest of that turn without searching again, it
plans again when someone falls or rises or a decision comes outside that turn, and a save
keeps the plan so that a fight resumes exactly."""

from __future__ import annotations

import json

import pytest

import wasteland.agents.search as search
from wasteland.agents.base import view_of
from wasteland.agents.search import PLANS, SearchAgent, TurnPlan, _standing
from wasteland.cli.fight import fight_on, new_fight, resumed_fight, save_fight
from wasteland.rules import saves
from wasteland.rules.errors import SaveError, WastelandError
from wasteland.rules.rulesets import get_ruleset

TURN = "search:rollouts=8,candidates=3,turn=1"


def _decisions(ruleset: str, name: str, seed: int = 1) -> list[tuple[int, int, str, bool]]:
    """(round, slot, reason, searched) of each decision of side 1's search agent in a duel."""
    b, per_side = new_fight(ruleset, "duel", seed, ["packet", name])
    agent = per_side[1]
    assert isinstance(agent, SearchAgent)
    rs = get_ruleset(b.ruleset)
    calls = []
    real = search.continuation

    def counting(*args, **kw):
        calls.append(1)
        return real(*args, **kw)

    out = []
    search.continuation = counting
    try:
        while not b.over:
            v = view_of(rs, b)
            who = b.combatants[v.decision.combatant]
            before = len(calls)
            action = per_side[who.side].act(v)
            if who.side == 1:
                out.append((b.round, who.slot, agent.last_reason, len(calls) > before))
            rs.apply(b, action)
    finally:
        search.continuation = real
    return out


def test_the_rest_of_a_turn_follows_its_plan_without_searching() -> None:
    got = _decisions("f2d20", TURN)
    follows = [d for d in got if "follows its turn" in d[2]]
    assert follows, "no decision followed a turn plan"
    for rnd, slot, reason, searched in follows:
        assert not searched, reason
        # the turn's first decision, earlier in the same round and by the same combatant,
        # searched
        first = [d for d in got if d[:2] == (rnd, slot)][0]
        assert "follows its turn" not in first[2]
    # without turn=1 every decision of more than one candidate searches
    plain = _decisions("f2d20", "search:rollouts=8,candidates=3,turn=0")
    assert not any("follows its turn" in d[2] for d in plain)


def test_a_plan_is_dropped_when_someone_falls_or_the_turn_is_another() -> None:
    b, per_side = new_fight("f2d20", "duel", 3, ["packet", TURN])
    agent = per_side[1]
    rs = get_ruleset(b.ruleset)
    while b.combatants[view_of(rs, b).decision.combatant].side != 1:
        rs.apply(b, per_side[0].act(view_of(rs, b)))
    v = view_of(rs, b)
    me = v.me
    for plan, facts, rnd, kept in ((PLANS[0], _standing(b), b.round, True),
                                   (None, _standing(b), b.round, True),
                                   (PLANS[0], _standing(b) ^ 1, b.round, False),
                                   (PLANS[0], _standing(b), b.round + 1, False)):
        agent.turn_plan = TurnPlan(rnd, me.slot, plan, facts)
        assert (agent._follow(v, 5) is not None) == kept
        assert (agent.turn_plan is not None) == kept


@pytest.mark.parametrize("ruleset", ["f2d20", "pnp"])
def test_a_fight_saved_at_any_decision_resumes_exactly_with_its_turn_plan(tmp_path, ruleset):
    path = tmp_path / "f.json"
    agents = ["packet", TURN]
    whole, per_side = new_fight(ruleset, "duel", 1, agents)
    fight_on(whole, per_side)
    mid_turn = 0
    for cut in range(1, len(whole.history)):
        b, per_side = new_fight(ruleset, "duel", 1, agents)
        fight_on(b, per_side, stop_after=cut)
        mid_turn += per_side[1].turn_plan is not None
        save_fight(b, per_side, path)
        resumed, again = resumed_fight(path, {})
        assert again[1].turn_plan == per_side[1].turn_plan
        fight_on(resumed, again)
        assert resumed.history == whole.history, cut
    assert mid_turn, "no cut fell inside a planned turn"


def test_a_crafted_plan_in_a_save_is_one_line(tmp_path) -> None:
    path = tmp_path / "f.json"
    b, per_side = new_fight("f2d20", "duel", 2, ["packet", TURN])
    fight_on(b, per_side, stop_after=3)
    per_side[1].turn_plan = TurnPlan(b.round, 1, PLANS[2], _standing(b))
    save_fight(b, per_side, path)
    data = json.loads(path.read_text())
    rec = data["session"]["agents"][1]
    assert rec["memory"]["plan"] == PLANS[2].name
    for bad, fragment in (({"plan": "rm -rf"}, "plan"), ({"slot": 99}, "slot"),
                          ({"facts": -1}, "facts"), ({"extra": 1}, "extra")):
        rec["memory"] = {"round": 1, "slot": 1, "plan": "", "facts": 3, **bad}
        path.write_text(json.dumps(data))
        with pytest.raises(SaveError) as err:
            saves.load(path)
        assert fragment in str(err.value) and "\n" not in str(err.value)
    agent = SearchAgent(TURN)
    with pytest.raises(WastelandError, match="unknown plan"):
        agent.recall({"round": 1, "slot": 1, "plan": "fly away", "facts": 1})


def test_turn_is_a_budget_key_that_names_itself_again() -> None:
    agent = SearchAgent(TURN)
    assert agent.budget.turn == 1 and agent.kind == TURN
    assert SearchAgent("search").budget.turn == 0


def _fight(name: str, seed: int = 1) -> tuple[list[tuple[str, str, bool]], list[str], bytes]:
    """Side 1's (reason, its action in words, a turn plan made) at each decision of a 2d20
    fight in the desert wash (two against three: the continuations' dice matter), every
    action of the fight, and the battle's state at the end."""
    from wasteland.rules.words import plainly

    b, per_side = new_fight("f2d20", "desert_wash", seed, ["packet", name])
    agent = per_side[1]
    rs = get_ruleset(b.ruleset)
    mine, actions = [], []
    while not b.over:
        v = view_of(rs, b)
        who = b.combatants[v.decision.combatant]
        before = agent.turn_plan
        action = per_side[who.side].act(v)
        if who.side == 1:
            made = agent.turn_plan is not None and agent.turn_plan is not before
            mine.append((agent.last_reason, plainly(b, action, who.slot), made))
        actions.append(repr(action))
        rs.apply(b, action)
    return mine, actions, json.dumps(b.state(), sort_keys=True).encode()


def test_the_turn_it_plans_is_said_at_its_first_decision_and_changes_no_choice(monkeypatch):
    """Where a turn plan is made, the reason line ends with the turn it plans, starting
    with the action taken; nowhere else. Working it out (on a fork with its own dice)
    changes no choice: the same fight with the forecast left out plays the same."""
    mine, actions, end = _fight(TURN)
    said = [(r, words) for r, words, made in mine if made]
    assert said, "no turn plan made"
    tail = "; its turn as planned (one roll of the dice): "
    for reason, words in said:
        assert tail in reason
        assert reason.split(tail)[1].startswith(words)
    assert all(tail not in r for r, _, made in mine if not made)
    monkeypatch.setattr(SearchAgent, "_say_plan", lambda *a, **k: None)
    quiet, again, end_again = _fight(TURN)
    assert (again, end_again) == (actions, end)
    # the same searches too: each reason but the forecast's words, and where plans were made
    assert [(r.split(tail)[0], m) for r, _, m in mine] == [
        (r, m) for r, _, m in quiet]


def test_a_forecast_leaves_the_battle_and_its_dice_as_they_were() -> None:
    from wasteland.agents.packets import PacketAgent
    from wasteland.rules.actions import ACTION_INDEX

    b, per_side = new_fight("f2d20", "desert_wash", 4, ["packet", "packet"])
    rs = get_ruleset(b.ruleset)
    v = view_of(rs, b)
    before = json.dumps(b.state(), sort_keys=True)
    dice = b.rng.getstate()
    first = ACTION_INDEX[PacketAgent(1).act(v)]
    steps = search.forecast(rs, b, first, v.me.slot, PacketAgent(2), 9)
    assert steps and len(steps) <= search.FORECAST_LIMIT
    assert json.dumps(b.state(), sort_keys=True) == before and b.rng.getstate() == dice
