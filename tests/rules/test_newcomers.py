"""A newcomer joins a fight under way (issue 4: the GM adds a newcomer mid-fight).
Reading (docs/rules): it acts after everyone already in the fight."""

from __future__ import annotations

import random

import pytest

from wasteland.bestiary.loader import BestiaryError, load_scenario
from wasteland.rules import saves
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.errors import WastelandError
from wasteland.rules.names import RULESETS
from wasteland.rules.newcomers import join
from wasteland.rules.rulesets import get_ruleset


@pytest.mark.parametrize("ruleset", RULESETS)
def test_newcomer_acts_last_and_survives_save_and_load(ruleset):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("vault_corridor"), 2)
    rng = random.Random(1)
    for _ in range(6):
        rs.apply(b, ACTION_TABLE[rng.choice(rs.legal_ids(b))])
    join(b, "raider", (10, 2), "Radscorpions")
    new = b.combatants[-1]
    assert new.id == "raider_0" and new.side == 1 and b.occupied[new.pos] == new.slot
    order = b.book.round_order() if ruleset == "f2d20" else b.order
    assert order[-1] == new.slot
    copy = saves.loads(saves.dumps(b))
    assert copy.state() == b.state() and copy.ids == b.ids
    r1, r2 = random.Random(3), random.Random(3)
    acted = False
    while not b.over:
        acted |= rs.decider(b).combatant == new.slot
        rs.apply(b, ACTION_TABLE[r1.choice(rs.legal_ids(b))])
        rs.apply(copy, ACTION_TABLE[r2.choice(rs.legal_ids(copy))])
    assert acted and b.state() == copy.state()


@pytest.mark.parametrize("args, fragment", [
    (("raider", (0, 0), 1), "square (0, 0) is a wall"),
    (("raider", (99, 2), 1), "is off the 20x6 map"),
    (("raider", (2, 3), 1), "is taken by ted"),
    (("raider", (10, 2), "Martians"), "unknown side 'Martians'; sides: 0 Vault, 1 Radscorpions"),
    (("deathclaw", (10, 2), 1), "unknown creature 'deathclaw'"),
])
def test_bad_newcomers_are_refused_in_one_line(args, fragment):
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("vault_corridor"), 2)
    with pytest.raises((WastelandError, BestiaryError)) as e:
        join(b, *args)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_the_action_table_limits_the_fight_to_ten():
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("vault_corridor"), 2)
    free = [(x, y) for y in range(1, 5) for x in range(5, 19)
            if b.grid.passable[b.grid.index(x, y)] and b.grid.index(x, y) not in b.occupied]
    while len(b.combatants) < 10:
        join(b, "raider", free.pop(), 1)
    with pytest.raises(WastelandError, match="already has 10 combatants"):
        join(b, "raider", free.pop(), 1)
