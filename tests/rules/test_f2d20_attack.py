"""Making an attack under Fallout 2d20: the test by weapon kind, its difficulty and what
modifies it (seed 002: Making an Attack, Range; seed 003: Range, Ranged Attacks Within
Reach, Sneak Attacks)."""

from __future__ import annotations

import pytest

from wasteland.bestiary.models import RANGES_2D20
from wasteland.rules.zones import zones_for

from .kit2d20 import F, arena, roll_of

AMMO = {"10mm": 9, "308": 9, "fusion_cell": 9, "5mm": 30, "shell": 9, "fuel": 9,
        "isotope": 9, "javelin": 3, "grenade": 3}


def _difficulty(a, attacker="ann", target="dum", location=None):
    return a.rs.attack_difficulty(a.b, a.c(attacker), a.c(target), a.c(attacker).active_weapon,
                                  location)


def _with_range(a, cid, band):
    """Give ``cid``'s held weapon the ideal range ``band``."""
    c = a.c(cid)
    w = c.weapons[c.active_weapon]
    assert w.f2d20 is not None
    c.weapons[c.active_weapon] = w.model_copy(
        update={"f2d20": w.f2d20.model_copy(update={"range": band})})


# --- the test by weapon kind --------------------------------------------------------------

@pytest.mark.parametrize("weapon, target, tag, at", [
    ("knife", 8, 0, (3, 2)),     # STR 6 + Melee Weapons 2
    ("fists", 7, 0, (3, 2)),     # STR 6 + Unarmed 1
    ("pistol", 11, 3, (4, 2)),   # AGI 8 + Small Guns 3, tagged
    ("laser", 9, 0, (8, 2)),     # PER 7 + Energy Weapons 2
    ("minigun", 7, 0, (8, 2)),   # END 6 + Big Guns 1
    ("grenade", 8, 0, (8, 2)),   # PER 7 + Explosives 1
    ("javelin", 10, 0, (4, 2)),  # AGI 8 + Throwing 2
])
def test_a_characters_attack_test_follows_the_weapon(weapon, target, tag, at):
    """Seed 002_265a8a3b5c20fde4.txt, Making an Attack (2. Attempt a Test): melee STR +
    Melee Weapons; unarmed STR + Unarmed; ranged AGI + Small Guns, PER + Energy Weapons or
    END + Big Guns; thrown PER + Explosives or AGI + Throwing; the tag rank counts double."""
    a = arena([F("hero", (2, 2), "ann", attacks=[weapon], ammo=AMMO),
               F("dummy", at, "dum", side=1)])
    a.rig.d20(15, 16)
    t = roll_of(a.act("attack dum"))
    assert (t.target, t.tag, t.passed) == (target, tag, False)


@pytest.mark.parametrize("creature, attacks, target", [
    ("beast", ["claws"], 9),                                     # Body 6 + Melee 3
    ("raider", ["pistol"], 7),                                   # Body 5 + Guns 2
    ("drone", [{"id": "laser", "attribute": "mind", "skill": "guns"}], 10),  # Mind 7 + Guns 3
    ("raider", [{"id": "knife", "skill": "other"}], 6),          # Body 5 + Other 1
    ("drone", ["fists"], 5),                                     # Body 4 + Melee 1
])
def test_a_creatures_attack_is_body_or_mind_plus_melee_guns_or_other(creature, attacks, target):
    """Seed 002_265a8a3b5c20fde4.txt, Attempt a Test (the test follows the weapon); reading
    (the published game's creature blocks, silent in the seeds): a creature tests Body or
    Mind plus Melee, Guns or Other, as its attack names (default: Body, with Melee for
    melee and unarmed weapons, Guns otherwise); creatures have no tag skills."""
    a = arena([F(creature, (2, 2), "foe", attacks=attacks, ammo=AMMO),
               F("hero", (3, 2), "ann", side=1)])
    a.rig.d20(15, 16)
    t = roll_of(a.act("attack ann"))
    assert (t.target, t.tag) == (target, 0)


