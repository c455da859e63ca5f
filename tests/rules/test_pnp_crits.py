"""Critical hits, called shots, V.A.T.S. and crippling (seed 000: Critical Hits, Called
Shots and V.A.T.S., Brutal)."""

from __future__ import annotations

import pytest

from wasteland.rules.events import AttackRolled, Crippled, Moved

from .kit import F, arena, damage, mods, only


def _duel(weapon="pistol", bonus=0, target=None, shooter="gunner", at=(3, 0), **stats):
    return arena([F(shooter, (0, 0), "ann", weapons=[(weapon, bonus)], **stats),
                  F("target", at, "bob", side=1, **(target or {}))])


# --- critical hits -----------------------------------------------------------------------
def test_crit_seed_example_ted():
    """Seed 000_4e72993430dea166.txt, Critical Hits: Ted (Luck 2, pistol Lucky 3) rolls 18
    against Defense 12: 18 + 2 + 3 = 23 beats 12 + 10 = 22, a critical hit, double damage."""
    a = _duel("lucky_pistol", luck=2, perception=1, target={"defense": 12})
    a.rig.d6(6, 6, 5).d6(4).d6(1)  # 17 + 1 PER = 18; 1d6 = 4, rolled again: 1
    ev = a.act("attack bob")
    atk = only(ev, AttackRolled)
    assert (atk.total, atk.defense, atk.crit) == (18, 12, True)
    assert atk.crit_mods == [("Luck", 2), ("Lucky", 3)]
    (dmg,) = damage(ev)
    assert (dmg.raw, dmg.dealt) == (5, 5)  # 4 + 1: two rolls, not 4 x 2
    assert "critical: 18 +2 Luck +3 Lucky = 23 >= 22" in atk.text()
    assert "1d6 (4) +1 crit, second roll 1d6 (1) = 5" in dmg.text()
    assert a.rig.left == 0


def test_crit_rolls_the_damage_twice_and_sums():
    """Seed 000_4e72993430dea166.txt, Critical Hits (Ted example): a weapon dealing double
    damage on a crit rolls twice for damage; the two rolls are summed, each with the
    weapon's flat bonus, and the event shows both."""
    a = _duel("pistol", perception=0, target={"defense": 40})
    a.rig.d6(6, 6, 6).d6(6, 6).d6(1, 2)  # 2d6: 12, then 3
    (dmg,) = damage(a.act("attack bob"))
    assert dmg.raw == 15 and dmg.multiplier == 1.0
    assert "2d6 (6+6) +3 crit, second roll 2d6 (1+2) = 15" in dmg.text()
    assert a.rig.left == 0


@pytest.mark.parametrize("faces,crit", [((6, 6, 4), True), ((6, 5, 4), False)])
def test_crit_threshold_is_defense_plus_10_or_more(faces, crit):
    """Seed 000_4e72993430dea166.txt, Critical Hits: the roll plus crit chance must beat
    Defense by 10 or more (17 + 5 = 22 against 22 crits; 16 + 5 = 21 does not)."""
    a = _duel("lucky_pistol", luck=2, perception=1, target={"defense": 12})
    a.rig.d6(*faces).d6(4)
    if crit:
        a.rig.d6(4)  # a crit rolls its damage twice
    atk = only(a.act("attack bob"), AttackRolled)
    assert atk.shots == [True] and atk.crit is crit


def test_luck_counts_toward_crits_without_a_lucky_weapon():
    """Seed 000_4e72993430dea166.txt, Critical Hits: Luck is added (the Ted example)."""
    a = _duel("pistol", luck=2, perception=0, target={"defense": 12})
    a.rig.d6(6, 6, 6 - 1).d6(1, 1)  # 17 + 2 Luck = 19 < 22: no crit
    assert only(a.act("attack bob"), AttackRolled).crit is False
    b = _duel("pistol", luck=5, perception=0, target={"defense": 12})
    b.rig.d6(6, 6, 5).d6(1, 1).d6(1, 1)  # 17 + 5 Luck = 22: crit, damage rolled twice
    assert only(b.act("attack bob"), AttackRolled).crit is True


