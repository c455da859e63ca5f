"""The attack roll and its modifiers (seed 000: Attacking, Attack Bonus, Rate of Fire,
Cover, Height Advantage, Visibility Penalty, Weapon Range)."""

from __future__ import annotations

import pytest

from wasteland.rules.events import AttackRolled

from .kit import F, arena, attacks, damage, mods, only, private_grid

WIDE = "\n".join(["." * 20] * 3)


def _shoot(faces, weapon="pistol", bonus=0, target_at=(5, 0), rows=None, lighting="clear",
           shooter_at=(0, 0), shooter="gunner", target=None, option="", **stats):
    a = arena([F(shooter, shooter_at, "ann", weapons=[(weapon, bonus)], **stats),
               F("target", target_at, "bob", side=1, **(target or {}))],
              rows=rows or "\n".join(["." * 20] * 6), lighting=lighting)
    a.rig.d6(*faces)
    return a


# --- the roll ----------------------------------------------------------------------------
def test_ranged_attack_is_3d6_plus_perception_plus_weapon_bonus_and_equal_hits():
    """Seed 000_4e72993430dea166.txt, Attacking / Attack Bonus: 3d6 plus the weapon's attack
    bonuses and Perception; a total equal to Defense hits."""
    a = _shoot((4, 4, 4), bonus=1)  # 12 + 2 PER + 1 = 15 vs Defense 15
    a.rig.d6(3, 4)
    ev = a.act("attack bob")
    atk = only(ev, AttackRolled)
    assert atk.faces == [4, 4, 4] and mods(atk) == {"PER": 2, "skill": 1}
    assert (atk.total, atk.defense, atk.shots, atk.crit) == (15, 15, [True], False)
    (dmg,) = damage(ev)
    assert (dmg.raw, dmg.dealt, a.c("bob").hp) == (7, 7, 33)


def test_attack_below_defense_misses():
    """Seed 000_4e72993430dea166.txt, Attacking: the total must equal or surpass Defense."""
    a = _shoot((4, 4, 3), bonus=1)  # 14 vs 15
    ev = a.act("attack bob")
    atk = only(ev, AttackRolled)
    assert (atk.total, atk.shots) == (14, [False])
    assert damage(ev) == [] and a.rig.left == 0


@pytest.mark.parametrize("weapon", ["knife", "claws"])
def test_strength_adds_to_melee_and_unarmed_attacks(weapon):
    """Seed 000_4e72993430dea166.txt, Attack Bonus: Strength adds to melee and brawling
    attacks, Perception to all attacks."""
    a = _shoot((4, 3, 3), weapon=weapon, bonus=1, target_at=(1, 0), shooter="brute")
    a.rig.push(6 if weapon == "claws" else 4, 2)
    ev = a.act("attack bob")  # 10 + 1 PER + 3 STR + 1 = 15 vs 15
    atk = only(ev, AttackRolled)
    assert mods(atk) == {"PER": 1, "STR": 3, "skill": 1}
    assert atk.total == 15 and atk.shots == [True]


def test_strength_does_not_add_to_ranged_attacks():
    """Seed 000_4e72993430dea166.txt, Attack Bonus: Strength is for melee and brawling."""
    a = _shoot((1, 1, 1), strength=5)
    atk = only(a.act("attack bob"), AttackRolled)
    assert "STR" not in mods(atk) and atk.total == 5


# --- rate of fire ------------------------------------------------------------------------
def test_rate_of_fire_seed_example_18_15_12():
    """Seed 000_4e72993430dea166.txt, Rate of Fire: RoF 3, one roll of 18 against Defense
    15 attacks at 18/15/12, so 2 hit and 1 misses."""
    a = _shoot((6, 5, 5), weapon="smg")  # 16 + 2 PER = 18
    a.rig.d6(2, 3)
    ev = a.act("attack bob")
    atk = only(ev, AttackRolled)
    assert (atk.total, atk.shots) == (18, [True, True, False])
    assert [d.raw for d in damage(ev)] == [2, 3]
    assert a.c("ann").wstate.loaded == 27  # three rounds fired
    assert "18 hit, 15 hit, 12 miss" in atk.text()


