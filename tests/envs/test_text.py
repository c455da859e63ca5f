"""The text view (wasteland.observe.text, issue 14 item 3): the decision in English with the
ruleset's own odds, notation <-> env action ids, and a combat_v0 episode played through
text alone."""

from __future__ import annotations

import random

import pytest

from wasteland.bestiary.loader import load_scenario
from wasteland.envs import combat_v0
from wasteland.observe import text
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.errors import IllegalActionError, NotationError
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset


def battles(ruleset: str, scenario: str = "duel", n: int = 40, seed: int = 3):
    """The battle at each of ``n`` decisions of a random fight."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), seed)
    rng = random.Random(seed)
    for _ in range(n):
        if b.over:
            return
        yield rs, b
        rs.apply(b, ACTION_TABLE[rng.choice(rs.legal_ids(b))])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_notation_and_ids_round_trip_over_every_legal_action(ruleset):
    seen = 0
    for rs, b in battles(ruleset, "vault_corridor"):
        legal = rs.legal_ids(b)
        me = rs.decider(b).combatant
        table = text.legal_notation(b, legal, me)
        assert sorted(table.values()) == sorted(legal)
        for words, i in table.items():
            assert text.parse(b, words, legal, me) == i
            assert text.notation(b, i, me) == words
            seen += 1
    assert seen > 100


def test_parse_refuses_in_one_line_what_is_not_legal_or_not_notation():
    rs, b = next(battles("pnp"))
    legal, me = rs.legal_ids(b), rs.decider(b).combatant
    with pytest.raises(IllegalActionError, match=r"'reload' is not legal now; legal: end, "):
        text.parse(b, "reload", legal, me)
    with pytest.raises(NotationError, match="unknown action 'dance'"):
        text.parse(b, "dance", legal, me)


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_hit_chances_are_the_ruleset_s_odds_and_the_description_shows_them(ruleset):
    for rs, b in battles(ruleset):
        d = rs.decider(b)
        legal = rs.legal_ids(b)
        odds = text.hit_chances(b, rs, legal, d.combatant)
        if not odds:
            continue
        me = b.combatants[d.combatant]
        for words, p in odds.items():
            a = ACTION_TABLE[text.parse(b, words, legal, d.combatant)]
            want = rs.hit_chance(b, me, b.combatants[a.target], a.option)  # type: ignore[attr-defined]
            assert p == round(want, 4)
        desc = text.describe(b, rs)
        first, p = next(iter(odds.items()))
        assert f"{first} {round(100 * p)}%" in desc
        assert f"You are {me.id} " in desc and "Legal actions: " in desc
        return
    pytest.fail("no attack was ever legal")


def test_description_gives_distance_cover_and_hp_by_ruleset():
    for ruleset, unit in (("pnp", "7 squares away"), ("simple", "hexes away"),
                          ("f2d20", "range")):
        rs, b = next(battles(ruleset))
        desc = text.describe(b, rs)
        assert unit in desc, desc
        enemy = next(c for c in b.combatants if c.side != b.combatants[rs.decider(b).combatant].side)
        assert f"{enemy.id} ({enemy.creature.id}): HP {enemy.hp}/{enemy.max_hp}" in desc
        assert f"cover {text.cover(b, enemy)}" in desc


def test_state_measures_from_the_decider():
    rs, b = next(battles("pnp"))
    me = b.combatants[rs.decider(b).combatant]
    st = text.state(b, rs, rs.decider(b))
    assert st["you"] == me.id
    for c, row in zip(b.combatants, st["combatants"]):
        assert row["distance"] == b.grid.dist(me.pos, c.pos)
        assert row["ally"] == (c.side == me.side)
        assert (row["x"], row["y"]) == b.grid.xy(c.pos)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_env_episode_played_through_text_alone(ruleset):
    env = combat_v0.env(scenario="duel", ruleset=ruleset)
    env.reset(seed=5)
    rng = random.Random(5)
    steps = 0
    for _agent in env.agent_iter():
        _obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        prompt = text.observe(env)
        choices = text.legal_actions(env)
        assert all(words in prompt for words in choices)
        words = rng.choice(sorted(choices))
        i = text.action_id(env, words)
        assert text.action_text(env, i) == words and choices[words] == i
        env.step(i)
        steps += 1
    assert steps > 5
    assert text.observe(env).startswith("The battle is over")