def test_triple_six_is_always_a_critical_hit():
    """Seed 000_4e72993430dea166.txt, Critical Hits: triple 6 is an automatic crit.
    Reading: it also hits whatever the Defense."""
    a = _duel("pistol", perception=0, target={"defense": 40})
    a.rig.d6(6, 6, 6).d6(2, 3).d6(1, 1)
    ev = a.act("attack bob")
    atk = only(ev, AttackRolled)
    assert (atk.total, atk.shots, atk.crit) == (18, [True], True)
    assert damage(ev)[0].raw == 7  # (2 + 3) + (1 + 1): rolled twice
    assert "triple six" in atk.text()


def test_only_the_first_rof_hit_can_crit():
    """Seed 000_4e72993430dea166.txt, Critical Hits: only the first hit of an attack roll
    can be a critical, whatever the RoF."""
    a = _duel("smg", perception=10, target={"defense": 12})
    a.rig.d6(5, 5, 5).d6(3, 2, 3, 3)  # 25: 25/22/19, all hit; crit on the first
    ev = a.act("attack bob")
    atk = only(ev, AttackRolled)
    assert atk.shots == [True, True, True] and atk.crit
    assert ["critical" in d.note for d in damage(ev)] == [True, False, False]
    assert [d.raw for d in damage(ev)] == [5, 3, 3]


@pytest.mark.parametrize("weapon,faces,raw,brutal", [
    ("knife", (3, 1), 4, ""), ("ripper", (5, 2), 9, "+2 Brutal 0.5 x 5"),
    ("sledge", (4, 9), 19, "+6 Brutal 1.5 x 4")])
def test_crit_multiplier_x2_plus_brutal(weapon, faces, raw, brutal):
    """Seed 000_4e72993430dea166.txt, Critical Hits and Brutal: crits deal x2 (two damage
    rolls); Brutal adds its value of one roll (x2.5 for Brutal 0.5, x3.5 for Brutal 1.5).
    Reading: Brutal's share is of the first roll, rounded down."""
    a = _duel(weapon, shooter="brute", at=(1, 0))
    sides = {"knife": 4, "ripper": 10, "sledge": 10}[weapon]
    a.rig.d6(6, 6, 6).push(sides, *faces)
    (dmg,) = damage(a.act("attack bob"))
    assert dmg.raw == raw and brutal in dmg.text()


def test_head_crit_on_a_crippled_head_deals_50_percent_more():
    """Seed 000_4e72993430dea166.txt, Called Shots (Head): critical hits against a crippled
    head deal 50% more damage (x2 x1.5 = x3)."""
    a = _duel("pistol", perception=10)
    a.c("bob").crippled["head"] = 1
    a.rig.d6(6, 6, 6).d6(2, 2).d6(3, 3)
    (dmg,) = damage(a.act("attack bob head"))
    assert (dmg.multiplier, dmg.raw) == (1.5, 15)  # (4 + 6) x1.5


def test_head_crit_on_a_sound_head_is_a_plain_crit():
    """Seed 000_4e72993430dea166.txt, Called Shots (Head): the extra 50% needs a crippled
    head; so does the location (a torso crit on a crippled head is x2)."""
    a = _duel("pistol", perception=10)
    a.rig.d6(6, 6, 6).d6(2, 2).d6(3, 3)
    assert damage(a.act("attack bob head"))[0].raw == 10
    b = _duel("pistol", perception=10)
    b.c("bob").crippled["head"] = 1
    b.rig.d6(6, 6, 6).d6(2, 2).d6(3, 3)
    assert damage(b.act("attack bob"))[0].raw == 10


# --- called shots and V.A.T.S. -----------------------------------------------------------
@pytest.mark.parametrize("loc,penalty", [("arm", -2), ("leg", -2), ("head", -4)])
def test_called_shot_penalties(loc, penalty):
    """Seed 000_4e72993430dea166.txt, Called Shots: arm -2, leg -2, head -4 to hit."""
    a = _duel()
    a.rig.d6(1, 1, 1)
    atk = only(a.act(f"attack bob {loc}"), AttackRolled)
    assert mods(atk)[f"called {loc}"] == penalty and atk.total == 3 + 2 + penalty


