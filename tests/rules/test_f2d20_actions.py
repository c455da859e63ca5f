"""The minor and major actions of Fallout 2d20 that mean something in a fight between
agents (seed 002: Actions, Healing in Combat)."""

from __future__ import annotations

from wasteland.rules.battle import ACTIVE, UNCONSCIOUS
from wasteland.rules.events import Healed, Moved, ReactionOffered
from wasteland.rules.zones import zones_for

from .kit2d20 import F, arena, make_dying, notes, roll_of, rolls


def _zone(a, cid):
    z = zones_for(a.b.grid)
    return z.zone_of[a.c(cid).pos]



# --- Aim ----------------------------------------------------------------------------------

def test_aim_rerolls_one_d20_of_the_first_attack():
    """Seed 002_265a8a3b5c20fde4.txt, Aim (minor): reroll 1d20 on your first attack this
    round. Reading: the highest die that failed is rerolled (14 -> 5: one success)."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    a.act("aim")
    a.rig.d20(14, 12, 5, 4)  # the test, the reroll, the hit location
    t = roll_of(a.act("attack dum"))
    assert t.faces == [5, 12] and "aim: 14 rerolled to 5" in t.rerolled
    assert (t.successes, t.passed) == (1, True)
    a.done()


def test_aim_rerolls_nothing_when_no_die_failed():
    """Seed 002_265a8a3b5c20fde4.txt, Aim: the reroll is optional; reading: with no
    failing die nothing is rerolled (no die is drawn)."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    a.act("aim")
    a.rig.d20(5, 6, 4)
    t = roll_of(a.act("attack dum"))
    assert t.faces == [5, 6] and t.rerolled == ""
    a.done()


def test_aim_helps_only_the_first_attack_of_the_round():
    """Seed 002_265a8a3b5c20fde4.txt, Aim: only the first attack this round rerolls; a
    second attack (a bought major action) rolls plain, and Aim is taken once a round."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    a.set_pool(0, 2)
    a.act("aim")
    a.act("attack dum")
    a.rig.d20(14, 16, 18)  # 16 rerolled to 18: a miss
    a.act("buy 0")
    assert "aim" not in a.legal()
    a.rig.d20(14, 16)
    t = roll_of(a.act("attack dum"))
    assert t.faces == [14, 16] and t.rerolled == ""
    a.done()


def test_aim_after_an_attack_does_not_help_a_later_one():
    """Seed 002_265a8a3b5c20fde4.txt, Aim: the reroll is for the first attack this round;
    aiming after that attack leaves the second one (a bought major action) unaided."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    a.set_pool(0, 2)
    a.act("attack dum")
    a.rig.d20(14, 16)
    a.act("buy 0")
    a.act("aim")
    a.rig.d20(14, 16)
    t = roll_of(a.act("attack dum"))
    assert t.faces == [14, 16] and t.rerolled == "" and a.pool(0) == 0
    a.done()


def test_aim_expires_with_the_round():
    """Seed 002_265a8a3b5c20fde4.txt, Aim: "this round": aim taken in the opening turn does
    not help an attack in round 1."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    a.act("aim")
    a.act("end")
    assert a.whose() == "ann" and a.b.round == 1
    a.rig.d20(14, 16)
    t = roll_of(a.act("attack dum"))
    assert t.rerolled == "" and not t.passed


# --- Draw item ----------------------------------------------------------------------------

def test_draw_switches_the_held_weapon():
    """Seed 002_265a8a3b5c20fde4.txt, Draw Item (minor): draw an item (here a weapon; the
    one held is put away). The knife then needs the target within reach."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    legal = a.legal()
    assert "draw 1" in legal and "draw 0" not in legal
    assert "attack dum" in legal
    a.act("draw 1")
    assert a.c("ann").active_weapon == 1 and a.c("ann").weapon.id == "knife"
    assert "attack dum" not in a.legal()


# --- Move and Sprint ----------------------------------------------------------------------

