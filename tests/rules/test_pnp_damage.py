"""Damage against thresholds and resistances, and what 0 HP does (seed 000: Damage,
Damage Type, Armor Piercing, Armor Vulnerable)."""

from __future__ import annotations

import pytest

from wasteland.rules.battle import DEAD, UNCONSCIOUS
from wasteland.rules.events import Downed

from .kit import F, arena, damage, only


def _hit(weapon, face, target=None, creature="target", sides=10):
    """ann hits bob with ``weapon`` (one die of ``sides``) rolling ``face`` for damage."""
    a = arena([F("gunner", (0, 0), "ann", weapons=[weapon]),
               F(creature, (3, 0), "bob", side=1, **(target or {}))])
    a.rig.d6(5, 5, 5).push(sides, face)  # 15 + 2 PER = 17: a hit, never a crit here
    (dmg,) = damage(a.act("attack bob"))
    return a, dmg


def test_pdt_is_subtracted_from_physical_damage():
    """Seed 000_4e72993430dea166.txt, Damage: subtract the target's PDT from physical
    damage. Reading: PDT is the stat block's natural PDT plus the worn armor's."""
    a, dmg = _hit("rifle", 7, {"pdt": 1, "armor": "leather"})
    assert (dmg.raw, dmg.resist_label, dmg.resist, dmg.dealt) == (7, "PDT", 3, 4)
    assert a.c("bob").hp == 36 and dmg.damage_type == "physical"


def test_edt_is_subtracted_from_energy_damage():
    """Seed 000_4e72993430dea166.txt, Damage: subtract EDT from energy damage (and not
    PDT)."""
    _, dmg = _hit("blaster", 7, {"pdt": 4, "edt": 2, "armor": "leather"})
    assert (dmg.resist_label, dmg.resist, dmg.dealt, dmg.damage_type) == ("EDT", 3, 4, "energy")


def test_a_hit_always_does_at_least_one_damage():
    """Seed 000_4e72993430dea166.txt, Damage: a hit always does at least one damage."""
    _, dmg = _hit("rifle", 2, {"armor": "combat_armor"})
    assert (dmg.raw, dmg.resist, dmg.dealt) == (2, 5, 1)


def test_the_log_says_when_the_least_damage_of_a_hit_applies():
    # issue 26: "2 - PDT 5 = 1" read as a wrong sum; the minimum is said
    _, dmg = _hit("rifle", 2, {"armor": "combat_armor"})
    assert "= 2 - PDT 5 = 1 physical damage (a hit deals at least 1) (HP" in dmg.text()
    _, dmg = _hit("rifle", 7, {"pdt": 1, "armor": "leather"})
    assert "= 4 physical damage (HP" in dmg.text()  # no minimum here, nothing said
    _, dmg = _hit("rifle", 6, {"armor": "combat_armor"})
    assert "= 1 physical damage (HP" in dmg.text()  # 6 - 5 is 1 without a minimum


def test_armor_piercing_lowers_the_threshold():
    """Seed 000_4e72993430dea166.txt, Damage and Armor Piercing: reduce PDT/EDT by the Armor
    Piercing value before damage (PDT 5, AP 3: 2)."""
    _, dmg = _hit("ap_rifle", 6, {"armor": "combat_armor"})
    assert (dmg.resist, dmg.dealt) == (2, 4) and "less 3 for armor piercing" in dmg.resist_label


def test_armor_piercing_never_makes_the_threshold_negative():
    """Seed 000_4e72993430dea166.txt, Armor Piercing: the threshold is reduced; reading: not
    below 0, so it never adds damage."""
    _, dmg = _hit("ap_rifle", 6, {"armor": "leather"})
    assert (dmg.resist, dmg.dealt) == (0, 6)


def test_armor_vulnerable_multiplies_the_threshold():
    """Seed 000_4e72993430dea166.txt, Armor Vulnerable: the target's DT is multiplied by the
    value (PDT 3 x2 = 6)."""
    _, dmg = _hit("pellet_gun", 8, {"pdt": 1, "armor": "leather"})
    assert (dmg.resist, dmg.dealt) == (6, 2) and "x2 for armor vulnerable" in dmg.resist_label


def test_armor_piercing_then_armor_vulnerable():
    """Seed 000_4e72993430dea166.txt, Armor Piercing / Armor Vulnerable. Reading (RULES.md):
    Piercing lowers first, then Vulnerable multiplies, rounded down: (5 - 2) x1.5 = 4."""
    _, dmg = _hit("ap_pellet", 10, {"armor": "combat_armor"})
    assert (dmg.resist, dmg.dealt) == (4, 6)


@pytest.mark.parametrize("weapon,res_field,res,face,dealt", [
    ("rad_gun", "rad_resistance", 50, 7, 4),
    ("rad_gun", "rad_resistance", 0, 7, 7),
    ("toxin_gun", "poison_resistance", 25, 8, 6),
    ("toxin_gun", "poison_resistance", 100, 8, 0),
])
def test_radiation_and_toxic_damage_meet_resistances(weapon, res_field, res, face, dealt):
    """Seed 000_4e72993430dea166.txt, Damage Type: radiation and toxic damage are resisted
    by Radiation and Poison Resistance. Reading: a resistance is the percentage of the
    damage removed (rounded down); 100% is immunity (no minimum of 1); armor DT does not
    apply."""
    _, dmg = _hit(weapon, face, {res_field: res, "armor": "combat_armor"})
    assert (dmg.resist, dmg.dealt) == (res, dealt)


def test_creature_dies_at_0_hp_and_leaves_the_map():
    """Seed 000_4e72993430dea166.txt is silent on 0 HP. Reading: creatures die."""
    a = arena([F("gunner", (0, 0), "ann", weapons=["rifle"]),
               F("target", (3, 0), "bob", side=1, hp=5), F("target", (5, 5), "cal", side=1)])
    a.rig.d6(5, 5, 5).push(10, 9)
    ev = a.act("attack bob")
    assert only(ev, Downed).status == DEAD
    bob = a.c("bob")
    assert bob.hp == 0 and bob.status == DEAD and bob.pos not in a.b.occupied


def test_player_character_falls_unconscious_at_0_hp():
    """Seed 000_4e72993430dea166.txt is silent on 0 HP. Reading: player characters (kind:
    character) fall unconscious and leave the fight."""
    a = arena([F("gunner", (0, 0), "ann", weapons=["rifle"]),
               F("dweller", (3, 0), "bob", side=1, hp=3), F("target", (5, 5), "cal", side=1)])
    a.rig.d6(5, 5, 5).push(10, 9)
    ev = a.act("attack bob")
    assert only(ev, Downed).status == UNCONSCIOUS
    assert a.c("bob").status == UNCONSCIOUS and a.c("bob").pos not in a.b.occupied


def test_battle_ends_when_one_side_stands():
    """Seed 000_4e72993430dea166.txt, Combat: combat ends when hostilities end; reading:
    the last side standing wins."""
    a = arena([F("gunner", (0, 0), "ann", weapons=["rifle"]),
               F("target", (3, 0), "bob", side=1, hp=5)])
    a.rig.d6(5, 5, 5).push(10, 9)
    ev = a.act("attack bob")
    assert a.b.over and a.rs.outcome(a.b) == 0 and a.rs.legal_ids(a.b) == []
    # issue 26: "side0 win" read wrong for a side named in the singular
    assert ev[-1].text() == "side0 won in round 1 (last side standing)."
