"""Other rules of seed 000 (Using Two Weapons, Pistol Whip, items), and a scenario file
fought end to end."""

from __future__ import annotations

import random

import pytest

from wasteland.bestiary.loader import load_scenario
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.events import AttackRolled, Healed
from wasteland.rules.pnp import PnP

from .kit import SCENARIOS, F, arena, attacks, damage, fixture_bestiary, mods, only


# --- two weapons -------------------------------------------------------------------------
def test_two_weapons_each_at_minus_8():
    """Seed 000_4e72993430dea166.txt, Using Two Weapons: both actions (one-handed) are
    performed, each at -8 on top of all other penalties."""
    a = arena([F("gunner", (0, 0), "ann", weapons=[("pistol", 1), "holdout"]),
               F("target", (3, 0), "bob", side=1, defense=5)])
    assert a.is_legal("attack2 bob")
    a.rig.d6(4, 4, 4).d6(1, 2)  # pistol: 12 + 2 + 1 - 8 = 7 vs 5
    a.rig.d6(3, 3, 3).d6(5)  # holdout: 9 + 2 - 8 = 3 vs 5: miss... see below
    ev = a.act("attack2 bob")
    rolls = attacks(ev)
    assert [r.weapon for r in rolls] == ["test pistol", "holdout pistol"]
    assert all(mods(r)["two weapons"] == -8 for r in rolls)
    assert [(r.total, r.shots) for r in rolls] == [(7, [True]), (3, [False])]
    assert [w.loaded for w in a.c("ann").weapon_states] == [5, 5]
    assert a.rig.left == 1  # the holdout missed, so its damage die was not rolled
    assert a.whose() == "bob"


def test_two_weapons_need_two_one_handed_weapons_and_two_arms():
    """Seed 000_4e72993430dea166.txt, Using Two Weapons: the actions must be possible
    one-handed, a weapon in each hand."""
    two_handed = arena([F("gunner", (0, 0), "ann", weapons=["smg", "holdout"]),
                        F("target", (3, 0), "bob", side=1)])
    assert not two_handed.is_legal("attack2 bob")
    single = arena([F("gunner", (0, 0), "ann", weapons=["pistol"]),
                    F("target", (3, 0), "bob", side=1)])
    assert not single.is_legal("attack2 bob")
    crippled = arena([F("gunner", (0, 0), "ann", weapons=["pistol", "holdout"]),
                      F("target", (3, 0), "bob", side=1)])
    crippled.c("ann").crippled["arm"] = 1
    assert not crippled.is_legal("attack2 bob") and crippled.is_legal("attack bob")


# --- pistol whip -------------------------------------------------------------------------
def test_pistol_whip_is_a_melee_attack_at_minus_1_for_1d4():
    """Seed 000_4e72993430dea166.txt, Pistol Whip: a ranged weapon swung as a club is a
    melee attack at -1; a one-handed weapon deals 1d4. Readings: Strength adds to hit as
    for any melee attack, the weapon's skill bonus does not, no Strength to damage, no
    ammunition is used."""
    a = arena([F("gunner", (0, 0), "ann", weapons=[("pistol", 3)]),
               F("target", (1, 0), "bob", side=1)])
    assert a.is_legal("whip bob")
    a.rig.d6(4, 4, 4).push(4, 3)  # 12 + 2 PER + 1 STR - 1 = 14 vs 15... miss
    atk = only(a.act("whip bob"), AttackRolled)
    assert mods(atk) == {"PER": 2, "STR": 1, "pistol whip": -1}
    assert atk.total == 14 and atk.shots == [False]
    b = arena([F("gunner", (0, 0), "ann", weapons=[("pistol", 3)]),
               F("target", (1, 0), "bob", side=1)])
    b.rig.d6(5, 4, 4).push(4, 3)
    ev = b.act("whip bob")
    (dmg,) = damage(ev)
    assert (dmg.dice, dmg.raw, dmg.dealt) == ("1d4", 3, 3)
    assert b.c("ann").wstate.loaded == 6


def test_pistol_whip_with_a_two_handed_weapon_deals_1d6():
    """Seed 000_4e72993430dea166.txt, Pistol Whip: 1d6 for two-handed weapons."""
    a = arena([F("gunner", (0, 0), "ann", weapons=["rifle"]),
               F("target", (1, 0), "bob", side=1)])
    a.rig.d6(5, 5, 5).push(6, 6)
    (dmg,) = damage(a.act("whip bob"))
    assert (dmg.dice, dmg.raw) == ("1d6", 6)