def test_the_difficulty_is_the_targets_defense():
    """Seed 002_265a8a3b5c20fde4.txt, Making an Attack: the difficulty is the target's
    Defense."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1, defense=3)])
    a.rig.d20(5, 6)
    t = roll_of(a.act("attack dum"))
    assert (t.difficulty, t.parts, t.successes, t.passed) == (3, [("Defense", 3)], 2, False)


def test_choosing_a_hit_location_adds_one_and_hits_it():
    """Seed 002_265a8a3b5c20fde4.txt, Choose Hit Location and Determine Hit Location: a
    chosen location adds +1 difficulty; a hit strikes it, with no location roll."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    a.rig.d20(5, 6)  # no third d20: no hit-location roll
    ev = a.act("attack dum head")
    t = roll_of(ev)
    assert ("chosen location", 1) in t.parts and t.difficulty == 2 and t.passed
    a.rig.d6(1, 1, 1)
    a.act("boost 0")
    assert a.c("dum").hp == 27
    a.done()


def test_called_shots_name_the_targets_own_locations():
    """Seed 003_938882289c4f9016.txt, Creatures With Other Hit Locations: a chosen location
    must be one the target has (the drone has a sensor (head) and a hull, no arms or
    legs)."""
    a = arena([F("hero", (2, 2), "ann"), F("drone", (4, 2), "dro", side=1)])
    legal = a.legal()
    assert "attack dro head" in legal
    assert "attack dro arm" not in legal and "attack dro leg" not in legal


# --- range --------------------------------------------------------------------------------

# seed 003's Weapon Range Difficulty table: (target's band, the weapon's ideal band) -> +N
RANGE_TABLE = {
    ("close", "close"): 0, ("close", "medium"): 1, ("close", "long"): 2, ("close", "extreme"): 3,
    ("medium", "close"): 1, ("medium", "medium"): 0, ("medium", "long"): 1,
    ("medium", "extreme"): 2,
    ("long", "close"): 2, ("long", "medium"): 1, ("long", "long"): 0, ("long", "extreme"): 1,
    ("extreme", "close"): 3, ("extreme", "medium"): 2, ("extreme", "long"): 1,
    ("extreme", "extreme"): 0,
}
BAND_X = {"close": 4, "medium": 8, "long": 14, "extreme": 20}  # ann stands at x = 2 (zone 0)


@pytest.mark.parametrize("band, ideal", sorted(RANGE_TABLE))
def test_range_difficulty_table(band, ideal):
    """Seed 003_938882289c4f9016.txt, Range / Weapon Range Difficulty: +1 difficulty per
    range band between the target's band and the weapon's ideal one, closer or farther
    (all 16 entries). Zones: same zone Close, adjacent Medium, two away Long, three or
    more Extreme."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (BAND_X[band], 2), "dum", side=1)])
    z = zones_for(a.b.grid)
    assert RANGES_2D20[z.band(a.c("ann").pos, a.c("dum").pos)] == band
    _with_range(a, "ann", ideal)
    diff, parts = _difficulty(a)
    assert diff == 1 + RANGE_TABLE[(band, ideal)]
    if RANGE_TABLE[(band, ideal)]:
        assert (f"range {band} vs {ideal}", RANGE_TABLE[(band, ideal)]) in parts


def test_four_or_more_zones_away_is_still_extreme():
    """Seed 003_938882289c4f9016.txt, Range: Extreme is three or more zones away."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    z = zones_for(a.b.grid)
    assert z.zone_of[a.c("dum").pos] == 4
    assert z.band(a.c("ann").pos, a.c("dum").pos) == 3
    _with_range(a, "ann", "extreme")
    assert _difficulty(a)[0] == 1


def test_the_seed_examples_rifle_and_shotgun():
    """Seed 003_938882289c4f9016.txt, Range example: a Long rifle is +1 at Medium and
    Extreme, +2 at Close; a Close shotgun +1 at Medium, +2 at Long, +3 at Extreme. Rolled
    through the engine: the rifle at Close."""
    a = arena([F("hero", (2, 2), "ann", attacks=["rifle"], ammo=AMMO),
               F("dummy", (4, 2), "dum", side=1)])
    a.rig.d20(15, 16)
    t = roll_of(a.act("attack dum"))
    assert ("range close vs long", 2) in t.parts and t.difficulty == 3