def test_move_goes_one_zone_and_sprint_two():
    """Seed 002_265a8a3b5c20fde4.txt, Move (minor, movement): up to one zone; Sprint
    (major, movement): up to two zones. Zones are 6 x 6 squares here."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    assert _zone(a, "ann") == 0
    ev = a.act("move toward dum")
    assert [e for e in ev if isinstance(e, Moved)] and _zone(a, "ann") == 1
    a.act("end")
    a.act("sprint toward dum")
    assert _zone(a, "ann") == 3


def test_move_and_sprint_away():
    """Seed 002_265a8a3b5c20fde4.txt, Move / Sprint: one or two zones, away from a foe
    too; no step away is offered from the map's last zone."""
    a = arena([F("hero", (14, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    a.act("move away dum")
    assert _zone(a, "ann") == 1
    a.act("end")
    a.act("sprint away dum")
    assert _zone(a, "ann") == 0
    a.act("end")
    assert "move away dum" not in a.legal()


def test_moving_away_within_the_last_zone():
    """Seed 002_265a8a3b5c20fde4.txt, Move: "up to one zone, to any position within Medium
    range". Reading: with no zone farther from the foe (here a one-zone room), a move away
    goes to the free square of this zone farthest from it, out of its reach; none is
    offered once no square is farther."""
    room = "\n".join(["." * 6] * 4)
    a = arena([F("hero", (0, 1), "ann"), F("dummy", (0, 0), "dum", side=1)], rows=room)
    assert zones_for(a.b.grid).count == 1
    walk = a.b.grid.walk_distances(a.c("dum").pos)
    a.act("move away dum")
    ann = a.c("ann").pos
    assert walk[ann] == max(walk[s] for s in zones_for(a.b.grid).cells(0) if s != a.c("dum").pos)
    assert a.b.grid.dist(ann, a.c("dum").pos) > 1
    a.act("end")
    a.pass_to("ann")
    assert "move away dum" not in a.legal() and "sprint away dum" not in a.legal()


def test_moving_toward_a_foe_in_the_next_zone_ends_within_its_reach():
    """Seed 002_265a8a3b5c20fde4.txt, Move: "to any position within Medium range"; reading:
    moving toward a foe in the zone reached stops on the free square nearest it."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]), F("dummy", (8, 2), "dum", side=1)])
    a.act("move toward dum")
    assert a.b.grid.dist(a.c("ann").pos, a.c("dum").pos) == 1
    assert "move toward dum" not in a.legal()


def test_a_gunman_moving_toward_a_foe_stops_out_of_reach():
    """Seed 003_938882289c4f9016.txt, Ranged Attacks Within Reach (+2 to a gun in an
    enemy's reach); reading: one holding a gun who moves toward a foe stops on the nearest
    free square of the zone reached that no enemy can reach; a move toward it within that
    zone gets no nearer without stepping into reach, so none is offered."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (8, 2), "dum", side=1),
               F("dummy", (8, 4), "dee", side=1)])
    assert a.c("ann").weapon.f2d20.skill == "small_guns"
    a.act("move toward dum")
    ann = a.c("ann").pos
    z = zones_for(a.b.grid)
    assert z.zone_of[ann] == z.zone_of[a.c("dum").pos]
    assert min(a.b.grid.dist(ann, a.c(x).pos) for x in ("dum", "dee")) == 2
    a.act("end")
    a.pass_to("ann")
    assert "move toward dum" not in a.legal()


# --- Take chem (stimpak) ------------------------------------------------------------------

def test_stimpak_is_a_minor_action_healing_four():
    """Seed 002_265a8a3b5c20fde4.txt, Take Chem (minor) and Healing in Combat: a stimpak
    restores HP; reading: the item's f2d20_heal (4 here), up to the maximum, one dose used."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    ann = a.c("ann")
    ann.hp = 5
    a.set_pool(0, 1)
    a.act("draw_chem stimpak")
    ev = a.act("stimpak self")  # the second minor action, bought with 1 AP
    (h,) = [e for e in ev if isinstance(e, Healed)]
    assert (h.healed, ann.hp, ann.items["stimpak"], a.pool(0)) == (4, 9, 1, 0)
    assert h.text() == "ann uses a test stimpak: 4 HP healed (HP 9/12)"
    assert "ready" in a.legal() and "draw_chem stimpak" not in a.legal()  # minors spent


def test_a_chem_must_be_drawn_before_it_is_taken():
    """Seed 002_265a8a3b5c20fde4.txt, Take Chem: "If you're not holding the chem, then you
    need to draw it first" (Draw Item, a minor action). Reading: the chem is drawn into the
    free hand and the weapon stays in hand (it can still attack); the dose taken, the hand
    is empty, and the next dose is drawn again."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    ann = a.c("ann")
    ann.hp = 5
    assert "stimpak self" not in a.legal() and "draw_chem stimpak" in a.legal()
    ev = a.act("draw_chem stimpak")
    assert notes(ev) == ["ann draws a test stimpak (2 left; test pistol stays in hand)."]
    assert "stimpak self" not in a.legal()  # the minor action is spent: 1 AP for another
    assert "attack dum" in a.legal() and ann.active_weapon == 0
    a.act("end")
    a.pass_to("ann")
    assert "stimpak self" in a.legal() and "draw_chem stimpak" not in a.legal()
    a.act("stimpak self")
    assert (ann.hp, ann.items["stimpak"]) == (9, 1)
    assert "stimpak self" not in a.legal()
    a.act("end")
    a.pass_to("ann")
    assert "stimpak self" not in a.legal() and "draw_chem stimpak" in a.legal()
    ann.items["stimpak"] = 0
    assert "draw_chem stimpak" not in a.legal()


def test_stimpak_on_a_willing_ally_within_reach():
    """Seed 002_265a8a3b5c20fde4.txt, Take Chem: yourself or a willing character within
    your reach (reading: an ally on a square next to you)."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (3, 3), "bea", initiative=5),
               F("hero", (2, 5), "cyd", initiative=4), F("dummy", (27, 2), "dum", side=1)])
    a.c("bea").hp = 6
    a.c("cyd").hp = 6
    a.c("ann").cond["chem"] = "stimpak"  # drawn earlier
    assert "stimpak bea" in a.legal() and "stimpak cyd" not in a.legal()
    a.act("stimpak bea")
    assert a.c("bea").hp == 10


def test_stimpak_does_not_restore_radiation_damage():
    """Seed 002_265a8a3b5c20fde4.txt, Radiation Damage: only RadAway and the like remove
    radiation damage, so healing stops at the lowered maximum."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    ann = a.c("ann")
    ann.max_hp, ann.hp = 10, 8
    ann.cond["chem"] = "stimpak"
    a.act("stimpak self")
    assert (ann.hp, ann.max_hp) == (10, 10)


def test_stimpak_cannot_reach_the_dying():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: a dying
    character is unconscious; reading: a stimpak cannot target one (first aid can)."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (3, 2), "bea", initiative=5),
               F("dummy", (27, 2), "dum", side=1)])
    make_dying(a, "bea")
    a.c("ann").cond["chem"] = "stimpak"
    assert "stimpak bea" not in a.legal()
    assert "first_aid bea" in a.legal()


# --- Defend -------------------------------------------------------------------------------

def test_defend_adds_one_to_defense_until_your_next_turn():
    """Seed 002_265a8a3b5c20fde4.txt, Defend (major): AGI + Athletics (8 + 2 = 10) at a
    difficulty of the current Defense (1); success adds +1 Defense; reading: until the
    start of the defender's next turn."""
    a = arena([F("hero", (2, 2), "ann"), F("raider", (4, 2), "rad", side=1)])
    a.rig.d20(9, 15)
    t = roll_of(a.act("defend"))
    assert (t.target, t.difficulty, t.successes, t.passed) == (10, 1, 1, True)
    assert "defend" not in a.legal() and "rally" not in a.legal()
    a.act("end")
    a.act("end")  # ann in round 1: the bonus is gone from here on
    assert a.whose() == "rad"
    diff, parts = a.rs.attack_difficulty(a.b, a.c("rad"), a.c("ann"), 0, None)
    assert diff == 1 and ("defending", 1) not in parts


def test_defend_bonus_raises_attack_difficulty():
    """Seed 002_265a8a3b5c20fde4.txt, Defend: the +1 Defense makes attacks on the defender
    harder (the raider's Body + Guns test against Defense 1 + 1)."""
    a = arena([F("raider", (4, 2), "rad", side=1), F("hero", (2, 2), "ann")])
    a.act("end")  # ann's opening turn; round 1: ann, rad
    a.rig.d20(9, 15)
    a.act("defend")
    a.act("end")
    assert a.whose() == "rad"
    a.rig.d20(6, 15)
    t = roll_of(a.act("attack ann"))
    assert ("defending", 1) in t.parts and t.difficulty == 2 and not t.passed


def test_defend_two_ap_buy_another_plus_one():
    """Seed 002_265a8a3b5c20fde4.txt, Defend: for 2 AP, add another +1 to Defense; the
    defender decides after the test succeeds."""
    a = arena([F("hero", (2, 2), "ann"), F("raider", (4, 2), "rad", side=1)])
    a.set_pool(0, 2)
    a.rig.d20(9, 15)
    a.act("defend")
    assert a.whose() == "ann" and a.slot == "defend"
    assert a.legal() == {"boost 0", "boost 1"}
    ev = a.act("boost 1")
    assert a.pool(0) == 0 and a.c("ann").cond["defend"] == 2
    assert any("2 AP for another +1 Defense" in n for n in notes(ev))
    diff, parts = a.rs.attack_difficulty(a.b, a.c("rad"), a.c("ann"), 0, None)
    assert diff == 3 and ("defending", 2) in parts


def test_defend_extra_needs_two_ap():
    """Seed 002_265a8a3b5c20fde4.txt, Defend: the extra +1 costs 2 AP; with less the
    defender is not asked."""
    a = arena([F("hero", (2, 2), "ann"), F("raider", (4, 2), "rad", side=1)])
    a.set_pool(0, 1)
    a.rig.d20(9, 15)
    a.act("defend")
    assert a.slot == "act" and a.c("ann").cond["defend"] == 1


def test_a_failed_defend_adds_nothing():
    """Seed 002_265a8a3b5c20fde4.txt, Defend: only a success adds Defense."""
    a = arena([F("hero", (2, 2), "ann"), F("raider", (4, 2), "rad", side=1)])
    a.rig.d20(15, 16)
    a.act("defend")
    assert a.slot == "act" and not a.c("ann").cond.get("defend")
    assert "defend" not in a.legal()  # the major action is spent


# --- First aid ----------------------------------------------------------------------------

def test_first_aid_heals_medicine_rank_hp():
    """Seed 002_265a8a3b5c20fde4.txt, First Aid (major): INT + Medicine (7 + 3 = 10, tag 3)
    at a difficulty of the patient's injuries; success can heal HP equal to the medic's
    Medicine rank (3)."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (3, 2), "bea", initiative=5),
               F("dummy", (27, 2), "dum", side=1)])
    bea = a.c("bea")
    bea.hp, bea.crippled["arm"] = 5, 1
    a.rig.d20(10, 15)
    ev = a.act("first_aid bea")
    t = roll_of(ev)
    assert (t.target, t.tag, t.difficulty, t.passed) == (10, 3, 1, True)
    (h,) = [e for e in ev if isinstance(e, Healed)]
    assert (h.healed, bea.hp, bea.crippled["arm"]) == (3, 8, 1)


def test_first_aid_treats_an_injury():
    """Seed 002_265a8a3b5c20fde4.txt, First Aid: success can treat one injury. Reading:
    chosen when the patient is at full HP; the treated injury no longer counts."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (3, 2), "bea", initiative=5),
               F("dummy", (27, 2), "dum", side=1)])
    bea = a.c("bea")
    bea.crippled["arm"] = 1
    bea.crippled["leg"] = 1
    a.rig.d20(2, 15)  # 2 successes (tag) against 2 injuries
    ev = a.act("first_aid bea")
    assert roll_of(ev).difficulty == 2
    assert sum(bea.crippled.values()) == 1 and bea.crippled["arm"] == 0
    assert any("arm injury treated" in n for n in notes(ev))


