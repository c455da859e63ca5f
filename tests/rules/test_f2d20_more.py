"""The Fallout 2d20 rules added for issue 9: a torso called shot, the Strength melee
bonus, attacks on the dying, prone and standing up, Rally with CHA + Speech, Assist, a
readied Defend, thrown explosives boosted with AP, and whole-body radiation (seed 002:
Actions, Making an Attack, Increasing Damage, Critical Hits, Injuries, and Dying,
Radiation Damage; seed 003: Increasing Damage, Hit Locations)."""

from __future__ import annotations

from wasteland.rules.battle import UNCONSCIOUS
from wasteland.rules.events import CombatDiceRolled

from .kit2d20 import F, arena, hits, make_dying, notes, roll_of


def _diff(a, attacker, target, location=None):
    c = a.c(attacker)
    return a.rs.attack_difficulty(a.b, c, a.c(target), c.active_weapon, location)


# --- called shots -------------------------------------------------------------------------

def test_a_called_shot_at_the_torso():
    """Seed 002_265a8a3b5c20fde4.txt, Choose Hit Location (and seed 003 Hit Locations: the
    torso is one of the six): choosing the torso adds +1 and a hit strikes it without a
    location roll (`called X torso`, appended to the action table)."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (4, 2), "dum", side=1)])
    assert "called dum torso" in a.legal()
    a.rig.d20(5, 6).push(6, 2, 2, 2)  # two successes; no location roll; 6 damage
    ev = a.act("called dum torso")
    t = roll_of(ev)
    assert ("chosen location", 1) in t.parts and t.difficulty == 2 and t.passed
    a.act("boost 0")
    a.done()
    assert a.c("dum").crippled == {"torso": 1}


# --- Strength ------------------------------------------------------------------------------

def test_strength_adds_combat_dice_to_a_characters_melee_attacks():
    """Seed 002_265a8a3b5c20fde4.txt, Inflict Damage: "plus any bonuses from derived
    statistics". Reading (the published game): STR 7-8 +1 CD, 9-10 +2, 11+ +3, for melee
    and unarmed attacks of characters; the hero at STR 9 rolls its knife's 2 CD + 2."""
    a = arena([F("hero", (2, 2), "ann", attacks=["knife"],
                 special={"strength": 9, "perception": 7, "endurance": 6, "charisma": 5,
                          "intelligence": 7, "agility": 8, "luck": 5}),
               F("dummy", (3, 2), "dum", side=1)])
    a.rig.d20(5, 6, 5).push(6, 1, 1, 1, 1)
    a.act("attack dum")
    (h,) = hits(a.act("boost 0"))
    assert len(h.faces) == 4 and h.damage == 4 and "+2 CD for STR 9" in h.text()
    a.done()


def test_no_strength_bonus_for_guns_low_strength_or_creatures():
    """Reading (seed 002 Inflict Damage): no bonus under STR 7, none for ranged weapons,
    none for creatures (their attacks' CD include it, as in published creature blocks)."""
    from wasteland.rules.f2d20 import stats as S

    def strong(st):
        return {"strength": st, "perception": 7, "endurance": 6, "charisma": 5,
                "intelligence": 7, "agility": 8, "luck": 5}
    a = arena([F("hero", (2, 2), "ann", special=strong(11)), F("hero", (5, 2), "bea",
                                                               special=strong(8)),
               F("hero", (8, 2), "cyd", special=strong(6)), F("raider", (3, 3), "rai", side=1)])
    ann, bea, cyd, rai = (a.c(x) for x in ("ann", "bea", "cyd", "rai"))
    assert [S.melee_bonus(ann, ann.weapons[i]) for i in (0, 1)] == [0, 3]
    assert S.melee_bonus(bea, bea.weapons[1]) == 1 and S.melee_bonus(cyd, cyd.weapons[1]) == 0
    assert S.melee_bonus(rai, rai.weapons[1]) == 0


# --- the dying ------------------------------------------------------------------------------

