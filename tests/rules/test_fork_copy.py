"""rules/fork.py's copy of a battle: the state copied with battle.json_copy (what
copy.deepcopy made, for the values a state holds), and dice of the fork's own."""

from __future__ import annotations

import copy
import random
from typing import Any

from wasteland.agents.base import view_of
from wasteland.agents.packets import PacketAgent
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.battle import json_copy
from wasteland.rules.fork import fork
from wasteland.rules.rulesets import get_ruleset


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rng.randrange(-5, 50)
    if kind == 1:
        return rng.random()
    if kind == 2:
        return rng.choice(["aim", "stunned", ""])
    if kind == 3:
        return None
    if kind == 4:
        return rng.random() < 0.5
    if kind == 5:
        return (rng.randrange(3), "x")
    if kind == 6:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice("abcdef"): _value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _containers(v: Any) -> list[Any]:
    if isinstance(v, dict):
        return [v, *(c for x in v.values() for c in _containers(x))]
    if isinstance(v, list):
        return [v, *(c for x in v for c in _containers(x))]
    return []


def test_json_copy_makes_what_deepcopy_makes_and_shares_no_list_or_dict() -> None:
    rng = random.Random(3)
    for _ in range(500):
        v = {"cond": _value(rng), "more": [_value(rng) for _ in range(3)]}
        got = json_copy(v)
        assert got == copy.deepcopy(v)
        mine = {id(c) for c in _containers(v)}
        assert not mine & {id(c) for c in _containers(got)}


def _battle(ruleset: str, decisions: int = 30):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("ruined_street"), 5, keep_log=False)
    agents = [PacketAgent(k) for k in range(len(b.combatants))]
    for _ in range(decisions):
        v = view_of(rs, b)
        rs.apply(b, agents[v.decision.combatant].act(v))
    return b


def test_a_fork_rolls_dice_seeded_by_its_seed_and_never_reads_the_battles() -> None:
    b = _battle("f2d20")
    before = b.rng.getstate()
    f = fork(b, 11)
    assert [f.rng.random() for _ in range(5)] == [
        r.random() for r in [random.Random(11)] for _ in range(5)]
    assert b.rng.getstate() == before
    assert {**f.state(), "rng": 0} == {**b.state(), "rng": 0}


def test_a_state_without_its_dice_restores_the_rest_and_keeps_the_dice_there() -> None:
    b = _battle("pnp")
    state = b.state(rng=False)
    assert "rng" not in state and list(b.state()) == [*list(state)[:-1], "rng", "combatants"]
    other = _battle("pnp", 3)
    dice = other.rng.getstate()
    other.restore(state)
    assert other.rng.getstate() == dice
    assert {**other.state(), "rng": 0} == {**b.state(), "rng": 0}


def test_a_fork_starts_with_its_battles_native_weapon_copies_in_a_list_of_its_own() -> None:
    b = _battle("f2d20")
    made = [(c, i) for c in b.combatants for i in range(len(c.weapons)) if c.arm(i)]
    f = fork(b, 2)
    for c, i in made:
        twin = f.combatants[c.slot]
        assert twin.arm(i) is c.arm(i) and twin.traits() is c.traits()
    assert all(f.combatants[c.slot].arms is not c.arms for c in b.combatants)