def test_first_aid_stabilizes_the_dying():
    """Seed 002_265a8a3b5c20fde4.txt, First Aid: success can stabilize a dying patient
    (who cannot recover HP from First Aid); a stable character makes no more dying tests."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (3, 2), "bea", initiative=5),
               F("dummy", (27, 2), "dum", side=1)])
    make_dying(a, "bea", injuries=2)
    a.rig.d20(9, 10)
    ev = a.act("first_aid bea")
    assert roll_of(ev).difficulty == 2
    bea = a.c("bea")
    assert bea.cond.get("stable") and bea.hp == 0 and bea.status == UNCONSCIOUS
    assert "first_aid bea" not in a.legal()
    a.act("end")
    a.act("end")  # ann, round 1; bea's turn passes with no dying test (no dice scripted)
    assert a.whose() == "dum"


def test_first_aid_on_yourself_is_one_harder():
    """Seed 002_265a8a3b5c20fde4.txt, First Aid: +1 difficulty on yourself."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    ann = a.c("ann")
    ann.hp = 4
    a.rig.d20(10, 15)
    t = roll_of(a.act("first_aid self"))
    assert ("on yourself", 1) in t.parts and t.difficulty == 1 and t.passed
    assert ann.hp == 7


def test_a_medic_without_medicine_ranks_treats_an_injury():
    """Seed 002_265a8a3b5c20fde4.txt, First Aid: heal HP equal to your Medicine rating, so
    a medic of rank 0 heals nothing; reading: such a medic treats an injury instead."""
    a = arena([F("hero", (2, 2), "ann", skills={"medicine": 0}),
               F("hero", (3, 2), "bea", initiative=5), F("dummy", (27, 2), "dum", side=1)])
    bea = a.c("bea")
    bea.hp, bea.crippled["arm"] = 5, 1
    a.rig.d20(7, 15)  # INT 7 + 0: one success against 1 injury
    a.act("first_aid bea")
    assert bea.hp == 5 and bea.crippled["arm"] == 0