def test_rate_of_fire_every_shot_after_the_second_is_at_minus_6():
    """Seed 000_4e72993430dea166.txt, Rate of Fire: the 2nd shot at -3, all beyond it -6."""
    a = _shoot((6, 6, 5), weapon="lmg")  # 17 + 2 = 19 vs 15: 19/16/13/13/13
    a.rig.push(4, 1, 1)
    atk = only(a.act("attack bob"), AttackRolled)
    assert atk.shots == [True, True, False, False, False]
    b = _shoot((6, 6, 6), weapon="lmg", perception=3)  # 21: 21/18/15/15/15, all hit
    b.rig.push(4, 1, 1, 1, 1, 1, 1)  # the crit rolls its damage twice
    atk = only(b.act("attack bob"), AttackRolled)
    assert atk.shots == [True] * 5


def test_rate_of_fire_is_limited_by_the_rounds_loaded():
    """Seed 000_4e72993430dea166.txt, Magazine Types: a gun fires the rounds it holds;
    ammunition never goes negative."""
    a = _shoot((6, 5, 5), weapon="smg")
    a.c("ann").wstate.loaded = 2
    a.rig.d6(2, 3)
    atk = only(a.act("attack bob"), AttackRolled)
    assert atk.shots == [True, True] and a.c("ann").wstate.loaded == 0


# --- cover -------------------------------------------------------------------------------
@pytest.mark.parametrize("square,bonus,label", [(",", 2, "light cover"), ("=", 4, "heavy cover")])
def test_cover_raises_defense_against_ranged_attacks(square, bonus, label):
    """Seed 000_4e72993430dea166.txt, Cover: light cover +2 Defense, heavy cover +4."""
    a = _shoot((1, 1, 1), rows="....." + square + "....")
    atk = only(a.act("attack bob"), AttackRolled)
    assert atk.defense == 15 + bonus and atk.defense_mods == [(label, bonus)]


def test_cover_does_not_affect_melee_attacks():
    """Seed 000_4e72993430dea166.txt, Cover: light and heavy cover only affect ranged
    attacks."""
    a = _shoot((1, 1, 1), weapon="knife", shooter="brute", target_at=(1, 0), rows=".=...")
    atk = only(a.act("attack bob"), AttackRolled)
    assert atk.defense == 15 and atk.defense_mods == []


def test_full_cover_cannot_be_attacked_by_ranged_weapons():
    """Seed 000_4e72993430dea166.txt, Cover / Full Cover: cannot be attacked, and the one
    in it cannot return fire."""
    a = _shoot((), rows=".....O....")
    assert not a.is_legal("attack bob") and not a.is_legal("attack bob head")
    b = _shoot((), rows="O.........")  # ann stands in full cover: she cannot shoot out
    assert not b.is_legal("attack bob")


def test_lobbed_weapon_fires_over_full_cover_at_minus_5():
    """Seed 000_4e72993430dea166.txt, Lobbed: for -5 it can fire over full cover."""
    a = _shoot((6, 6, 5), weapon="grenade_launcher", rows=".....O....", perception=5)
    assert a.is_legal("attack bob")
    a.rig.push(10, 1, 1)
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk)["lobbed over full cover"] == -5
    assert atk.total == 17 + 5 - 5 and atk.shots == [True] and a.rig.left == 0


def test_full_cover_does_not_stop_melee():
    """Seed 000_4e72993430dea166.txt, Cover: cover only affects ranged attacks. Reading:
    full cover is a square property that stops fire; a melee attacker next to it reaches."""
    a = _shoot((), weapon="knife", shooter="brute", target_at=(1, 0), rows=".O...")
    assert a.is_legal("attack bob")


