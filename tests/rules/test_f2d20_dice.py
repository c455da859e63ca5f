"""The 2d20 test, combat dice, extra d20s bought with AP and the AP pools (RULES.md,
Fallout 2d20 published fact; seed 003, Combat Dice; seed 002, Making an Attack)."""

from __future__ import annotations

import random

import pytest

from wasteland.rules.f2d20.dice import EXTRA_DICE_COST, MAX_POOL, combat_dice, count

from .kit2d20 import F, arena, roll_of


def _duel(**kw):
    """ann (hero: Small Guns TN 11, tag 3) and dum (dummy, Defense 1) in the same zone,
    two squares apart; ann opens the fight."""
    return arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1, **kw)])


# --- counting successes ------------------------------------------------------------------

def test_a_die_at_or_under_the_target_number_is_one_success():
    """RULES.md, Fallout 2d20 (published fact): each d20 at or under the target number is
    one success; above it, none."""
    assert count([11, 12], 11, 0) == (1, 0)
    assert count([4, 11], 11, 0) == (2, 0)
    assert count([12, 19], 11, 0) == (0, 0)


def test_a_die_at_or_under_the_tag_rank_is_two_successes():
    """RULES.md, Fallout 2d20 (published fact): a die at or under the skill's rank, when
    the skill is tagged, is two successes (TN 11, tag 3: 3 -> 2, 4 -> 1)."""
    assert count([3, 4], 11, 3) == (3, 0)
    assert count([3, 4], 11, 0) == (2, 0)  # untagged: one each


def test_a_one_is_two_successes_even_untagged():
    """RULES.md, Fallout 2d20 (published fact): any 1 is two successes."""
    assert count([1, 15], 11, 0) == (2, 0)
    assert count([1, 1], 8, 2) == (4, 0)


def test_a_twenty_is_a_complication():
    """RULES.md, Fallout 2d20 (published fact): each 20 is a complication (and no success)."""
    assert count([20, 5], 11, 0) == (1, 1)
    assert count([20, 20], 11, 0) == (0, 2)
    assert count([19, 5], 11, 0) == (1, 0)


def test_a_complication_range_of_19_to_20():
    """RULES.md, Fallout 2d20: a stated complication range counts from its lowest face
    (19-20 for the dying test, seed 002)."""
    assert count([19, 20], 11, 0, complication_from=19) == (0, 2)
    assert count([18, 19], 20, 0, complication_from=19) == (2, 1)


def test_the_engine_counts_an_attack_test_with_the_tag_rule():
    """RULES.md, Fallout 2d20: ann's Small Guns test (AGI 8 + 3 = TN 11, tagged, rank 3)
    rolls 2d20: 3 is two successes, 15 none; Defense 1 is the difficulty, so one success
    beyond it goes to the pool."""
    a = _duel()
    a.rig.d20(3, 15, 5)  # the test, then the hit location (torso)
    ev = a.act("attack dum")
    t = roll_of(ev)
    assert (t.faces, t.target, t.tag, t.difficulty) == ([3, 15], 11, 3, 1)
    assert (t.successes, t.complications, t.passed, t.ap_gained) == (2, 0, True, 1)
    assert a.pool(0) == 1


def test_the_test_fails_when_successes_fall_short_of_the_difficulty():
    """RULES.md, Fallout 2d20: the test succeeds when the successes reach the difficulty;
    one success against Defense 2 fails, no hit location is rolled and no AP is gained."""
    a = _duel(defense=2)
    a.rig.d20(10, 12)
    t = roll_of(a.act("attack dum"))
    assert (t.successes, t.difficulty, t.passed, t.ap_gained) == (1, 2, False, 0)
    assert a.pool(0) == 0 and a.whose() == "ann" and a.slot == "act"
    a.done()


def test_exactly_the_difficulty_passes_with_no_ap():
    """RULES.md, Fallout 2d20: successes equal to the difficulty pass; nothing is left over."""
    a = _duel(defense=2)
    a.rig.d20(10, 9, 5)
    t = roll_of(a.act("attack dum"))
    assert (t.successes, t.passed, t.ap_gained) == (2, True, 0)
    assert a.pool(0) == 0


# --- combat dice ----------------------------------------------------------------------------

@pytest.mark.parametrize("face, dmg, effect", [(1, 1, 0), (2, 2, 0), (3, 0, 0), (4, 0, 0),
                                                 (5, 1, 1), (6, 1, 1)])
def test_combat_die_faces(face, dmg, effect):
    """Seed 003_938882289c4f9016.txt, Combat Dice: 1 -> 1, 2 -> 2, 3-4 -> nothing, 5-6 ->
    1 damage and the weapon's effects trigger."""
    from .kit2d20 import Dice

    assert combat_dice(Dice().d6(face), 1) == ([face], dmg, effect)


def test_combat_dice_seed_example_laser():
    """Seed 003_938882289c4f9016.txt, Combat Dice example: 4 CD rolling 1, 1, 3, 5 inflict
    3 damage with one effect."""
    from .kit2d20 import Dice

    assert combat_dice(Dice().d6(1, 1, 3, 5), 4) == ([1, 1, 3, 5], 3, 1)


def test_combat_dice_are_uniform_d6():
    """Seed 003_938882289c4f9016.txt, Combat Dice: an ordinary d6 stands in for a combat
    die, so each face comes up about a sixth of the time."""
    faces, _, _ = combat_dice(random.Random(7), 6000)
    for f in range(1, 7):
        assert 850 < faces.count(f) < 1150


# --- extra d20s bought with AP ------------------------------------------------------------