def test_pistol_whip_only_next_to_the_target_and_only_with_a_ranged_weapon():
    """Seed 000_4e72993430dea166.txt, Pistol Whip: swinging a ranged weapon as a club, so
    within one square (reading), and a melee weapon simply attacks."""
    far = arena([F("gunner", (0, 0), "ann"), F("target", (2, 0), "bob", side=1)])
    assert not far.is_legal("whip bob")
    knife = arena([F("brute", (0, 0), "ann"), F("target", (1, 0), "bob", side=1)])
    assert not knife.is_legal("whip bob")
    empty = arena([F("gunner", (0, 0), "ann"), F("target", (1, 0), "bob", side=1)])
    empty.c("ann").wstate.loaded = 0
    assert empty.is_legal("whip bob") and not empty.is_legal("attack bob")


# --- items -------------------------------------------------------------------------------
def test_stimpak_is_a_small_action_healing_its_dice():
    """Seed 000_4e72993430dea166.txt, Small Action: using a readied item such as a
    Stimpack. Reading: it heals the item's dice (2d8+2), not above max HP, on self or an
    adjacent ally."""
    a = arena([F("dweller", (0, 0), "ann"), F("target", (1, 0), "cal"),
               F("target", (9, 5), "bob", side=1)])
    assert not a.is_legal("stimpak self")  # unhurt
    a.c("ann").hp = 10
    a.c("cal").hp = 39
    assert a.is_legal("stimpak self") and a.is_legal("stimpak cal")
    a.rig.push(8, 3, 4)
    h = only(a.act("stimpak self"), Healed)
    assert (h.healed, h.hp) == (9, 19) and a.c("ann").items["stimpak"] == 1
    assert a.decider.slot == "large"
    a.rig.push(8, 8, 8)
    h = only(a.act("stimpak cal"), Healed)
    assert (h.healed, h.hp) == (1, 40)


# --- a scenario file ---------------------------------------------------------------------
def test_fixture_scenario_fights_to_an_end_with_only_legal_actions():
    """Seed 000_4e72993430dea166.txt, Combat: turn-based until hostilities end. A fixture
    scenario file loads, and random legal play ends without an illegal state."""
    bestiary = fixture_bestiary()
    scenario = load_scenario(SCENARIOS / "skirmish.yaml", bestiary)
    rs = PnP()
    for seed in range(5):
        b = rs.new_battle(scenario, seed, bestiary)
        pick = random.Random(seed)
        steps = 0
        while not b.over:
            ids = rs.legal_ids(b)
            assert ids, "a decider with no legal action"
            rs.apply(b, ACTION_TABLE[pick.choice(ids)])
            steps += 1
            for c in b.combatants:
                assert c.hp >= 0 and all(v >= 0 for v in c.ammo.values())
                assert all(0 <= w.loaded <= cw.capacity or cw.magazine == "none"
                           for w, cw in zip(c.weapon_states, c.weapons))
        assert b.round <= scenario.max_rounds and steps > 0


def test_stimpak_on_an_ally_needs_the_ally_next_to_you():
    """Seed 000_4e72993430dea166.txt, Small Action (using a readied item). Reading: a
    stimpak reaches oneself or an ally in a neighbouring square (diagonals count), not one
    two squares away."""
    a = arena([F("dweller", (0, 0), "ann"), F("target", (2, 0), "cal"),
               F("target", (1, 1), "dee"), F("target", (9, 5), "bob", side=1)])
    a.c("cal").hp = a.c("dee").hp = 30
    assert not a.is_legal("stimpak cal") and a.is_legal("stimpak dee")
    a.b.set_pos(a.c("cal"), a.b.grid.index(1, 0))
    assert a.is_legal("stimpak cal")


# --- the cover action --------------------------------------------------------------------
@pytest.mark.parametrize("speed,legal", [(2, False), (3, True)])
def test_cover_action_reaches_only_cover_within_speed(speed, legal):
    """Seed 000_4e72993430dea166.txt, Small Action (moving up to the character's speed)
    and Cover: `cover` moves to the nearest free cover square, so it is offered only when
    one lies within this turn's Speed (3 squares away here)."""
    a = arena([F("target", (0, 1), "ann", speed=speed), F("target", (9, 5), "bob", side=1)],
              rows="\n".join(["............", "...,........", "............",
                              "............", "............", "............"]))
    assert a.is_legal("cover") is legal
    if legal:
        a.act("cover")
        assert a.b.grid.xy(a.c("ann").pos) == (3, 1)