def test_a_failed_first_aid_does_nothing():
    """Seed 002_265a8a3b5c20fde4.txt, First Aid: the effects need a success."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (3, 2), "bea", initiative=5),
               F("dummy", (27, 2), "dum", side=1)])
    bea = a.c("bea")
    bea.hp, bea.crippled["arm"] = 5, 1
    a.rig.d20(15, 16)
    a.act("first_aid bea")
    assert bea.hp == 5 and bea.crippled["arm"] == 1


def test_first_aid_reaches_an_adjacent_patient_in_need():
    """Seed 002_265a8a3b5c20fde4.txt, First Aid: yourself or an ally; reading: the ally
    must be next to you, and hurt, injured or dying."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (3, 2), "bea", initiative=5),
               F("hero", (2, 4), "cyd", initiative=4), F("dummy", (27, 2), "dum", side=1)])
    assert not {"first_aid bea", "first_aid cyd", "first_aid self"} & a.legal()
    a.c("bea").hp = 10
    a.c("cyd").hp = 10
    legal = a.legal()
    assert "first_aid bea" in legal and "first_aid cyd" not in legal


def test_first_aid_with_no_injuries_needs_no_roll():
    """Seed 003_938882289c4f9016.txt, Sneak Attacks: difficulty 0 needs no roll; first
    aid on an uninjured ally is difficulty 0 and simply heals."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (3, 2), "bea", initiative=5),
               F("dummy", (27, 2), "dum", side=1)])
    a.c("bea").hp = 5
    t = roll_of(a.act("first_aid bea"))
    assert t.faces == [] and t.passed and a.c("bea").hp == 8
    a.done()


# --- Rally --------------------------------------------------------------------------------

def test_rally_rolls_at_difficulty_zero_and_saves_the_ap():
    """Seed 002_265a8a3b5c20fde4.txt, Rally (major): END + Survival (6 + 2 = 8) at
    difficulty 0, and keep the AP generated (1 and 8: three successes, 3 AP)."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    a.rig.d20(1, 8)
    t = roll_of(a.act("rally"))
    assert (t.target, t.difficulty, t.successes, t.ap_gained) == (8, 0, 3, 3)
    assert a.pool(0) == 3