def test_attacking_a_dying_character_adds_an_injury():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: a character at 0
    HP falls prone and is dying; "if they suffer any damage while dying, they immediately
    gain one additional injury". An enemy within reach may attack one; prone at Close
    range is -1 (reading, the published game), so Defense 1 becomes 0: no roll needed."""
    a = arena([F("hero", (10, 2), "ann"), F("hero", (3, 2), "bea"),
               F("raider", (4, 2), "rai", side=1, attacks=["knife"])])
    make_dying(a, "bea")
    a.c("bea").cond["prone"] = True
    a.c("bea").cond["stable"] = True
    a.pass_to("rai")
    assert "attack bea" in a.legal()
    assert _diff(a, "rai", "bea")[0] == 0
    a.act("attack bea")
    a.rig.d20(5).push(6, 1, 1)  # torso; 2 damage
    ev = a.act("noroll")
    bea = a.c("bea")
    assert bea.status == UNCONSCIOUS and bea.crippled == {"torso": 2}
    assert not bea.cond.get("stable") and any("damage while dying" in n for n in notes(ev))


def test_falling_to_0_hp_leaves_a_character_prone():
    """Seed 002_265a8a3b5c20fde4.txt, Critical Hits, Injuries, and Dying: at 0 HP the
    character falls prone (so a later attack at Close range is 1 easier)."""
    a = arena([F("raider", (2, 2), "rai", attacks=["knife"]), F("hero", (3, 2), "bea", side=1),
               F("hero", (12, 2), "ann", side=1)])
    a.c("bea").hp = 1
    a.rig.d20(5, 6, 5).push(6, 1, 1)
    a.act("attack bea")
    a.act("boost 0")
    assert a.c("bea").cond.get("prone") and a.c("bea").cond.get("dying")


# --- prone and standing up -----------------------------------------------------------------

def test_drop_prone_and_stand_up():
    """Seed 002_265a8a3b5c20fde4.txt, Move: "alternatively, stand up from the prone
    position" - standing is the turn's movement action (a minor action). Reading (the
    published game): dropping prone is a minor action; while prone a Move is a crawl (a
    major action) and Sprint is not possible."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    a.set_pool(0, 0)  # the minor action spent on dropping prone, only the major is free
    assert "prone" in a.legal() and "stand" not in a.legal()
    assert notes(a.act("prone")) == ["ann drops prone."]
    legal = a.legal()
    assert "move toward dum" in legal and "sprint toward dum" not in legal
    assert "prone" not in legal and "stand" not in legal  # no AP for a second minor
    a.act("move toward dum")  # a crawl: the free major action
    assert a.b.book.major == 1 and a.b.book.minor == 1
    assert "stand" not in a.legal()  # the movement action is spent
    a.act("end")
    a.pass_to("ann")
    assert "stand" in a.legal()
    a.act("stand")
    assert not a.c("ann").cond.get("prone") and a.b.book.moved
    assert not any(x.startswith(("move", "sprint")) for x in a.legal())


def test_prone_targets_are_harder_to_shoot_from_afar_and_easier_up_close():
    """Reading (the published game's prone; seed 002 names falling prone): attacks from
    Medium range or farther +1, from Close range (melee included) -1, at least 0."""
    a = arena([F("hero", (2, 2), "ann"), F("hero", (8, 2), "bea"),
               F("dummy", (4, 2), "dum", side=1)])
    a.c("dum").cond["prone"] = True
    assert _diff(a, "ann", "dum") == (0, [("Defense", 1), ("prone target, close", -1)])
    assert ("prone target, medium or farther", 1) in _diff(a, "bea", "dum")[1]
    assert _diff(a, "bea", "dum")[0] == 3  # Defense 1, range medium vs close +1, prone +1


# --- Rally with another attribute and skill ------------------------------------------------

def test_rally_with_charisma_and_speech():
    """Seed 002_265a8a3b5c20fde4.txt, Rally: the GM may allow another attribute + skill,
    "such as CHA + Speech to inspire your allies". Reading: `rally_with speech` rolls CHA
    + Speech (the hero: CHA 5 + Speech 2 = 7), a creature Mind + Other; it is offered only
    with an ally standing to inspire."""
    a = arena([F("hero", (2, 2), "ann", skills={"speech": 2}), F("hero", (6, 2), "bea"),
               F("dummy", (27, 2), "dum", side=1)])
    a.rig.d20(7, 8)
    t = roll_of(a.act("rally_with speech"))
    assert (t.target, t.successes, t.ap_gained) == (7, 1, 1)
    assert t.what == "rallies (CHA + Speech)"
    alone = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1)])
    assert "rally" in alone.legal() and "rally_with speech" not in alone.legal()
    c = arena([F("raider", (2, 2), "rai"), F("raider", (3, 2), "rob"),
               F("hero", (27, 2), "ann", side=1)])
    c.rig.d20(5, 6)
    t = roll_of(c.act("rally_with speech"))
    assert t.target == 5  # Mind 4 + Other 1


# --- Assist ---------------------------------------------------------------------------------

def _assisting(defense, at):
    """ann (Initiative 20) opens and passes; in round 1 bea assists ann, whose next turn
    (round 2) comes before bea's."""
    a = arena([F("hero", (3, 4), "ann", initiative=20), F("hero", (2, 2), "bea"),
               F("dummy", at, "dum", side=1, defense=defense)])
    a.act("end")
    a.act("end")
    a.pass_to("bea")
    a.act("assist ann")
    a.act("end")
    a.pass_to("ann")
    assert a.c("ann").cond.get("assist") == a.c("bea").slot
    return a


def test_assist_adds_the_helpers_d20_to_the_next_test():
    """Seed 002_265a8a3b5c20fde4.txt, Assist (major): you assist another character with
    their next test. Reading (the published rule): the helper rolls 1d20 against its own
    target number for the same skill and adds its successes if the leader scored one."""
    a = _assisting(defense=2, at=(5, 4))
    a.rig.d20(5, 15, 9, 5)  # ann: 5 (1 success), 15; bea: 9 <= 11 (1 success); location
    ev = a.act("attack dum")
    t = roll_of(ev)
    assert (t.successes, t.difficulty, t.passed) == (2, 2, True)
    assert "bea assists ann: 1d20 (9) vs TN 11, tag 3 = 1 success." in notes(ev)
    assert "assist" not in a.c("ann").cond


