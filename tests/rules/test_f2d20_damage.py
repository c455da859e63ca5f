"""Damage under Fallout 2d20: hit locations, combat dice, DR, damage effects, extra damage
from AP or ammunition, critical hits, injuries, dying and radiation (seed 002: Making an
Attack, Increasing Damage, Hit Locations, Critical Hits, Injuries, and Dying, Radiation
Damage; seed 003: Hit Locations, Combat Dice, Increasing Damage)."""

from __future__ import annotations

import pytest

from wasteland.rules.battle import ACTIVE, DEAD, UNCONSCIOUS
from wasteland.rules.events import BattleEnded, Downed, Event
from wasteland.rules.f2d20 import stats as S

from .kit2d20 import F, arena, hits, make_dying, notes, roll_of

AMMO = {"10mm": 9, "308": 9, "fusion_cell": 9, "5mm": 30, "shell": 9, "fuel": 9,
        "isotope": 9, "javelin": 3, "grenade": 3}


def _attack(a, target, cd, loc=None, test=(5, 6), boost=0, called=None):
    """The current attacker attacks ``target``: the test's d20s, the hit location's d20
    (unless ``called``), then the combat dice ``cd`` (and ``boost`` extra ones, in the
    boost window when one opens). Returns every event."""
    a.rig.d20(*test)
    if loc is not None:
        a.rig.d20(loc)
    a.rig.d6(*cd)
    ev = a.act(f"attack {target}" + (f" {called}" if called else ""))
    if a.slot == "dice":
        ev += a.act("buy 0")
    if a.slot == "boost":
        ev += a.act(f"boost {boost}")
    return ev


def _duel(weapon="pistol", target="dummy", at=(4, 2), **kw):
    return arena([F("hero", (2, 2), "ann", attacks=[weapon], ammo=dict(AMMO)),
                  F(target, at, "dum", side=1, **kw)])



# --- hit locations ------------------------------------------------------------------------

@pytest.mark.parametrize("face, where", [
    (1, "head"), (2, "head"), (3, "torso"), (8, "torso"), (9, "arms"), (11, "arms"),
    (12, "arms"), (14, "arms"), (15, "legs"), (17, "legs"), (18, "legs"), (20, "legs")])
def test_standard_hit_location_table(face, where):
    """Seed 002_265a8a3b5c20fde4.txt and seed 003_938882289c4f9016.txt, Hit Locations: d20
    1-2 head, 3-8 torso, 9-11 left arm, 12-14 right arm, 15-17 left leg, 18-20 right leg.
    Reading: left and right limbs are one location per kind ("arms", "legs")."""
    a = _duel()
    (h,) = hits(_attack(a, "dum", (1, 1, 1), loc=face))
    assert h.location == where


@pytest.mark.parametrize("face, where", [
    (1, "head"), (3, "head"), (4, "body"), (10, "body"), (11, "claws"), (14, "claws"),
    (15, "legs"), (18, "legs"), (19, "tail"), (20, "tail")])
def test_a_creatures_own_hit_location_table(face, where):
    """Seed 003_938882289c4f9016.txt, Creatures With Other Hit Locations: a creature's own
    table replaces the standard one (beast: head 1-3, body 4-10, claws 11-14, legs 15-18,
    tail 19-20)."""
    a = _duel(target="beast")
    (h,) = hits(_attack(a, "dum", (3, 3, 3), loc=face))
    assert h.location == where


# --- combat dice and DR -------------------------------------------------------------------

def test_damage_is_the_combat_dice_total():
    """Seed 002_265a8a3b5c20fde4.txt, Inflict Damage, and seed 003, Combat Dice: roll the
    weapon's CD (pistol: 3) and reduce HP by the total (1 + 2 + 5 -> 1 + 2 + 1 = 4)."""
    a = _duel()
    (h,) = hits(_attack(a, "dum", (1, 2, 5), loc=5))
    assert (h.faces, h.damage, h.effects, h.dr, h.dealt) == ([1, 2, 5], 4, 1, 0, 4)
    assert a.c("dum").hp == 26


