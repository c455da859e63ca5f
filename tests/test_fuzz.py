"""200,000 random masked decisions per ruleset over every scenario and every creature,
checking the invariants after each one (issue 2, Done when: fuzzing)."""

from __future__ import annotations

import random

import pytest

from wasteland.bestiary.loader import (
    check_scenario,
    default_bestiary,
    load_scenario,
    scenario_names,
)
from wasteland.bestiary.models import Scenario
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, Action
from wasteland.rules.battle import ACTIVE, DEAD, Battle
from wasteland.rules.names import RULESETS
from wasteland.rules.protocol import Ruleset
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.zones import zones_for

TOTAL_STEPS = 200_000
ARENA = """
................
..,,....^^......
........^^..==..
..==............
.....~~.....,,..
.....~~..#......
..##.....#..::..
................
"""


def arenas() -> list[Scenario]:
    """One arena per creature, each against a rotating pair of other creatures."""
    ids = sorted(default_bestiary().creatures)
    out = []
    bestiary = default_bestiary()
    for i, cid in enumerate(ids):
        foes = [ids[(i + 1) % len(ids)], ids[(i + 5) % len(ids)]]
        out.append(Scenario.model_validate({
            "id": f"arena_{cid}", "name": "arena", "map": ARENA, "max_rounds": 15,
            "lighting": "obscured" if i % 3 == 0 else "clear",
            "legend": {".": "floor", "#": "wall", ",": "light_cover", "=": "heavy_cover",
                       "^": "high_ground", "~": "smoke", ":": "darkness"},
            "sides": [
                {"name": "A", "alert": i % 4 != 0,
                 "combatants": [{"creature": cid, "at": [1, 1]}, {"creature": cid, "at": [1, 6]}]},
                {"name": "B", "combatants": [{"creature": f, "at": [13 - 2 * k, 3 + 3 * k]}
                                             for k, f in enumerate(foes)]},
            ],
        }))
        check_scenario(out[-1], bestiary, "arena")
    return out


def check_invariants(rs: Ruleset, b: Battle, legal: list[int]) -> None:
    assert b.round <= b.max_rounds
    if not b.over:
        assert legal, "the deciding combatant has no legal action"
        assert b.combatants[rs.decider(b).combatant].status == ACTIVE
    econ = b.book.economy()  # 2d20: each side's AP pool
    if econ is not None:
        assert all(0 <= p <= 6 for p in econ.pools), econ.pools
    occupied = {}
    for c in b.combatants:
        if b.ruleset == "simple":
            check_simple_hp(c)
        else:
            assert 0 <= c.hp <= c.max_hp, (c.id, c.hp, c.max_hp)  # 2d20 radiation: max_hp
            assert (c.hp > 0) == (c.status == ACTIVE), (c.id, c.hp, c.status)
        assert all(v >= 0 for v in c.ammo.values()), c.ammo
        assert all(v >= 0 for v in c.items.values()), c.items
        assert c.ap >= 0
        for w, st in zip(c.weapons, c.weapon_states):
            assert 0 <= st.loaded <= max(w.capacity, 0), (c.id, w.id, st.loaded)
        if c.status == ACTIVE:
            assert b.grid.passable[c.pos]
            assert c.pos not in occupied, "two combatants share a square"
            occupied[c.pos] = c.slot
    assert occupied == b.occupied


def check_simple_hp(c) -> None:
    """Simple (seed 001, Death and Fatigue): HP runs below 0 while bleeding out, down to
    -(10 + END), where it dies; the passed out and knocked out are unconscious above 0."""
    end = c.creature.simple.endurance
    assert c.hp <= c.max_hp, (c.id, c.hp, c.max_hp)
    if c.status == ACTIVE:
        assert c.hp > 0, (c.id, c.hp)
    elif c.status == DEAD:
        assert c.hp <= -(10 + end), (c.id, c.hp)
    else:
        assert c.hp > -(10 + end), (c.id, c.hp)
        assert c.hp <= 0 or c.cond.get("passed_out") or c.cond.get("knocked_out"), c.cond


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_masked_play_keeps_invariants(ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    scenarios = [load_scenario(n) for n in scenario_names()] + arenas()
    rng = random.Random(20261129)
    steps = fights = 0
    while steps < TOTAL_STEPS:
        sc = scenarios[fights % len(scenarios)]
        b = rs.new_battle(sc, fights, keep_log=False)
        fights += 1
        while True:
            legal = rs.legal_ids(b)
            check_invariants(rs, b, legal)
            if b.over:
                break
            action = ACTION_TABLE[legal[int(rng.random() * len(legal))]]
            try:
                rs.apply(b, action, check=False)  # type: ignore[call-arg]
            except Exception as e:  # name the fight, so that it can be replayed
                raise AssertionError(f"{ruleset} {sc.id} seed {fights - 1}: {action} after "
                                     f"{b.history}") from e
            steps += 1
        assert b.over and (b.winner is not None or b.round == b.max_rounds
                           or not b.sides_standing())
    assert fights > len(scenarios)


def test_f2d20_move_legality_agrees_with_where_the_move_ends() -> None:
    """legal_ids decides moves from cached tables without asking ``_destination``; at the
    start of every turn over 300 random fights, a move or sprint toward / away from each
    standing combatant is offered exactly when ``_destination`` finds a square for it."""
    rs = get_ruleset("f2d20")
    scenarios = [load_scenario(n) for n in scenario_names()] + arenas()
    rng = random.Random(7)
    checked = 0
    for fight in range(300):
        b = rs.new_battle(scenarios[fight % len(scenarios)], fight, keep_log=False)
        while not b.over:
            legal = rs.legal_ids(b)
            x = b.book
            dec = rs.decider(b)
            c = b.combatants[dec.combatant]
            fresh = (dec.slot == "act" and x.window is None and not x.moved
                     and x.minor == 0 and x.major == 0 and not c.crippled.get("leg")
                     and not c.crippled.get("torso") and not c.cond.get("prone"))
            if fresh:
                z = zones_for(b.grid)
                for t in b.combatants:
                    if t is c or t.status != ACTIVE:
                        continue
                    modes = ("toward", "away") if t.side != c.side else ("toward",)
                    for mode in modes:
                        for kind, n in (("move", 1), ("sprint", 2)):
                            if kind == "sprint" and t.side == c.side:
                                continue
                            ends = rs._destination(b, z, c, t, mode, n) is not None
                            offered = ACTION_INDEX[Action(kind, t.slot, mode)] in legal
                            assert offered == ends, (fight, c.id, kind, mode, t.id)
                            checked += 1
            rs.apply(b, ACTION_TABLE[legal[int(rng.random() * len(legal))]], check=False)
    assert checked > 10_000