@pytest.mark.parametrize("loc,cost", [("arm", 2), ("leg", 2), ("head", 3)])
def test_vats_costs_ap_instead_of_the_penalty(loc, cost):
    """Seed 000_4e72993430dea166.txt, Called Shots and V.A.T.S.: with a Pip-Boy a called
    shot may cost AP (arm 2, leg 2, head 3) rather than take the penalty."""
    a = arena([F("dweller", (0, 0), "ann"), F("target", (3, 0), "bob", side=1)])
    assert a.c("ann").ap == 5
    a.rig.d6(1, 1, 1)
    atk = only(a.act(f"vats bob {loc}"), AttackRolled)
    assert not any(k.startswith("called") for k in mods(atk))
    assert atk.total == 3 + 2 + 2 and a.c("ann").ap == 5 - cost


def test_vats_needs_a_pipboy_and_enough_ap_and_ap_refreshes_each_turn():
    """Seed 000_4e72993430dea166.txt, V.A.T.S.: only with a Pip-Boy, paid in AP. Reading:
    AP is a per-turn pool (stat block ap) refilled at the start of each turn."""
    a = arena([F("dweller", (0, 0), "ann", ap=4), F("gunner", (3, 0), "bob", side=1)])
    assert a.is_legal("vats bob head") and a.is_legal("vats bob arm")
    a.c("ann").ap = 2
    assert not a.is_legal("vats bob head") and a.is_legal("vats bob leg")
    a.act("end")
    assert a.whose() == "bob" and not a.is_legal("vats ann head")  # no Pip-Boy
    a.act("end")
    assert a.c("ann").ap == 4 and a.is_legal("vats bob head")


def test_called_shot_needs_the_location():
    """Seed 000_4e72993430dea166.txt, Called Shots: a specific part of the body; reading:
    only the locations the creature's stat block lists."""
    a = _duel(target={"hit_locations": [{"name": "body", "kind": "torso"},
                                        {"name": "head", "kind": "head"}]})
    assert a.is_legal("attack bob head")
    assert not a.is_legal("attack bob arm") and not a.is_legal("attack bob leg")


# --- crippling ---------------------------------------------------------------------------
def test_crippling_takes_25_percent_of_max_hp_from_called_shots():
    """Seed 000_4e72993430dea166.txt, Called Shots: 25% of max HP in damage cripples a limb
    (40 HP: 10). Reading: only damage from called shots at that location counts."""
    a = _duel("pistol", bonus=10)
    a.rig.d6(3, 3, 3).d6(3, 4)  # 9 + 12 - 2 = 19: hit, 7 damage
    ev = a.act("attack bob leg")
    assert not any(isinstance(e, Crippled) for e in ev) and a.c("bob").limb_damage["leg"] == 7
    a.act("end")  # bob
    a.rig.d6(3, 3, 3).d6(6, 6)  # an uncalled hit does not add to the leg
    a.act("attack bob")
    assert a.c("bob").limb_damage["leg"] == 7
    a.act("end")
    a.rig.d6(3, 3, 3).d6(1, 2)
    ev = a.act("attack bob leg")
    cr = only(ev, Crippled)
    assert (cr.location, cr.damage, cr.threshold) == ("leg", 10, 10)
    assert a.c("bob").crippled == {"leg": 1}