@pytest.mark.parametrize("weapon, loc, cd, dr, dealt", [
    ("pistol", 5, (2, 2, 2), 3, 3),          # body, physical DR 3
    ("pistol", 2, (2, 2, 2), 2, 4),          # head, physical DR 2
    ("pistol", 19, (2, 2, 2), 1, 5),         # tail: the general DR, physical 1
    ("laser", 5, (2, 2, 1, 3), 2, 3),        # body, energy DR 2
    ("laser", 12, (2, 2, 1, 3), 0, 5),       # claws: the general DR, energy 0
    ("pistol", 5, (1, 1, 3), 3, 0),          # DR never makes damage negative
])
def test_dr_by_location_and_damage_type(weapon, loc, cd, dr, dealt):
    """Seed 002_265a8a3b5c20fde4.txt, Resistances: the target reduces the damage by its
    DR against the damage type on the location hit. Reading: a location without its own DR
    uses the creature's general DR."""
    a = _duel(weapon=weapon, target="beast", at=(8, 2) if weapon == "laser" else (4, 2))
    (h,) = hits(_attack(a, "dum", cd, loc=loc))
    assert (h.dr, h.dealt) == (dr, dealt)


def test_poison_dr():
    """Seed 002_265a8a3b5c20fde4.txt, Resistances: poison damage meets poison DR (body 1)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["stinger"]), F("beast", (3, 2), "dum", side=1)])
    (h,) = hits(_attack(a, "dum", (2, 2), loc=5, test=(5, 15)))
    assert (h.damage_type, h.dr, h.dealt) == ("poison", 1, 3)


def test_armor_adds_its_dr_on_every_location():
    """Seed 002_265a8a3b5c20fde4.txt, Resistances; reading: worn armor's DR adds to every
    location (vest: physical 1, energy 2)."""
    a = _duel(armor="vest")
    (h,) = hits(_attack(a, "dum", (2, 2, 2), loc=2))
    assert (h.dr, h.dealt) == (1, 5)
    assert S.dr(a.c("dum"), "legs", "energy") == 2


# --- damage effects -----------------------------------------------------------------------

def test_piercing_ignores_dr_per_effect():
    """Reading (the published game): Piercing X ignores X points of DR for each effect
    rolled (laser, Piercing 1, energy DR 2 on the beast's body)."""
    a = _duel(weapon="laser", target="beast", at=(8, 2))
    (h,) = hits(_attack(a, "dum", (5, 2, 2, 3), loc=5))
    assert (h.damage, h.effects, h.dr, h.dealt) == (5, 1, 1, 4)
    b = _duel(weapon="laser", target="beast", at=(8, 2))
    (h,) = hits(_attack(b, "dum", (5, 6, 2, 3), loc=5))
    assert (h.damage, h.effects, h.dr, h.dealt) == (4, 2, 0, 4)


def test_piercing_never_goes_below_zero_dr():
    """Reading: Piercing only removes DR that is there (Piercing 2 x 2 against DR 3)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["awl"]), F("beast", (3, 2), "dum", side=1)])
    (h,) = hits(_attack(a, "dum", (5, 5), loc=5, test=(5, 15)))
    assert (h.dr, h.dealt) == (0, 2)


def test_vicious_adds_one_damage_per_effect():
    """Reading (the published game): Vicious adds +1 damage for each effect rolled (ripper,
    3 CD: 5, 5, 1 -> 3 + 2)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["ripper"]), F("dummy", (3, 2), "dum", side=1)])
    (h,) = hits(_attack(a, "dum", (5, 5, 1), loc=5, test=(5, 15)))
    assert (h.damage, h.effects, h.bonus, h.dealt) == (5, 2, [("Vicious", 2)], 5)


def test_burst_hits_another_foe_in_the_zone_per_effect():
    """Reading (the published game): Burst hits one more enemy in the target's zone for
    each effect, each costing one more round; that hit rolls the weapon's damage in full
    at a random location."""
    a = arena([F("hero", (2, 2), "ann", attacks=["minigun"], ammo=dict(AMMO)),
               F("hero", (9, 4), "bea", initiative=5),
               F("dummy", (8, 2), "dum", side=1), F("dummy", (9, 2), "dee", side=1),
               F("dummy", (20, 2), "far", side=1)])
    a.rig.d20(5, 6, 5)            # the test, dum's torso
    a.rig.d6(5, 6, 1)             # 3 damage, 2 effects (only one other foe in the zone)
    a.rig.d20(1)                  # dee's hit location: head
    a.rig.d6(2, 2, 2)             # dee: 6
    a.act("attack dum")
    ev = a.act("boost 0")
    assert [(h.target, h.location, h.dealt) for h in hits(ev)] == [
        ("dum", "torso", 3), ("dee", "head", 6)]
    assert a.c("far").hp == 30 and a.c("bea").hp == 12
    assert a.c("ann").ammo["5mm"] == 28  # the shot and one burst round
    a.done()