def test_thrown_weapons_use_the_range_table_too():
    """Seed 002_265a8a3b5c20fde4.txt, Thrown Weapons: the difficulty is modified by the
    range (a Close javelin at Long: +2)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["javelin"], ammo=AMMO),
               F("dummy", (14, 2), "dum", side=1)])
    assert _difficulty(a) == (3, [("Defense", 1), ("range long vs close", 2)])


# --- within reach, reach, sight -----------------------------------------------------------

def test_within_an_enemys_reach_adds_two_to_a_ranged_attack():
    """Seed 003_938882289c4f9016.txt, Ranged Attacks Within Reach (and seed 002): being in
    an enemy's reach adds +2 to any test that is not a melee attack. Reading: within
    reach is a square next to an active enemy."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (3, 3), "dum", side=1)])
    a.rig.d20(5, 6, 5)
    t = roll_of(a.act("attack dum"))
    assert ("within an enemy's reach", 2) in t.parts and t.difficulty == 3 and not t.passed


def test_a_melee_attack_within_reach_has_no_penalty():
    """Seed 003_938882289c4f9016.txt, Ranged Attacks Within Reach: the +2 spares melee
    attacks."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]), F("dummy", (3, 2), "dum", side=1)])
    assert _difficulty(a) == (1, [("Defense", 1)])


def test_thrown_weapons_within_reach_take_the_penalty():
    """Seed 003_938882289c4f9016.txt, Ranged Attacks Within Reach: a thrown weapon is not a
    melee attack."""
    a = arena([F("hero", (2, 2), "ann", attacks=["javelin"], ammo=AMMO),
               F("dummy", (3, 2), "dum", side=1)])
    assert ("within an enemy's reach", 2) in _difficulty(a)[1]


def test_within_reach_makes_other_tests_harder_too():
    """Seed 002_265a8a3b5c20fde4.txt, Range: +2 to any test that is not a melee attack;
    defend and first aid next to an enemy are two harder, and so is rally (whose AP are
    its successes beyond the difficulty)."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (3, 2), "dum", side=1)])
    a.rig.d20(9, 15)
    t = roll_of(a.act("defend"))
    assert t.difficulty == 3 and ("within an enemy's reach", 2) in t.parts and not t.passed
    b = arena([F("hero", (2, 2), "ann"), F("dummy", (3, 2), "dum", side=1)])
    b.c("ann").hp = 5
    b.rig.d20(2, 9)
    t = roll_of(b.act("first_aid self"))
    assert t.difficulty == 3 and t.passed and b.c("ann").hp == 8
    c = arena([F("hero", (2, 2), "ann"), F("dummy", (3, 2), "dum", side=1)])
    c.rig.d20(1, 8)
    t = roll_of(c.act("rally"))
    assert (t.successes, t.difficulty, t.ap_gained) == (3, 2, 1)


def test_a_melee_weapon_needs_the_target_within_reach():
    """Seed 002_265a8a3b5c20fde4.txt, Choose Weapon and Target: a melee target must be
    within your reach (reading: a square next to you, diagonals included)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]), F("dummy", (4, 2), "dum", side=1)])
    assert "attack dum" not in a.legal()
    b = arena([F("hero", (2, 2), "ann", attacks=["knife"]), F("dummy", (3, 3), "dum", side=1)])
    assert "attack dum" in b.legal()


def test_the_target_must_be_visible():
    """Seed 002_265a8a3b5c20fde4.txt, Choose Weapon and Target: the target must be visible;
    reading: a line of sight on the map (a wall between blocks it)."""
    rows = "\n".join(["." * 10 + "#" + "." * 19] * 6)
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (14, 2), "dum", side=1)], rows=rows)
    assert not any(x.startswith("attack dum") for x in a.legal())


# --- cover, visibility, injuries, size ---------------------------------------------------

def _cover_arena(glyph, attacker_at=(14, 2), **kw):
    rows = "\n".join(["." * 24 + glyph * 6] * 6)
    return arena([F("hero", attacker_at, "ann", **kw), F("dummy", (27, 2), "dum", side=1)],
                 rows=rows)


@pytest.mark.parametrize("glyph, extra", [(",", 1), ("=", 2)])
def test_cover_makes_ranged_attacks_harder(glyph, extra):
    """Reading: a zone whose squares give cover gives it to whoever is in it: light +1,
    heavy +2 to the difficulty of ranged attacks."""
    a = _cover_arena(glyph)
    _with_range(a, "ann", "long")
    assert _difficulty(a) == (1 + extra, [("Defense", 1), ("cover", extra)])


def test_cover_does_not_hinder_melee():
    """Reading: cover counts against ranged attacks only."""
    a = _cover_arena("=", attacker_at=(23, 2), attacks=["knife"])
    assert _difficulty(a) == (1, [("Defense", 1)])


def test_inside_one_zone_the_targets_own_square_decides_cover():
    """Reading: a zone's cover shields whoever is in it from shots from other zones; a
    shot from inside the same zone counts only the target's own square (light cover +1)."""
    rows = "\n".join(["." * 24 + "," * 6] * 3 + ["." * 30] * 3)
    for target_at, same_zone, other_zone in (((27, 4), 0, 1), ((27, 1), 1, 1)):
        for at, extra in (((25, 4), same_zone), ((14, 4), other_zone)):
            a = arena([F("hero", at, "ann"), F("dummy", target_at, "dum", side=1)], rows=rows)
            z = zones_for(a.b.grid)
            _with_range(a, "ann", RANGES_2D20[z.band(a.c("ann").pos, a.c("dum").pos)])
            assert (z.zone_of[a.c("ann").pos] == z.zone_of[a.c("dum").pos]) is (at[0] > 20)
            assert z.cover(z.zone_of[a.c("dum").pos]) == 1
            assert _difficulty(a) == (1 + extra, [("Defense", 1)] + [("cover", 1)] * extra), \
                (target_at, at)


