"""Reach under Fallout 2d20: one notion (``reach_of``: the longest melee weapon an enemy
carries and can use, at least 1) for attacking, for the +2 to tests within an enemy's
reach (seed 002 Range; seed 003 Ranged Attacks Within Reach) and for the moves that keep
a gunman out of reach."""

from __future__ import annotations

from wasteland.bestiary.loader import default_bestiary
from wasteland.rules.f2d20.reach import _within_reach, reach_of

from .kit2d20 import F, arena, roll_of

REACH = ("within an enemy's reach", 2)


def _parts(a, attacker="ann", target="dum"):
    c = a.c(attacker)
    return a.rs.attack_difficulty(a.b, c, a.c(target), c.active_weapon, None)[1]


def test_a_pike_two_squares_away_puts_a_gunman_within_reach():
    """Seed 003_938882289c4f9016.txt, Ranged Attacks Within Reach; seed 002_265a8a3b5c20fde4.txt,
    Range: +2 to a test that is not a melee attack within an enemy's reach. A reach-2
    weapon reaches two squares, so a pistol shot from two squares pays it."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1, attacks=["pike"])])
    a.rig.d20(5, 6)
    t = roll_of(a.act("attack dum"))
    assert REACH in t.parts and t.difficulty == 3 and not t.passed
    a.done()
    b = arena([F("hero", (2, 2), "ann"), F("dummy", (5, 2), "dum", side=1, attacks=["pike"])])
    assert REACH not in _parts(b)


def test_reach_counts_a_melee_weapon_carried_but_not_in_hand():
    """Reading (seed 002 Draw Item is a minor action): an enemy threatens as far as the
    longest melee weapon it carries and can use, drawn or not. A dummy holding its fists
    with a pike on its back still reaches two squares; with two injured arms (no held
    weapon) only one."""
    a = arena([F("hero", (2, 2), "ann"),
               F("dummy", (4, 2), "dum", side=1, attacks=["fists", "pike"])])
    assert a.c("dum").active_weapon == 0 and reach_of(a.c("dum")) == 2
    assert REACH in _parts(a)
    a.c("dum").crippled["arm"] = 2
    assert reach_of(a.c("dum")) == 1 and REACH not in _parts(a)


def test_reach_two_needs_sight_of_the_square():
    """Seed 002_265a8a3b5c20fde4.txt, Choose Weapon and Target: a melee target must be
    visible and within reach; the same reach makes the +2, so a wall between a pike and a
    gunman two squares off takes it away."""
    rows = "\n".join(["..." + "#" + "." * 26] * 6)
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1, attacks=["pike"])],
              rows=rows)
    assert reach_of(a.c("dum")) == 2
    assert not a.rs.can_attack(a.b, a.c("dum"), a.c("ann"), 0)
    assert not _within_reach(a.b, a.c("ann"))
    b = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1, attacks=["pike"])])
    assert _within_reach(b.b, b.c("ann"))


def test_a_reach_two_weapon_attacks_from_two_squares():
    """Seed 002_265a8a3b5c20fde4.txt, Choose Weapon and Target: a melee weapon attacks
    targets within its reach; the pike's is two squares, not three."""
    a = arena([F("dummy", (4, 2), "dum", side=1, attacks=["pike"]), F("hero", (2, 2), "ann")])
    a.pass_to("dum")
    assert "attack ann" in a.legal()
    b = arena([F("dummy", (5, 2), "dum", side=1, attacks=["pike"]), F("hero", (2, 2), "ann")])
    b.pass_to("dum")
    assert "attack ann" not in b.legal()


def test_a_gunman_moving_toward_a_pike_stops_out_of_its_reach():
    """Seed 003_938882289c4f9016.txt, Ranged Attacks Within Reach, with the reading that a
    gunman closing in stops out of every enemy's reach: out of a pike's reach is three
    squares off, not two."""
    a = arena([F("hero", (8, 2), "ann"), F("dummy", (15, 2), "dum", side=1, attacks=["pike"])])
    a.act("move toward dum")
    ann, dum = a.c("ann"), a.c("dum")
    assert a.b.grid.dist(ann.pos, dum.pos) == 3
    assert REACH not in _parts(a)


def test_the_bestiarys_long_weapons_reach_two():
    """The super mutant brute's rebar pike and the giant radscorpion's stinger reach two
    squares, so their owners threaten two squares (docs/rules/f2d20.md, reach row)."""
    best = default_bestiary()
    assert best.weapons["rebar_pike"].reach == 2
    assert best.weapons["giant_radscorpion_stinger"].reach == 2