def test_spread_adds_a_half_damage_hit_per_effect():
    """Reading (the published game): Spread: each effect is another hit on the target at a
    random location, for half the weapon's damage (rounded down); those hits do not spread
    again."""
    a = _duel(weapon="shotgun")
    a.rig.d20(5, 6, 5)         # the test, torso
    a.rig.d6(5, 1, 1, 3)       # 3 damage, 1 effect
    a.rig.d20(18)              # the extra hit: legs
    a.rig.d6(5, 2, 2, 2)       # 7 -> 3 (its own effect does not spread)
    a.act("attack dum")
    ev = a.act("boost 0")
    assert [(h.location, h.damage, h.dealt) for h in hits(ev)] == [("torso", 3, 3),
                                                                    ("legs", 3, 3)]
    assert a.c("dum").hp == 24
    a.done()


def test_stun_takes_the_next_major_action():
    """Reading: Stun: on an effect the target loses its next major action; it may still
    buy one with AP."""
    a = arena([F("hero", (2, 2), "ann", attacks=["baton"]), F("raider", (3, 2), "rad", side=1)])
    ev = _attack(a, "rad", (5, 1), loc=5, test=(5, 15))
    assert any("stunned" in n for n in notes(ev))
    a.act("end")
    a.act("end")
    assert a.whose() == "rad"
    legal = a.legal()
    assert not {"attack ann", "defend", "rally", "ready"} & legal
    assert "aim" in legal
    a.set_pool(1, 2)
    assert {"attack ann", "defend"} <= a.legal()
    a.set_pool(1, 0)
    a.act("end")
    a.act("end")
    assert a.whose() == "rad" and "attack ann" in a.legal()  # only the next major is lost


def test_persistent_damage_strikes_again_at_the_end_of_the_targets_next_turn():
    """Reading (the published game): Persistent: the weapon's damage again at the end of
    the target's next turn, at the same location; once."""
    a = _duel(weapon="flamer")
    ev = _attack(a, "dum", (5, 1, 1), loc=5)  # fire rate 0: no boost window
    assert a.c("dum").hp == 27
    a.act("end")  # opening turn; round 1: ann, dum
    a.act("end")
    assert a.whose() == "dum"
    a.rig.d6(1, 1, 1)
    ev = a.act("end")
    (h,) = hits(ev)
    assert (h.location, h.dealt) == ("torso", 3) and a.c("dum").hp == 24
    a.act("end")
    a.act("end")  # dum's next turn: no more persistent damage
    assert a.c("dum").hp == 24
    a.done()


def test_persistent_damage_landing_during_the_targets_turn_waits_for_its_next():
    """Reading: a Persistent hit that lands during the target's own turn (a readied attack
    as it moves) strikes at the end of its next turn, not this one."""
    a = arena([F("hero", (2, 2), "ann", attacks=["flamer"], ammo=dict(AMMO)),
               F("dummy", (14, 2), "dum", side=1)])
    a.act("end")
    a.act("ready")
    a.act("end")
    a.act("move toward ann")
    assert a.slot == "free"
    a.rig.d20(5, 6, 5)
    a.rig.d6(5, 1, 1)
    a.act("attack dum")
    assert a.c("dum").hp == 27 and a.whose() == "dum"
    a.act("end")  # dum's own turn ends: nothing yet
    assert a.c("dum").hp == 27
    a.act("end")  # ann, round 2
    a.rig.d6(2, 2, 2)
    a.act("end")
    assert a.c("dum").hp == 21
    a.done()