def test_a_full_cover_zone_is_hard_to_shoot_into():
    """Reading: a zone whose cover is full adds +3 to ranged attacks into it (a zone is
    never all cover, so it does not forbid them)."""
    a = _cover_arena("O")
    assert any(x.startswith("attack dum") for x in a.legal())
    assert ("cover", 3) in _difficulty(a)[1]


@pytest.mark.parametrize("lighting, extra, melee", [("obscured", 1, 1),
                                                    ("heavily_obscured", 2, 1),
                                                    ("barely_visible", 2, 1),
                                                    ("unseen", 3, 3)])
def test_poor_visibility_makes_attacks_harder(lighting, extra, melee):
    """Reading: poor visibility adds +1 (obscured), +2 (heavily obscured, or barely visible:
    thick fog) or +3 (unseen); a melee attack in heavy darkness or fog only +1 (what is
    within arm's reach still shows)."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)], lighting=lighting)
    assert _difficulty(a) == (1 + extra, [("Defense", 1), ("visibility", extra)])
    a = arena([F("hero", (3, 2), "ann", attacks=["knife"]), F("dummy", (4, 2), "dum", side=1)],
              lighting=lighting)
    assert _difficulty(a) == (1 + melee, [("Defense", 1), ("visibility", melee)])


def test_smoke_on_the_targets_square_obscures_it():
    """Reading: the target's square's own visibility counts (smoke: obscured, +1)."""
    rows = "\n".join(["...." + "~" + "." * 25] + ["." * 30] * 5)
    a = arena([F("hero", (2, 0), "ann"), F("dummy", (4, 0), "dum", side=1)], rows=rows)
    assert ("visibility", 1) in _difficulty(a)[1]


def test_a_head_injury_makes_every_test_harder():
    """Reading: a head injury adds +1 to the difficulty of every test (attack and others)."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    a.c("ann").crippled["head"] = 1
    assert _difficulty(a) == (2, [("Defense", 1), ("head injury", 1)])
    a.rig.d20(9, 15)
    t = roll_of(a.act("defend"))
    assert t.difficulty == 2 and ("head injury", 1) in t.parts


def test_an_arm_injury_hinders_held_weapons():
    """Reading: an arm injury adds +1 to attacks with held weapons (not natural ones),
    forbids two-handed weapons, and two arm injuries forbid held weapons."""
    a = arena([F("hero", (2, 2), "ann", attacks=["pistol", "rifle", "fists"],
                 ammo=AMMO), F("dummy", (3, 2), "dum", side=1)])
    ann = a.c("ann")
    ann.crippled["arm"] = 1
    assert ("arm injury", 1) in _difficulty(a)[1]
    assert "draw 1" not in a.legal() and "draw 2" in a.legal()
    ann.active_weapon = 2
    assert ("arm injury", 1) not in _difficulty(a)[1]
    ann.crippled["arm"] = 2
    assert "attack dum" in a.legal() and "draw 0" not in a.legal()
    ann.active_weapon = 0
    assert "attack dum" not in a.legal()