def test_rally_complications_feed_the_other_side():
    """RULES.md, Fallout 2d20: a 20 is a complication on any test, Rally included;
    reading: 1 AP to each opposing side."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    a.rig.d20(20, 5)
    t = roll_of(a.act("rally"))
    assert (t.successes, t.complications, t.ap_gained) == (1, 1, 1)
    assert a.pool(0) == 1 and a.pool(1) == 1


# --- Ready --------------------------------------------------------------------------------

def test_readied_attack_interrupts_an_enemy_move():
    """Seed 002_265a8a3b5c20fde4.txt, Ready (major): choose a situation and a major action;
    when it happens before your next turn, act at once, interrupting. Reading: an attack
    with the held weapon, when an enemy ends a move where it can be attacked."""
    a = arena([F("hero", (2, 2), "ann"), F("raider", (27, 2), "rad", side=1)])
    a.act("ready")
    a.act("end")
    a.act("ready")
    a.act("end")
    assert a.whose() == "rad"
    ev = a.act("move toward ann")
    assert [e for e in ev if isinstance(e, ReactionOffered)]
    assert a.whose() == "ann" and a.slot == "free"
    assert {"end", "attack rad", "attack rad head"} <= a.legal()
    a.rig.d20(1, 2, 5)  # range: rad is 3 zones away, pistol Close: +3 -> difficulty 4
    t = roll_of(a.act("attack rad"))
    assert t.difficulty == 4 and t.passed
    assert a.whose() == "ann" and a.slot == "boost"
    a.rig.d6(3, 3, 3)
    a.act("boost 0")
    assert a.whose() == "rad" and not a.c("ann").readied


def test_readied_melee_attack_needs_the_enemy_within_reach():
    """Seed 002_265a8a3b5c20fde4.txt, Ready and Making an Attack: a melee attack needs the
    target within reach, so a move that stops short triggers nothing."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"]),
               F("raider", (20, 2), "rad", side=1, attacks=["knife"])])
    a.act("end")
    a.act("ready")
    a.act("end")
    ev = a.act("move toward ann")  # one zone: still far away
    assert not [e for e in ev if isinstance(e, ReactionOffered)]
    a.act("end")
    a.act("ready")
    a.act("end")
    a.act("sprint toward ann")  # two zones: next to ann
    assert a.b.grid.dist(a.c("ann").pos, a.c("rad").pos) == 1
    assert a.whose() == "ann" and a.slot == "free"