def test_breaking_lowers_the_locations_dr_per_effect():
    """Reading: Breaking lowers the DR of the location hit by 1 per effect (from the next
    hit on)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["sledge"]), F("beast", (3, 2), "dum", side=1)])
    (h,) = hits(_attack(a, "dum", (5, 2, 2, 1), loc=5, test=(5, 15)))
    assert (h.dr, h.dealt) == (3, 3)
    assert S.dr(a.c("dum"), "body", "physical") == 2
    assert S.dr(a.c("dum"), "head", "physical") == 2


def test_radioactive_deals_one_radiation_per_effect_after_the_rest():
    """Reading: Radioactive: 1 radiation damage per effect, reduced by radiation DR; seed
    002, Radiation Damage: it lowers maximum HP and is resolved after the other damage."""
    a = _duel(weapon="rad_gun", at=(8, 2))
    ev = _attack(a, "dum", (5, 6), loc=5)
    assert [(h.damage_type, h.dealt) for h in hits(ev)] == [("physical", 2), ("radiation", 2)]
    dum = a.c("dum")
    assert (dum.hp, dum.max_hp) == (28, 28)
    b = _duel(weapon="rad_gun", target="beast", at=(8, 2))
    ev = _attack(b, "dum", (5, 6), loc=5)  # body: radiation DR 4
    assert [h.damage_type for h in hits(ev)] == ["physical"]
    assert b.c("dum").max_hp == 20


# --- radiation ----------------------------------------------------------------------------

def test_radiation_damage_lowers_maximum_hp():
    """Seed 002_265a8a3b5c20fde4.txt, Radiation Damage: each point (after radiation DR)
    lowers maximum HP rather than HP; HP above the new maximum fall to it."""
    a = arena([F("hero", (2, 2), "ann", attacks=["glow"]), F("dummy", (3, 2), "dum", side=1)])
    a.c("dum").hp = 20
    (h,) = hits(_attack(a, "dum", (2, 2), loc=5, test=(5, 15)))
    assert (h.damage_type, h.dealt) == ("radiation", 4)
    assert (a.c("dum").hp, a.c("dum").max_hp) == (20, 26)
    b = arena([F("hero", (2, 2), "ann", attacks=["glow"]), F("dummy", (3, 2), "dum", side=1)])
    _attack(b, "dum", (2, 2), loc=5, test=(5, 15))
    assert (b.c("dum").hp, b.c("dum").max_hp) == (26, 26)


def test_radiation_dr_by_location():
    """Seed 002_265a8a3b5c20fde4.txt, Radiation Damage: only radiation DR of the location
    hit reduces it (the beast's body: 4)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["glow"]), F("beast", (3, 2), "dum", side=1)])
    (h,) = hits(_attack(a, "dum", (2, 2, 1), loc=5, test=(5, 15)))
    assert (h.dr, h.dealt) == (4, 0)


# --- extra damage -------------------------------------------------------------------------

def test_melee_extra_damage_costs_one_ap_per_die():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: melee: each AP adds +1 CD, decided
    after the hit."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]), F("dummy", (3, 2), "dum", side=1)])
    a.set_pool(0, 2)
    a.act("attack dum")
    a.rig.d20(8, 15, 5)
    a.act("buy 0")
    assert a.slot == "boost" and a.legal() == {"boost 0", "boost 1", "boost 2"}
    a.rig.d6(1, 1, 1, 1)
    (h,) = hits(a.act("boost 2"))
    assert len(h.faces) == 4 and a.pool(0) == 0


def test_melee_extra_damage_is_at_most_three():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: up to 3 AP for up to +3 CD."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]), F("dummy", (3, 2), "dum", side=1)])
    a.set_pool(0, 6)
    a.act("attack dum")
    a.rig.d20(8, 15, 5)
    a.act("buy 0")
    assert a.legal() == {"boost 0", "boost 1", "boost 2", "boost 3"}


def test_melee_extra_damage_may_spend_the_ap_the_attack_generated():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: only AP saved in the pool or
    generated with the attack (1 and 2: three successes against 1 -> 2 AP)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]), F("dummy", (3, 2), "dum", side=1)])
    a.rig.d20(1, 2, 5)
    a.act("attack dum")
    assert a.pool(0) == 2 and a.legal() == {"boost 0", "boost 1", "boost 2"}