@pytest.mark.parametrize("ability, extra", [("big", -1), ("little", 1)])
def test_big_and_little_targets(ability, extra):
    """Reading: a big creature is 1 easier to hit, a little one 1 harder."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1, defense=2,
                                            abilities=[ability])])
    assert _difficulty(a)[0] == 2 + extra


# --- sneak attacks and difficulty 0 -------------------------------------------------------

def test_a_sneak_attack_is_one_easier_and_vicious():
    """Seed 003_938882289c4f9016.txt, Sneak Attacks: against an unaware enemy the
    difficulty drops by 1 and the attack gains Vicious (+1 damage per effect). Reading:
    a side that is not alert is unaware until each member's first turn."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]),
               F("dummy", (3, 2), "dum", side=1, defense=2)], alert=(True, False))
    a.rig.d20(8, 15, 5)
    a.rig.d6(5, 6)  # 2 damage, 2 effects: Vicious +2 (no boost window: an empty pool)
    t = roll_of(a.act("attack dum"))
    assert ("sneak attack", -1) in t.parts and t.difficulty == 1 and t.passed
    assert a.c("dum").hp == 26


def test_a_sneak_attack_never_goes_below_zero():
    """Seed 003_938882289c4f9016.txt, Sneak Attacks: reduced by 1 to a minimum of 0; at
    difficulty 0 no roll is needed."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]),
               F("dummy", (3, 2), "dum", side=1, defense=0)], alert=(True, False))
    a.rig.d20(5)
    a.rig.d6(3, 3)
    a.act("attack dum")
    t = roll_of(a.act("noroll"))
    assert t.difficulty == 0 and t.faces == [] and t.passed
    a.done()


def test_a_sneak_attack_with_a_vicious_weapon_adds_two_combat_dice():
    """Seed 003_938882289c4f9016.txt, Sneak Attacks: if the weapon is already Vicious, +2
    CD instead (ripper 3 CD -> 5)."""
    a = arena([F("hero", (2, 2), "ann", attacks=["ripper"]),
               F("dummy", (3, 2), "dum", side=1)], alert=(True, False))
    a.rig.d20(5)
    a.rig.d6(1, 1, 1, 1, 5)  # 5 damage, one effect: Vicious +1
    a.act("attack dum")
    a.act("noroll")
    assert a.c("dum").hp == 24
    a.done()


def test_an_aware_enemy_is_not_sneak_attacked():
    """Seed 003_938882289c4f9016.txt, Sneak Attacks: only an unaware enemy; reading: an
    unaware combatant is aware from its first turn on."""
    a = arena([F("dummy", (3, 2), "dum", side=1), F("hero", (2, 2), "ann", attacks=["knife"])],
              alert=(False, True))
    assert a.whose() == "dum"
    a.act("end")  # dum's opening turn; round 1: ann, dum
    assert _difficulty(a) == (1, [("Defense", 1)])
    b = arena([F("hero", (2, 2), "ann", attacks=["knife"]), F("dummy", (3, 2), "dum", side=1)],
              alert=(True, False))
    assert _difficulty(b) == (0, [("Defense", 1), ("sneak attack", -1)])


def test_difficulty_zero_needs_no_roll():
    """Seed 003_938882289c4f9016.txt, Sneak Attacks: at difficulty 0 the attack hits
    without a roll, but the attacker may still roll. Reading: a `dice` window offers
    `noroll` (hit, no roll) and the usual `buy 0`..`buy 3` (roll, with dice bought)."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1, defense=0)])
    a.set_pool(0, 6)
    a.act("attack dum")
    assert a.slot == "dice" and {"noroll", "buy 0", "buy 3"} <= a.legal()
    a.rig.d20(5)  # only the hit location
    t = roll_of(a.act("noroll"))
    assert (t.faces, t.difficulty, t.passed, t.ap_gained) == ([], 0, True, 0)
    assert a.slot == "boost" and a.pool(0) == 6
    a.done()


def test_rolling_at_difficulty_zero_generates_ap_and_complications():
    """Seed 003_938882289c4f9016.txt, Sneak Attacks: at difficulty 0 "you may still decide
    to" roll, "generating Action Points and complications as normal": 1 (two successes)
    and 20 (a complication) are 2 AP for the side and 1 for the foe; a bought die too."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1, defense=0)])
    a.set_pool(0, 1)
    a.act("attack dum")
    a.rig.d20(1, 20, 4, 5)  # three d20s (one bought), then the hit location
    t = roll_of(a.act("buy 1"))
    assert (t.faces, t.successes, t.passed, t.ap_gained, t.complications) == (
        [1, 20, 4], 3, True, 3, 1)
    assert a.pool(0) == 3 and a.pool(1) == 1 and a.slot == "boost"
    a.done()