def test_readied_actions_go_in_initiative_order():
    """Seed 002_265a8a3b5c20fde4.txt, Ready: readied actions for the same situation
    happen in initiative order (bea, slot 0, is slower than ann)."""
    a = arena([F("hero", (2, 4), "bea", initiative=12), F("hero", (2, 2), "ann"),
               F("raider", (27, 2), "rad", side=1)])
    a.act("end")  # ann's opening turn
    a.act("ready")  # ann
    a.act("end")
    a.act("ready")  # bea
    a.act("end")
    a.act("move toward ann")
    assert a.whose() == "ann" and a.slot == "free"
    a.act("end")
    assert a.whose() == "bea" and a.slot == "free"
    a.act("end")
    assert a.whose() == "rad" and a.slot == "act"


def test_a_declined_readied_attack_stays_ready():
    """Seed 002_265a8a3b5c20fde4.txt, Ready: you *may* act when the situation comes;
    reading: declining (`end`) keeps the attack readied for a later trigger."""
    a = arena([F("hero", (2, 2), "ann"), F("raider", (27, 2), "rad", side=1)])
    a.act("end")
    a.act("ready")
    a.act("end")
    a.act("move toward ann")
    assert a.slot == "free"
    a.act("end")
    assert a.whose() == "rad" and a.slot == "act" and a.c("ann").readied