def test_unarmed_and_thrown_extra_damage_use_ap():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: melee weapons including unarmed
    attacks and thrown weapons add CD with AP."""
    a = _duel(weapon="javelin")
    a.set_pool(0, 1)
    a.act("attack dum")
    a.rig.d20(10, 15, 5)
    a.act("buy 0")
    assert a.legal() == {"boost 0", "boost 1"}
    a.rig.d6(1, 1, 1, 1)
    a.act("boost 1")
    assert a.pool(0) == 0 and a.c("ann").ammo["javelin"] == 2
    b = arena([F("hero", (2, 2), "ann", attacks=["fists"]), F("dummy", (3, 2), "dum", side=1)])
    b.set_pool(0, 1)
    b.act("attack dum")
    b.rig.d20(7, 15, 5)
    b.act("buy 0")
    assert b.legal() == {"boost 0", "boost 1"}


def test_ranged_extra_damage_spends_ammo_up_to_the_fire_rate():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: ranged: each extra round of
    ammunition adds +1 CD, up to the fire rate (pistol: 2); the pool is untouched."""
    a = _duel()
    a.set_pool(0, 3)
    a.act("attack dum")
    a.rig.d20(15, 10, 5)
    a.act("buy 0")
    assert a.legal() == {"boost 0", "boost 1", "boost 2"}
    a.rig.d6(1, 1, 1, 1, 1)
    (h,) = hits(a.act("boost 2"))
    assert len(h.faces) == 5
    assert a.c("ann").ammo["10mm"] == 6 and a.pool(0) == 3


def test_ranged_extra_damage_is_limited_by_the_ammo_left():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: you spend ammunition you have."""
    a = _duel()
    a.c("ann").ammo["10mm"] = 2
    a.rig.d20(15, 10, 5)
    a.act("attack dum")
    assert a.legal() == {"boost 0", "boost 1"}


def test_extra_ammunition_stops_at_six_rounds():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: up to the fire rate; reading: the
    action table offers at most `boost 6`, so a higher fire rate spends at most 6."""
    a = _duel()
    ann = a.c("ann")
    w = ann.weapons[0]
    assert w.f2d20 is not None
    ann.weapons[0] = w.model_copy(update={"f2d20": w.f2d20.model_copy(update={"fire_rate": 8})})
    a.rig.d20(15, 10, 5)
    a.act("attack dum")
    assert a.legal() == {f"boost {k}" for k in range(7)}


def test_a_ranged_weapon_without_ammunition_offers_no_extra_damage():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: ranged weapons add CD only by
    spending ammunition; reading: a self-charging weapon (no ammunition) has none to
    spend, and it never runs dry."""
    a = _duel(weapon="laser", at=(8, 2))
    ann = a.c("ann")
    ann.weapons[0] = ann.weapons[0].model_copy(update={"ammo": None})
    ev = _attack(a, "dum", (1, 1, 1, 1), loc=5)
    assert len(hits(ev)) == 1 and a.slot == "act"
    assert ann.ammo["fusion_cell"] == 9


def test_explosives_launchers_boost_with_ammunition():
    """Seed 003_938882289c4f9016.txt, Increasing Damage; reading: "thrown" is the Throwing
    skill, so an Explosives weapon that fires rounds (a launcher) adds CD with ammunition,
    not AP (fire rate 2 here, with an empty pool)."""
    a = _duel(weapon="grenade", at=(8, 2))
    ann = a.c("ann")
    w = ann.weapons[0]
    assert w.f2d20 is not None
    ann.weapons[0] = w.model_copy(update={"f2d20": w.f2d20.model_copy(update={"fire_rate": 2})})
    a.rig.d20(15, 8, 5)
    a.act("attack dum")
    assert a.pool(0) == 0 and a.legal() == {"boost 0", "boost 1", "boost 2"}
    a.rig.d6(1, 1, 1, 1, 1, 1)
    a.act("boost 2")
    assert ann.ammo["grenade"] == 0


def test_a_weapon_of_fire_rate_zero_offers_no_extra_damage():
    """Seed 003_938882289c4f9016.txt, Increasing Damage: up to the fire rate, so none at 0."""
    a = _duel(weapon="flamer")
    ev = _attack(a, "dum", (1, 1, 1), loc=5)
    assert len(hits(ev)) == 1 and a.slot == "act"


def test_ammunition_is_spent_even_on_a_miss():
    """Seed 002_265a8a3b5c20fde4.txt, Reduce Ammunition: a ranged attack removes one shot
    (plus any spent for damage); reading: hit or miss. A gun with no ammunition cannot
    attack, and there is no reloading under 2d20 (ammunition is a count)."""
    a = _duel()
    a.c("ann").ammo["10mm"] = 1
    a.rig.d20(15, 16)
    a.act("attack dum")
    assert a.c("ann").ammo["10mm"] == 0
    a.set_pool(0, 2)
    assert not any(x.startswith("attack") for x in a.legal())
    assert "reload" not in a.legal()


def test_a_thrown_weapon_is_used_up():
    """Seed 002_265a8a3b5c20fde4.txt, Reduce Ammunition: a thrown weapon attack removes the
    thrown weapon from the inventory; reading: the javelins carried are its ammunition."""
    a = _duel(weapon="javelin")
    a.c("ann").ammo["javelin"] = 1
    a.rig.d20(15, 16)
    a.act("attack dum")
    assert a.c("ann").ammo["javelin"] == 0
    a.set_pool(0, 2)
    assert "attack dum" not in a.legal()


# --- critical hits, injuries, dying -------------------------------------------------------

def test_five_damage_after_dr_is_a_critical_hit_and_an_injury():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: five or more
    damage in one hit, after DR, is a critical hit: an injury to the location hit."""
    a = _duel()
    ev = _attack(a, "dum", (2, 2, 1), loc=10)
    (h,) = hits(ev)
    assert h.dealt == 5 and "critical hit" in h.note
    assert a.c("dum").crippled == {"arm": 1}
    assert any("arm injury (critical hit" in n for n in notes(ev))