# --- height ------------------------------------------------------------------------------
def test_height_advantage_gives_plus_1_to_ranged_attacks():
    """Seed 000_4e72993430dea166.txt, Height Advantage: 5+ ft above the target, +1."""
    a = _shoot((1, 1, 1), rows="^.........")
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk)["height"] == 1


def test_attacks_against_the_high_ground_suffer_no_penalty():
    """Seed 000_4e72993430dea166.txt, Height Advantage: attacks against you while in a
    height advantage suffer no penalties."""
    a = _shoot((1, 1, 1), rows=".....^....")
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk) == {"PER": 2}


def test_less_than_5_ft_of_height_is_no_advantage():
    """Seed 000_4e72993430dea166.txt, Height Advantage: significant means 5+ ft."""
    a = _shoot((1, 1, 1))
    private_grid(a).heights[a.c("ann").pos] = 4
    atk = only(a.act("attack bob"), AttackRolled)
    assert "height" not in mods(atk)


@pytest.mark.parametrize("feet,bonus", [(5, 2), (10, 3), (15, 4)])
def test_drop_attack_plus_2_to_hit_and_damage_plus_1_per_5_more_feet(feet, bonus):
    """Seed 000_4e72993430dea166.txt, Height Advantage / Drop Attack: a melee attack from
    height gets +2 to hit instead of +1, and +2 damage, +1 per 5 more feet."""
    a = _shoot((4, 4, 4), weapon="knife", shooter="brute", target_at=(1, 0))
    private_grid(a).heights[a.c("ann").pos] = feet
    a.rig.push(4, 1)
    ev = a.act("attack bob")
    atk = only(ev, AttackRolled)
    assert mods(atk)["drop attack"] == 2 and "height" not in mods(atk)
    dmg = damage(ev)[0]
    assert dmg.bonus == [("drop", bonus)] and dmg.raw == 1 + bonus


# --- visibility --------------------------------------------------------------------------
@pytest.mark.parametrize("lighting,penalty", [
    ("clear", 0), ("obscured", -2), ("heavily_obscured", -4), ("unseen", -10)])
def test_visibility_penalty(lighting, penalty):
    """Seed 000_4e72993430dea166.txt, Visibility Penalty: clear 0, obscured -2, heavily
    obscured -4, cannot be seen -10."""
    a = _shoot((1, 1, 1), lighting=lighting)
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk).get("visibility", 0) == penalty and atk.total == 5 + penalty


@pytest.mark.parametrize("lighting,square,penalty", [
    ("clear", "~", -2), ("clear", "*", -4), ("obscured", "*", -4), ("heavily_obscured", "~", -4)])
def test_visibility_is_the_worse_of_the_light_and_the_targets_square(lighting, square, penalty):
    """Seed 000_4e72993430dea166.txt, Visibility Penalty. Reading: the worse of the
    scenario's lighting and the target square (smoke: obscured, darkness: heavily)."""
    a = _shoot((1, 1, 1), lighting=lighting, rows="....." + square + "....")
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk)["visibility"] == penalty


@pytest.mark.parametrize("lighting,square,penalty", [
    ("barely_visible", ".", -4), ("clear", "f", -4), ("unseen", "f", -10)])
def test_barely_visible_is_heavily_obscured(lighting, square, penalty):
    """Seed 000_4e72993430dea166.txt, Visibility Penalty. Reading: the map's barely visible
    (thick fog, Simple's heavily obscured step) is still seen, so heavily obscured (-4)."""
    a = _shoot((1, 1, 1), lighting=lighting, rows="....." + square + "....")
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk)["visibility"] == penalty and atk.total == 5 + penalty