@pytest.mark.parametrize("max_hp,dealt,crippled", [
    (40, 9, False), (40, 10, True),    # 25% of 40 is 10 exactly
    (41, 10, False), (41, 11, True),   # 10.25 rounds up to 11
    (43, 10, False), (43, 11, True),   # 10.75: 11
    (44, 10, False), (44, 11, True),   # 11 exactly
    (5, 1, False), (5, 2, True),       # 1.25: 2
    (1, 1, True),                      # 0.25: 1, never 0
])
def test_the_cripple_threshold_is_25_percent_rounded_up(max_hp, dealt, crippled):
    """Seed 000_4e72993430dea166.txt, Called Shots and V.A.T.S.: 25% of max health in
    damage cripples a limb. Reading: a fraction rounds up (41 HP needs 11, not 10)."""
    from wasteland.rules.pnp.combat import _wound_limb

    a = _duel("pistol")
    bob = a.c("bob")
    bob.max_hp = bob.hp = max_hp
    events: list = []
    _wound_limb(a.b, bob, "leg", dealt, events)
    assert bool(bob.crippled.get("leg")) is crippled
    assert [(e.damage, e.threshold) for e in events if isinstance(e, Crippled)] == (
        [(dealt, -(-max_hp // 4))] if crippled else [])


def test_the_cripple_threshold_counts_called_shot_damage_that_adds_up():
    """Seed 000_4e72993430dea166.txt, Called Shots: 41 HP, 5 then 5 more (10) is short of
    the 11 needed; 1 more cripples."""
    from wasteland.rules.pnp.combat import _wound_limb

    a = _duel("pistol")
    bob = a.c("bob")
    bob.max_hp = bob.hp = 41
    events: list = []
    for dealt in (5, 5):
        _wound_limb(a.b, bob, "leg", dealt, events)
    assert not bob.crippled.get("leg") and bob.limb_damage["leg"] == 10
    _wound_limb(a.b, bob, "leg", 1, events)
    assert bob.crippled == {"leg": 1} and only(events, Crippled).threshold == 11


def test_crippled_arm_cannot_hold_a_two_handed_weapon():
    """Seed 000_4e72993430dea166.txt, Called Shots (Arm): a crippled arm is useless and
    cannot hold items, so two-handed weapons cannot be used; it switches weapons."""
    a = arena([F("gunner", (0, 0), "ann", weapons=[("pistol", 10)]),
               F("target", (3, 0), "bob", side=1, weapons=["rifle", "knife"])],
              order=["ann", "bob"])
    a.rig.d6(3, 3, 3).d6(5, 5)
    ev = a.act("attack bob arm")
    assert only(ev, Crippled).location == "arm"
    bob = a.c("bob")
    assert bob.weapon.id == "knife"
    assert not a.is_legal("draw 0")  # the rifle
    assert a.whose() == "bob"


def test_crippled_arm_leaves_one_handed_weapons_and_no_arms_no_weapons():
    """Seed 000_4e72993430dea166.txt, Called Shots (Arm): one crippled arm leaves the other
    hand; reading: a creature with every arm crippled holds nothing (natural weapons
    stay)."""
    a = arena([F("target", (0, 0), "ann", weapons=["pistol"]),
               F("target", (3, 0), "bob", side=1)])
    a.c("ann").crippled["arm"] = 1
    assert a.is_legal("attack bob")
    a.c("ann").crippled["arm"] = 2
    assert not a.is_legal("attack bob")
    c = arena([F("crawler", (0, 0), "ann"), F("target", (1, 0), "bob", side=1)])
    c.c("ann").crippled["arm"] = 2
    assert c.is_legal("attack bob")


def test_crippled_leg_halves_speed_and_both_legs_immobilise():
    """Seed 000_4e72993430dea166.txt, Called Shots (Leg): a crippled leg halves Speed;
    both legs crippled render the character immobile."""
    a = arena([F("gunner", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)])
    a.c("ann").crippled["leg"] = 1
    assert only(a.act("move toward bob"), Moved).squares == 3
    b = arena([F("gunner", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)])
    b.c("ann").crippled["leg"] = 2
    assert not any(x.startswith(("move", "cover")) for x in b.legal())


def test_crippled_head_lowers_perception_by_4():
    """Seed 000_4e72993430dea166.txt, Called Shots (Head): a crippled head reduces
    Perception by 4."""
    a = _duel()
    a.c("ann").crippled["head"] = 1
    a.rig.d6(1, 1, 1)
    atk = only(a.act("attack bob"), AttackRolled)
    assert mods(atk)["PER"] == 2 - 4 and atk.total == 1