def test_four_damage_or_five_before_dr_is_no_critical_hit():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits: the five counts after DR."""
    a = _duel(armor="vest")
    (h,) = hits(_attack(a, "dum", (2, 2, 1), loc=10))
    assert h.dealt == 4 and "critical" not in h.note and not a.c("dum").crippled


def test_a_character_at_0_hp_is_injured_and_dying():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: at 0 HP a
    character suffers an injury to the location struck, falls prone and starts dying
    (unconscious, no actions)."""
    a = _duel(target="hero")
    a.c("dum").hp = 3
    ev = _attack(a, "dum", (1, 1, 1), loc=16)
    dum = a.c("dum")
    assert (dum.hp, dum.status, dum.cond.get("dying"), dum.crippled) == (
        0, UNCONSCIOUS, True, {"leg": 1})
    assert any("dying" in n for n in notes(ev))


def test_a_critical_hit_to_0_hp_is_two_injuries():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: a critical hit
    that takes a character to 0 HP is two injuries."""
    a = _duel(target="hero")
    a.c("dum").hp = 4
    _attack(a, "dum", (2, 2, 1), loc=5)
    assert a.c("dum").crippled == {"torso": 2} and a.c("dum").status == UNCONSCIOUS


def test_a_creature_at_0_hp_dies():
    """Reading: creatures (not characters) die at 0 HP; a side with nobody standing loses."""
    a = _duel()
    a.c("dum").hp = 3
    ev = _attack(a, "dum", (1, 1, 1), loc=5)
    assert a.c("dum").status == DEAD
    assert [e.status for e in ev if isinstance(e, Downed)] == [DEAD]
    end = [e for e in ev if isinstance(e, BattleEnded)]
    assert end and a.b.winner == 0


def _dying_party(injuries=2, **kw):
    a = arena([F("hero", (2, 2), "ann"), F("hero", (2, 4), "bea", initiative=12, **kw),
               F("dummy", (27, 2), "dum", side=1)])
    make_dying(a, "bea", injuries)
    a.act("end")  # ann's opening turn; round 1: ann, bea, dum
    return a


def test_the_dying_test_fails_and_the_character_dies():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: at the start of
    each of its turns a dying character tests END + Survival (6 + 2 = 8) at a difficulty of
    its injuries; failing, it dies."""
    a = _dying_party(injuries=2)
    a.rig.d20(8, 15)
    ev = a.act("end")  # ann ends; bea's turn begins with the test
    t = roll_of(ev)
    assert (t.target, t.difficulty, t.successes, t.passed) == (8, 2, 1, False)
    assert ("injuries", 2) in t.parts
    assert a.c("bea").status == DEAD and a.whose() == "dum"