# --- range -------------------------------------------------------------------------------
@pytest.mark.parametrize("squares,penalty", [(10, 0), (11, -1), (13, -3)])
def test_minus_1_per_5_ft_beyond_range(squares, penalty):
    """Seed 000_4e72993430dea166.txt, Weapon Range: -1 per 5 ft beyond the range (pistol
    range 50 ft = 10 squares of 5 ft)."""
    a = _shoot((1, 1, 1), target_at=(squares, 0), rows=WIDE)
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk).get("range", 0) == penalty


@pytest.mark.parametrize("squares,penalty", [(1, -2), (2, -1), (3, 0)])
def test_minus_1_per_5_ft_under_minimum_range(squares, penalty):
    """Seed 000_4e72993430dea166.txt, Weapon Range: -1 per 5 ft under the minimum range
    (missile launcher minimum 15 ft)."""
    a = _shoot((1, 1, 1), weapon="missile", target_at=(squares, 0), rows=WIDE)
    a.c("ann").wstate.loaded = 1
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk).get("range", 0) == penalty


def test_melee_weapon_cannot_attack_outside_its_range():
    """Seed 000_4e72993430dea166.txt, Weapon Range: most melee weapons reach one square,
    spears two; a melee weapon cannot attack outside its range."""
    knife = _shoot((), weapon="knife", shooter="brute", target_at=(2, 0))
    assert not knife.is_legal("attack bob")
    spear = _shoot((), weapon="spear", shooter="brute", target_at=(2, 0))
    assert spear.is_legal("attack bob")
    far = _shoot((), weapon="spear", shooter="brute", target_at=(3, 0))
    assert not far.is_legal("attack bob")


def test_reach_2_attack_has_no_range_penalty():
    """Seed 000_4e72993430dea166.txt, Weapon Range: a spear works at two squares."""
    a = _shoot((4, 4, 4), weapon="spear", shooter="brute", target_at=(2, 0))
    a.rig.push(8, 5)
    ev = a.act("attack bob")
    atk = only(ev, AttackRolled)
    assert "range" not in mods(atk) and atk.shots == [True]
    assert damage(ev)[0].raw == 5


def test_walls_block_attacks():
    """Seed 000_4e72993430dea166.txt, Attacking: a target must be attackable; reading: a
    straight line between square centres must not cross a wall."""
    a = _shoot((), rows="..#.......")
    assert not a.is_legal("attack bob")


def test_attack_events_read_as_sentences_with_the_dice():
    """DESIGN.md, Principles: every event renders with its dice (seed 000 numbers)."""
    a = _shoot((4, 4, 4), bonus=1)
    a.rig.d6(3, 4)
    ev = a.act("attack bob")
    assert attacks(ev)[0].text() == (
        "ann attacks bob with test pistol: 3d6 (4+4+4) +2 PER +1 skill = 15 vs Defense 15, hit")
    assert damage(ev)[0].text().startswith("  bob takes 2d6 (3+4) = 7 - PDT 0 = 7 physical")


def test_rate_of_fire_applies_to_light_melee_weapons():
    """Seed 000_4e72993430dea166.txt, Rate of Fire: light melee weapons swing several times
    on one attack roll, with the same -3 on the second."""
    a = _shoot((4, 4, 3), weapon="twin_blades", shooter="brute", target_at=(1, 0))
    a.rig.push(4, 2)  # 11 + 1 PER + 3 STR = 15 vs 15: 15 hit, 12 miss
    ev = a.act("attack bob")
    assert only(ev, AttackRolled).shots == [True, False]
    assert [d.raw for d in damage(ev)] == [2]


@pytest.mark.parametrize("at,penalty", [((10, 5), 0), ((11, 5), -1), ((5, 5), 0)])
def test_distance_is_chebyshev_squares_of_5_ft(at, penalty):
    """Seed 000_4e72993430dea166.txt, Weapon Range: penalties are per 5 ft. Reading: a
    square is 5 ft and a diagonal step counts as one square, so (10, 5) is 10 squares =
    50 ft away from (0, 0)."""
    a = _shoot((1, 1, 1), target_at=at)
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk).get("range", 0) == penalty