def test_assistance_does_not_count_when_the_leader_scores_nothing():
    """Seed 002_265a8a3b5c20fde4.txt, Assist; reading (published): the helper's successes
    count only if the leader's own dice score at least one."""
    a = _assisting(defense=1, at=(5, 4))
    a.rig.d20(15, 16, 1)
    ev = a.act("attack dum")
    t = roll_of(ev)
    assert t.successes == 0 and not t.passed
    assert any("not counted (ann scored none)" in n for n in notes(ev))


def test_assistance_lasts_until_the_helpers_next_turn():
    """Reading (seed 002 Assist: "their next test"): unused assistance lapses at the start
    of the helper's next turn."""
    a = arena([F("hero", (2, 2), "bea", initiative=20), F("hero", (3, 4), "ann"),
               F("dummy", (27, 2), "dum", side=1)])
    a.act("assist ann")
    assert a.c("ann").cond.get("assist") == a.c("bea").slot
    a.act("end")  # round 1: bea (20) first: the assistance lapses before ann's turn
    a.pass_to("bea")
    assert "assist" not in a.c("ann").cond


# --- Ready for a Defend ---------------------------------------------------------------------

def test_a_readied_defend_interrupts_an_enemy_coming_within_reach():
    """Seed 002_265a8a3b5c20fde4.txt, Ready: choose a situation and a major action other
    than an attack. Reading: `ready_to defend`: when an enemy ends a move from where it can
    attack you, you may Defend at once (AGI + Athletics against your Defense)."""
    a = arena([F("hero", (2, 2), "ann", initiative=20),
               F("raider", (12, 2), "rai", side=1, attacks=["knife"])])
    a.act("end")  # the opening turn; round 1: ann, then rai
    a.act("ready_to defend")
    a.act("end")
    a.pass_to("rai")
    a.act("sprint toward ann")
    assert a.whose() == "ann" and a.legal() == {"defend", "end"}
    a.rig.d20(3, 12)  # AGI 8 + Athletics 2 = 10: one success vs Defense 1 (+2 in reach)
    t = roll_of(a.act("defend"))
    assert t.what.startswith("defends") and not t.passed and t.difficulty == 3


# --- thrown explosives ----------------------------------------------------------------------

def test_a_thrown_explosive_boosts_with_ap():
    """Seed 002_265a8a3b5c20fde4.txt, Increasing Damage: melee weapons "including unarmed
    attacks and thrown weapons" add +1 CD per AP (at most 3); a thrown weapon may be PER +
    Explosives (Making an Attack). Reading: an Explosives weapon with no magazine is
    thrown (a grenade); a launcher boosts with its rounds."""
    a = arena([F("hero", (2, 2), "ann", attacks=["frag"], ammo={"frag": 3}),
               F("dummy", (8, 2), "dum", side=1)])
    a.set_pool(0, 3)
    a.rig.d20(5, 6, 5)
    a.act("attack dum")
    a.act("buy 0")
    assert a.slot == "boost" and "boost 3" in a.legal() and "boost 4" not in a.legal()
    a.rig.push(6, 1, 1, 1, 1, 1)
    a.act("boost 2")
    assert a.pool(0) == 2  # 3 + 1 generated - 2 spent
    assert a.c("ann").ammo["frag"] == 2
    a.done()


# --- whole-body radiation -------------------------------------------------------------------

def test_a_radiant_aura_uses_the_lowest_radiation_dr():
    """Seed 002_265a8a3b5c20fde4.txt, Radiation Damage: radiation affecting the whole body
    uses the lowest locational radiation DR. Reading: a `radiant` creature deals 2
    radiation to everyone else in its zone at the end of its turn; the beast's lowest is
    its head's 1 (general 3, body 4): 2 - 1 = 1 off its maximum HP."""
    from wasteland.bestiary.models import DR2d20

    a = arena([F("dummy", (2, 2), "glo", abilities=["radiant"], initiative=20),
               F("beast", (4, 2), "bst", side=1,
                 dr=DR2d20(physical=1, radiation=3),
                 dr_by_location={"body": DR2d20(physical=3, radiation=4),
                                 "head": DR2d20(physical=2, radiation=1)}),
               F("hero", (20, 2), "far", side=1)])
    ev = a.act("end")
    bst = a.c("bst")
    assert bst.max_hp == 19 and a.c("far").max_hp == 12
    assert "glo irradiates bst: 2 radiation - lowest radiation DR 1 = 1." in notes(ev)
    (h,) = [e for e in ev if isinstance(e, CombatDiceRolled)]
    assert h.location == "head" and h.damage_type == "radiation" and h.dealt == 1