def test_the_dying_test_ignores_enemies_in_reach():
    """Seed 002_265a8a3b5c20fde4.txt, Dying: the difficulty is the number of injuries;
    reading: an enemy next to the unconscious character does not add the +2 of Range."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (2, 4), "bea", initiative=12),
               F("dummy", (3, 4), "dum", side=1)])
    make_dying(a, "bea", 1)
    a.act("end")
    a.rig.d20(8, 15)
    t = roll_of(a.act("end"))
    assert (t.difficulty, t.parts, t.passed) == (1, [("injuries", 1)], True)


def test_the_dying_test_passed_keeps_the_character_dying():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: a pass keeps the
    character alive but still dying (the test comes again next turn)."""
    a = _dying_party(injuries=2)
    a.rig.d20(1, 15)
    a.act("end")
    bea = a.c("bea")
    assert bea.status == UNCONSCIOUS and bea.cond.get("dying") and a.whose() == "dum"
    a.act("end")  # round 2: ann
    a.rig.d20(5, 15)
    t = roll_of(a.act("end"))
    assert not t.passed and bea.status == DEAD


def test_the_dying_test_has_a_complication_range_of_19_to_20():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: complication
    range 19-20 (each gives the other side 1 AP, reading)."""
    a = _dying_party(injuries=1)
    a.rig.d20(19, 5)
    t = roll_of(a.act("end"))
    assert (t.complications, t.passed) == (1, True)
    assert a.pool(1) == 1


def test_damage_while_dying_adds_an_injury():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: any damage while
    dying adds an injury. No action targets a dying character in this engine (reading),
    so the engine's damage step is called directly."""
    a = _dying_party(injuries=1)
    bea = a.c("bea")
    events: list[Event] = []
    a.rig.d6(1, 3, 3)
    a.rs._damage(a.b, a.c("dum"), bea, {"ws": 0, "loc": "legs", "sneak": False,
                                         "target": bea.slot}, 0, events)
    assert bea.crippled == {"torso": 1, "leg": 1}
    assert any("damage while dying" in n for n in notes(events))


def test_a_critical_hit_while_dying_is_two_more_injuries():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: the injury for
    damage while dying comes in addition to a critical hit's injury."""
    a = _dying_party(injuries=1)
    bea = a.c("bea")
    events: list[Event] = []
    a.rig.d6(2, 2, 2)
    a.c("dum").weapons[0] = a.b.combatants[0].weapons[0]  # dum borrows ann's pistol (3 CD)
    a.rs._damage(a.b, a.c("dum"), bea, {"ws": 0, "loc": "head", "sneak": False,
                                         "target": bea.slot}, 0, events)
    assert bea.crippled == {"torso": 1, "head": 2}


def test_radiation_on_the_hit_that_drops_a_character_counts_as_damage_while_dying():
    """Seed 002_265a8a3b5c20fde4.txt, Radiation Damage (resolved after other damage) and
    Dying; reading: so a Radioactive hit's radiation lands on a dying character and adds
    an injury."""
    a = _duel(weapon="rad_gun", target="hero", at=(8, 2))
    a.c("dum").hp = 2
    ev = _attack(a, "dum", (5, 1), loc=5)
    assert [h.damage_type for h in hits(ev)] == ["physical", "radiation"]
    dum = a.c("dum")
    assert dum.status == UNCONSCIOUS and dum.crippled == {"torso": 2} and dum.max_hp == 11


def test_a_dying_character_takes_no_actions():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: a dying character
    is unconscious and cannot act (its turn is only the dying test); nobody but a foe in
    reach or sight of it may target it (dum's fists do not reach; attacks on the dying:
    test_f2d20_more.py)."""
    a = _dying_party(injuries=1)
    a.rig.d20(5, 6)
    a.act("end")  # bea's test passes; her turn is over at once
    assert a.whose() == "dum"
    assert not any("bea" in x for x in a.legal())
    assert a.c("bea").status != ACTIVE