def test_a_readied_action_lasts_until_your_next_turn():
    """Seed 002_265a8a3b5c20fde4.txt, Ready: the trigger must come before the start of
    your next turn."""
    a = arena([F("hero", (2, 2), "ann"), F("raider", (27, 2), "rad", side=1)])
    a.act("ready")
    assert a.c("ann").readied
    a.act("end")
    assert a.whose() == "ann" and not a.c("ann").readied


# --- Burrow (a creature ability) ----------------------------------------------------------

def test_burrow_hides_a_creature_until_it_attacks():
    """Reading: a burrowing creature may burrow as a minor action (the `cover` action);
    it cannot be attacked until it moves or attacks, and attacking from the burrow is a
    sneak attack (-1 difficulty: Defense 1 becomes 0, no roll; Vicious)."""
    a = arena([F("beast", (2, 2), "bst", abilities=["burrow"], initiative=20),
               F("hero", (3, 2), "ann", side=1)])
    assert "cover" in a.legal()
    a.act("cover")
    assert a.c("bst").cond.get("burrowed")
    a.act("end")  # bst's opening turn; round 1: bst, ann
    a.act("end")
    assert a.whose() == "ann"
    assert not any(x.startswith("attack bst") for x in a.legal())
    a.act("end")
    a.rig.d20(5)  # no test (difficulty 0): only the hit location
    a.rig.d6(5, 3, 3)  # 1 damage + Vicious 1 = 2 (torso, no DR)
    a.act("attack ann")
    ev = a.act("noroll")
    t = roll_of(ev)
    assert t.faces == [] and ("sneak attack", -1) in t.parts and t.difficulty == 0
    assert a.c("ann").hp == 10
    assert not a.c("bst").cond.get("burrowed")


def test_moving_ends_a_burrow():
    """Reading: a burrowed creature that moves comes out; burrowing is the turn's
    movement action, so the move comes on a later turn."""
    a = arena([F("beast", (2, 2), "bst", abilities=["burrow"], initiative=20),
               F("hero", (27, 2), "ann", side=1)])
    a.act("cover")
    assert not any(x.startswith(("move", "sprint")) for x in a.legal())
    a.act("end")
    a.pass_to("bst")
    a.act("sprint toward ann")
    assert not a.c("bst").cond.get("burrowed")


def test_no_burrowing_after_an_attack_in_the_same_turn():
    """Reading: a burrower that attacked this turn cannot burrow again until its next turn
    (otherwise it would never be in sight on anyone else's turn)."""
    a = arena([F("beast", (2, 2), "bst", abilities=["burrow"], initiative=20),
               F("hero", (3, 2), "ann", side=1)])
    a.rig.d20(5, 5, 10)
    a.rig.d6(3, 3, 3)
    a.act("attack ann")
    assert "cover" not in a.legal()


def test_only_burrowers_burrow():
    """Reading: `cover` (burrow) is offered only to creatures with the ability."""
    a = arena([F("beast", (2, 2), "bst"), F("hero", (27, 2), "ann", side=1)])
    assert "cover" not in a.legal()
    assert a.c("bst").status == ACTIVE and not rolls([])