def test_extra_d20s_up_to_five_bought_with_ap():
    """RULES.md, Fallout 2d20: up to 5d20 with dice bought with AP. Reading: the first
    extra die costs 1 AP, the second 2, the third 3 (1, 3, 6 in all), paid from the
    side's pool in a decision window before the roll."""
    assert EXTRA_DICE_COST == (0, 1, 3, 6)
    a = _duel()
    a.set_pool(0, 6)
    a.act("attack dum")
    assert a.whose() == "ann" and a.slot == "dice"
    assert a.legal() == {"buy 0", "buy 1", "buy 2", "buy 3"}
    a.rig.d20(12, 13, 14, 15, 11, 5)
    t = roll_of(a.act("buy 3"))
    assert len(t.faces) == 5 and t.bought == 3
    assert t.successes == 1 and t.passed
    assert a.pool(0) == 0


@pytest.mark.parametrize("pool, buys", [(1, {"buy 0", "buy 1"}), (2, {"buy 0", "buy 1"}),
                                        (3, {"buy 0", "buy 1", "buy 2"}),
                                        (5, {"buy 0", "buy 1", "buy 2"})])
def test_extra_d20s_cost_what_the_pool_can_pay(pool, buys):
    """RULES.md, Fallout 2d20: extra d20s are bought with AP; reading: 1, 3 or 6 AP for
    one, two or three, so only what the pool can pay is offered."""
    a = _duel()
    a.set_pool(0, pool)
    a.act("attack dum")
    assert a.legal() == buys


def test_buying_two_d20s_costs_three_ap():
    """Reading (docs/rules/f2d20.md): two extra d20s cost 1 + 2 = 3 AP."""
    a = _duel()
    a.set_pool(0, 4)
    a.act("attack dum")
    a.rig.d20(18, 17, 16, 5, 4)  # four dice, all fail but the 5 -> one success; torso
    t = roll_of(a.act("buy 2"))
    assert len(t.faces) == 4 and t.passed
    assert a.pool(0) == 1


def test_no_dice_window_with_an_empty_pool():
    """Reading: with no AP to spend there is no decision; the attack rolls 2d20 at once."""
    a = _duel()
    a.rig.d20(15, 16)
    t = roll_of(a.act("attack dum"))
    assert len(t.faces) == 2 and not t.passed


# --- AP and the pools ---------------------------------------------------------------------

def test_excess_successes_go_to_the_players_pool():
    """RULES.md, Fallout 2d20: each success beyond the difficulty is one AP for the pool
    (1 and 3 are two successes each: 4 against difficulty 1 -> 3 AP)."""
    a = _duel()
    a.rig.d20(1, 3, 5)
    t = roll_of(a.act("attack dum"))
    assert (t.successes, t.ap_gained) == (4, 3)
    assert a.pool(0) == 3


def test_the_pool_holds_at_most_six():
    """Reading: the AP pool holds at most 6 (the published game's limit); AP beyond it is
    lost."""
    assert MAX_POOL == 6
    a = _duel()
    a.set_pool(0, 5)
    a.act("attack dum")
    a.rig.d20(1, 3, 5)
    t = roll_of(a.act("buy 0"))
    assert t.ap_gained == 1 and a.pool(0) == 6


def test_the_pool_is_shared_by_the_side():
    """RULES.md, Fallout 2d20: the players' pool is shared: AP one character generates is
    spent by another on the same side."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (2, 4), "bea"),
               F("dummy", (4, 3), "dum", side=1)])
    a.rig.d20(1, 15, 5)  # ann: 2 successes vs 1 -> 1 AP
    a.act("attack dum")
    assert a.slot == "boost"
    a.rig.d6(3, 3, 3)
    a.act("boost 0")
    assert a.pool(0) == 1
    a.act("end")  # ann's opening turn ends; round 1: ann, bea, dum
    a.act("end")
    assert a.whose() == "bea"
    a.act("attack dum")
    assert a.slot == "dice" and a.legal() == {"buy 0", "buy 1"}
    a.rig.d20(15, 15, 15)
    a.act("buy 1")
    assert a.pool(0) == 0


def test_npc_successes_go_to_the_gm_pool():
    """RULES.md, Fallout 2d20: excess successes of NPCs go to the GM's pool (here the
    pool of the all-NPC side). A raider shoots with Body + Guns, 5 + 2 = 7; creatures have
    no tag skills, so only a 1 counts twice."""
    a = arena([F("hero", (2, 2), "ann", defense=1), F("raider", (4, 2), "rad", side=1)])
    a.act("end")  # ann's opening turn
    a.act("end")  # ann, round 1
    assert a.whose() == "rad"
    a.rig.d20(1, 2, 5)
    t = roll_of(a.act("attack ann"))
    assert (t.target, t.tag, t.successes, t.ap_gained) == (7, 0, 3, 2)
    assert a.pool(1) == 2 and a.pool(0) == 0


def test_starting_pools():
    """Reading: player sides start with an empty pool; a side without player characters
    (the GM's) starts with 1 AP per enemy player character."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (2, 4), "bea"),
               F("dummy", (9, 3), "dum", side=1)], pools=None)
    assert a.b.book.pools == [0, 2]
    a = arena([F("hero", (2, 2), "ann"), F("hero", (9, 4), "bea", side=1)], pools=None)
    assert a.b.book.pools == [0, 0]


def test_a_complication_gives_the_other_side_ap():
    """RULES.md, Fallout 2d20: each 20 is a complication; reading: each complication gives
    every opposing side 1 AP."""
    a = _duel()
    a.rig.d20(20, 5, 5)
    t = roll_of(a.act("attack dum"))
    assert (t.successes, t.complications, t.passed, t.ap_gained) == (1, 1, True, 0)
    assert a.pool(1) == 1 and a.pool(0) == 0
