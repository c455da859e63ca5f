"""Simple attacks and harm (seed 001_0912b5c6442fb3b1.txt: Calculating to Hit, Range
Penalty; Size, Stance and Range Penalties; Visibility Penalty; Proximity Penalty; Causing
Damage; Critical Hits; Critical Failure; Called Shots; Crippled Effects; Death and
Fatigue), with the normal skill check of RULES.md (2d10 + skill vs a difficulty)."""

from __future__ import annotations

import pytest

from wasteland.rules.battle import ACTIVE, DEAD, UNCONSCIOUS
from wasteland.rules.events import DamageDealt, SkillChecked
from wasteland.rules.simple.attack import attack_mods, can_attack
from wasteland.rules.simple.odds import hit_chance, p_2d10_at_least

from .kitsimple import SEED, creature, sarena

WIDE = "\n".join(["." * 24] * 3)


def duel(a_w=("pistol",), b_kw=None, at_b=(5, 0), rows=WIDE, lighting="clear", a_kw=None,
         third=False):
    fighters = [("ann", (0, 0), 0, creature("a", weapons=a_w, **(a_kw or {}))),
                ("bob", at_b, 1, creature("b", weapons=("knife",), **(b_kw or {})))]
    if third:
        fighters.append(("cal", (20, 2), 1, creature("c", weapons=("knife",))))
    return sarena(fighters, rows=rows, lighting=lighting)


def mods_of(a, loc=None):
    b = a.b
    return dict(attack_mods(b, a.c("ann"), a.c("bob"), 0, loc)[0])


def to_ann_action(a):
    """From the first move phase to ann's action phase (everyone ends)."""
    while a.whose() != ("ann", "action"):
        a.act("end")


@pytest.mark.parametrize("x,pen", [(2, 0), (3, -2), (4, -2), (5, -4), (6, -4), (7, -6),
                                   (8, -6), (9, -8), (16, -8)])
def test_range_bands(x, pen):
    """Seed 001, Range Penalty: point blank x1 none, close x2 -2, medium x3 -4, far x4 -6,
    maximum x8 -8."""
    a = duel(a_w=("derringer",), at_b=(x, 0))
    assert mods_of(a).get("range", 0) == pen


def test_nothing_beyond_maximum_range():
    a = duel(a_w=("derringer",), at_b=(17, 0))
    assert not can_attack(a.b, a.c("ann"), a.c("bob"), 0)
    assert can_attack(a.b, a.c("ann"), a.c("bob"), 0) is False
    a = duel(a_w=("derringer",), at_b=(16, 0))
    assert can_attack(a.b, a.c("ann"), a.c("bob"), 0)


@pytest.mark.parametrize("size,stance,x,pen", [
    ("small", "stand", 2, -2),   # twice as far: 4 hexes, close
    ("tiny", "stand", 2, -4),    # three times: 6, medium
    ("minute", "stand", 2, -6),  # four times: 8, far
    ("great", "stand", 4, 0),    # half as far: 2, point blank
    ("large", "crouch", 2, -2),  # crouching: one size smaller (small)
    ("large", "prone", 2, -4),   # prone: two smaller (tiny)
])
def test_size_and_stance_scale_the_range(size, stance, x, pen):
    """Seed 001, Size, Stance and Range Penalties."""
    a = duel(a_w=("derringer",), at_b=(x, 0), b_kw={"size": size})
    a.c("bob").cond["stance"] = stance
    assert mods_of(a).get("range", 0) == pen


def test_scope_within_point_blank():
    """Seed 001, Range Penalty (Special): a scope is -10 within point blank."""
    a = duel(a_w=("scoped_rifle",), at_b=(5, 0))
    assert mods_of(a)["scope within point blank"] == -10
    a = duel(a_w=("rifle",), at_b=(5, 0))
    assert "scope within point blank" not in mods_of(a)


@pytest.mark.parametrize("lighting,pen", [("clear", 0), ("obscured", -4),
                                          ("heavily_obscured", -8), ("barely_visible", -16),
                                          ("unseen", -20)])
def test_visibility_penalty(lighting, pen):
    """Seed 001, Visibility Penalty: partially obscured -4, moderately -8, heavily -16,
    completely -20 (reading for the map's light levels: obscured, heavily obscured, barely
    visible, unseen)."""
    a = duel(lighting=lighting)
    assert mods_of(a).get("visibility", 0) == pen


@pytest.mark.parametrize("lighting,pen", [("clear", -16), ("heavily_obscured", -16),
                                          ("unseen", -20)])
def test_fog_on_the_targets_hex_is_heavily_obscured(lighting, pen):
    """Seed 001, Visibility Penalty: heavily obscured (only vaguely made out) is -16; a
    target on a fog hex is barely visible (reading), and the worse of the light and its hex
    counts."""
    rows = "\n".join(["....." + "f" + "." * 18] + ["." * 24] * 2)
    a = duel(rows=rows, lighting=lighting)
    assert a.b.grid.xy(a.c("bob").pos) == (5, 0)
    assert mods_of(a)["visibility"] == pen
    to_ann_action(a)
    a.rig.push(10, 1, 1)
    chk = [e for e in a.act("attack bob") if isinstance(e, SkillChecked)][0]
    assert dict(chk.mods)["visibility"] == pen and chk.total == 2 + 8 + pen


@pytest.mark.parametrize("weapon,pen", [("pistol", -4), ("rifle", -8), ("knife", None)])
def test_proximity_penalty(weapon, pen):
    """Seed 001, Proximity Penalty: an enemy within one hex, -4 for one-handed ranged
    weapons, -8 for two-handed; melee weapons none."""
    a = duel(a_w=(weapon,), at_b=(1, 0))
    assert mods_of(a).get("enemy within 1 hex") == pen


def test_ted_critical_example():
    """Seed 001, Critical Hits: Ted, Luck 3, crits at 95 - 3 = 92; a 97 is a crit; his
    1d6+2 pistol's x2 makes (1d6+2) x2 = 2d6+4."""
    a = duel(a_kw={"luck": 3})
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 97).push(6, 3, 5)
    evs = a.act("attack bob")
    chk = [e for e in evs if isinstance(e, SkillChecked)][0]
    assert chk.crit_at == 92 and chk.crit_roll == 97 and chk.crit.startswith("critical")
    dmg = [e for e in evs if isinstance(e, DamageDealt)][0]
    assert dmg.dice == "2d6+4" and dmg.raw == 3 + 5 + 4
    assert a.c("bob").hp == 30 - 12


def test_a_critical_needs_the_luck_threshold():
    a = duel(a_kw={"luck": 3})
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 91).push(6, 3)
    evs = a.act("attack bob")
    assert [e for e in evs if isinstance(e, DamageDealt)][0].dice == "1d6+2"


def test_critical_failure_still_hits_then_jams_and_an_unload_clears_it():
    """Seed 001, Critical Failure: 5 or less on the crit roll still deals damage, and the
    gun jams (unload to clear) and is damaged."""
    a = duel()
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 5).push(6, 4)
    a.act("attack bob")
    assert a.c("bob").hp == 30 - 6
    assert a.c("ann").cond["jammed"] == [0]
    while a.whose() != ("ann", "action"):
        a.act("end")
    assert "unload" in a.legal() and not any(t.startswith("attack") for t in a.legal())
    assert "reload" not in a.legal()
    a.act("unload")
    assert a.c("ann").cond["jammed"] == [] and a.c("ann").weapon_states[0].loaded == 0
    assert mods_of(a)["damaged weapon"] == -2


def test_a_melee_weapon_is_damaged_not_jammed():
    a = duel(a_w=("knife",), at_b=(1, 0))
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 2).push(4, 1)
    a.act("attack bob")
    assert "jammed" not in a.c("ann").cond and a.c("ann").cond["damaged"] == [0]


def test_dt_is_taken_off_each_hit_by_damage_type_and_becomes_fatigue():
    """Seed 001, Causing Damage: the target's DT for the damage type, per hit. Reading:
    the damage DT stops becomes fatigue."""
    for weapon, dt in (("pistol", 2), ("laser", 1)):
        a = duel(a_w=(weapon,), b_kw={"armor": "leather"})
        to_ann_action(a)
        a.rig.push(10, 10, 10).push(100, 50)
        a.rig.push(6, 4) if weapon == "pistol" else a.rig.push(6, 2, 4)
        a.act("attack bob")
        raw = 6
        assert a.c("bob").hp == 30 - (raw - dt)
        assert a.c("bob").cond["fatigue"] == dt


def test_called_shot_counts_the_part_size_and_cripples_past_ten_percent():
    """Seed 001, Called Shots: an arm is tiny (x3 range); a hit over 10% of total HP
    cripples it."""
    a = duel(at_b=(3, 0))
    assert mods_of(a, "arm")["range"] == -2  # 3 hexes x3 = 9: close for PB 8
    assert "range" not in mods_of(a)  # the whole target: point blank
    assert mods_of(a, "torso").get("range", 0) == 0  # small: x2 = 6
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 50).push(6, 2)  # 4 damage, over 3 (10% of 30)
    a.act("attack bob arm")
    assert a.c("bob").crippled == {"arm": 1}
    b = duel(at_b=(3, 0))
    to_ann_action(b)
    b.rig.push(10, 10, 10).push(100, 50).push(6, 1)  # 3: not over 10%
    b.act("attack bob arm")
    assert b.c("bob").crippled == {}


def test_crippled_limbs():
    """Seed 001, Crippled Effects: an arm -8 (reading: to two-handed weapons); two crippled
    legs halve movement; more than two legs need all crippled."""
    a = duel(a_w=("rifle",), at_b=(6, 0))
    a.c("ann").crippled["arm"] = 1
    assert mods_of(a)["crippled arm"] == -8
    from wasteland.rules.simple.stats import move_hexes

    bob = a.c("bob")
    bob.crippled["leg"] = 1
    assert move_hexes(bob) == 4
    bob.crippled["leg"] = 2
    assert move_hexes(bob) == 2
    c = duel(b_kw={"legs": 6}).c("bob")
    c.crippled["leg"] = 5
    assert move_hexes(c) == 4
    c.crippled["leg"] = 6
    assert move_hexes(c) == 2


def test_bleeding_out_and_death_after_ten_plus_endurance():
    """Seed 001, Death and Fatigue: at 0 HP unconscious, 1 HP lost each round after, dead
    once 10 + END more are lost."""
    a = duel(third=True, b_kw={"endurance": 2, "hp": 4})
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 50).push(6, 2)  # 4 damage: to 0 HP
    a.act("attack bob")
    bob = a.c("bob")
    # ann acts first in the action phase; the next round's upkeep has bled bob once
    assert bob.status == UNCONSCIOUS and bob.hp == -1 and bob.cond["bleeding"]
    seen = []
    while bob.status != DEAD:
        assert a.b.round < 40
        seen.append((a.b.round, bob.hp, bob.status))
        a.act("end")
    assert bob.hp == -12  # 10 + END 2 lost after 0 HP
    assert (a.b.round - 1, -11, UNCONSCIOUS) in seen  # alive, unconscious, one HP before


def test_a_stimpak_staunches_bleeding_out():
    a = duel(third=True, b_kw={"hp": 4}, at_b=(5, 0))
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 50).push(6, 2)
    a.act("attack bob")
    bob = a.c("bob")
    cal = a.c("cal")
    a.b.set_pos(cal, a.b.grid.index(5, 1))
    while a.whose() != ("cal", "action"):
        a.act("end")
    assert "stimpak bob" in a.legal()
    a.rig.push(6, 1, 2)
    a.act("stimpak bob")
    assert bob.status == ACTIVE and bob.hp == -1 + 3 and "bleeding" not in bob.cond


def test_fatigue_winds_at_current_hp_and_passes_out_past_maximum():
    """Seed 001, Death and Fatigue: fatigue at or above current HP, -4 to skill checks;
    past maximum HP the character passes out; it falls by 1 each round."""
    a = duel()
    ann = a.c("ann")
    ann.cond["fatigue"] = 30
    assert dict(__import__("wasteland.rules.simple.stats", fromlist=["x"]).check_penalties(ann)
                ) == {"winded": -4}
    ann.cond["fatigue"] = 29
    from wasteland.rules.simple.stats import check_penalties

    assert check_penalties(ann) == []
    from wasteland.rules.simple.attack import after_harm

    ann.cond["fatigue"] = 31
    after_harm(a.b, ann, [])
    assert ann.status == UNCONSCIOUS and ann.cond["passed_out"]


def test_first_aid_is_an_average_medic_check():
    """Seed 001, Death and Fatigue: an Average Medic check staunches bleeding out."""
    a = duel(third=True, b_kw={"hp": 4})
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 50).push(6, 2)
    a.act("attack bob")
    cal = a.c("cal")
    a.b.set_pos(cal, a.b.grid.index(5, 1))
    while a.whose() != ("cal", "action"):
        a.act("end")
    a.rig.push(10, 7, 7)  # 14 + medic 5 = 19 < 20: fails
    a.act("first_aid bob")
    assert a.c("bob").cond.get("bleeding")
    while a.whose() != ("cal", "action"):
        a.act("end")
    a.rig.push(10, 7, 8)  # 20: passes
    a.act("first_aid bob")
    assert not a.c("bob").cond.get("bleeding") and a.c("bob").cond["stable"]


def test_hit_chance_is_the_2d10_probability_of_the_needed_roll():
    """The odds agree with the check: 2d10 + skill + modifiers >= difficulty."""
    assert p_2d10_at_least(2) == 1.0 and p_2d10_at_least(21) == 0.0
    assert p_2d10_at_least(11) == pytest.approx(0.55)  # 55 of the 100 pairs
    a = duel(at_b=(12, 0))  # pistol PB 8: close, -2; difficulty 10 (Very Easy); guns 8
    need = 10 - 8 + 2
    assert hit_chance(a.b, a.c("ann"), a.c("bob"), 0) == pytest.approx(
        sum(1 for x in range(1, 11) for y in range(1, 11) if x + y >= need) / 100)


def test_seed_is_cited():
    assert "001" in SEED


def test_cover_shrinks_the_target_like_stance_and_full_cover_cannot_be_shot():
    """Reading (docs/rules/simple.md): light cover one size smaller, heavy two; full cover
    cannot be shot at."""
    rows = "\n".join(["..,.=.O" + "." * 17, "." * 24, "." * 24])
    a = duel(a_w=("derringer",), at_b=(2, 0), rows=rows)
    assert mods_of(a)["range"] == -2  # light: small, 2 x2 = 4: close
    a = duel(a_w=("derringer",), at_b=(4, 0), rows=rows)
    assert mods_of(a)["range"] == -8  # heavy: tiny, 4 x3 = 12: maximum
    a = duel(a_w=("rifle",), at_b=(4, 0), rows=rows)
    assert mods_of(a).get("range", 0) == 0  # 12, within point blank 15
    a = duel(a_w=("rifle",), at_b=(6, 0), rows=rows)
    assert not can_attack(a.b, a.c("ann"), a.c("bob"), 0)
    a = duel(a_w=("rifle",), at_b=(7, 0), rows=rows)
    assert can_attack(a.b, a.c("ann"), a.c("bob"), 0)


def test_sizes_below_minute_count_as_minute():
    """Reading: a prone tiny target would be two sizes below tiny; it counts as minute."""
    a = duel(a_w=("derringer",), at_b=(2, 0), b_kw={"size": "tiny"})
    a.c("bob").cond["stance"] = "prone"
    assert mods_of(a)["range"] == -6  # 2 x4 = 8: far


def test_a_crippled_head_is_minus_two_and_may_knock_out():
    """Seed 001, Crippled Effects (Crippled Head) with the reading: -2 to checks; a d100
    of 10 or less at the start of a round knocks it out until the next round."""
    def four():  # ann has an ally: the battle goes on while it is out
        return sarena([("ann", (0, 0), 0, creature("a")), ("dan", (0, 2), 0, creature("d")),
                       ("bob", (20, 0), 1, creature("b", weapons=("knife",))),
                       ("cal", (20, 2), 1, creature("c", weapons=("knife",)))], rows=WIDE)

    a = four()
    ann = a.c("ann")
    ann.crippled["head"] = 1
    from wasteland.rules.simple.stats import check_penalties

    assert check_penalties(ann) == [("concussion", -2)]
    a.rig.push(100, 10)  # round 2's concussion roll, the first die after round 1
    while a.b.round == 1:
        a.act("end")
    assert ann.status == UNCONSCIOUS and ann.cond["knocked_out"]
    while a.b.round == 2:
        a.act("end")
    assert ann.status == ACTIVE and "knocked_out" not in ann.cond
    b = four()
    b.c("ann").crippled["head"] = 1
    b.rig.push(100, 11)  # 11: stays up
    while b.b.round == 1:
        b.act("end")
    assert b.c("ann").status == ACTIVE


def test_a_crippled_torso_bleeds_ten_percent_of_the_hit_each_later_round():
    """Seed 001, Crippled Effects (Crippled Torso)."""
    a = duel(a_w=("rifle",), at_b=(3, 0), b_kw={"hp": 60})
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 50).push(6, 6, 6)  # 12 damage to the torso
    a.act("called bob torso")
    bob = a.c("bob")
    assert bob.crippled == {"torso": 1} and bob.cond["torso_bleed"] == 1
    assert bob.hp == 60 - 12
    while a.b.round == 1:
        a.act("end")
    assert bob.hp == 60 - 12 - 1  # 10% of 12, rounded down, at the next round


def test_medic_fixes_a_crippled_part():
    """Seed 001, Removing a Crippled status: Medic (an Average check, reading)."""
    a = duel(third=True)
    bob, cal = a.c("bob"), a.c("cal")
    bob.crippled["arm"] = 1
    a.b.set_pos(cal, a.b.grid.index(5, 1))
    while a.whose() != ("cal", "action"):
        a.act("end")
    a.rig.push(10, 10, 10)
    a.act("first_aid bob")
    assert bob.crippled["arm"] == 0


def test_weapon_swap_costs_the_charge_and_action_phases():
    """Reading: a weapon swap is putting one away and taking one out (seed 001, Move
    Phase: no charge or action phase)."""
    a = duel(a_w=("pistol", "knife"))
    while a.whose() != ("ann", "move"):
        a.act("end")
    a.act("draw 1")
    assert a.c("ann").active_weapon == 1 and a.c("ann").cond["forfeit"] == 1


def test_a_reload_fills_the_magazine_in_one_action():
    a = duel()
    ann = a.c("ann")
    ann.weapon_states[0].loaded = 3
    to_ann_action(a)
    a.act("reload")
    assert ann.weapon_states[0].loaded == 12 and ann.ammo["10mm"] == 24 - 9


def test_a_charger_may_strike_again_in_the_action_phase():
    """Reading: a charge does not cost the action phase."""
    knife = creature("a", weapons=("knife",))
    a = sarena([("ann", (0, 0), 0, knife), ("bob", (5, 0), 1, creature("b", hp=60, defense=2))],
               rows=WIDE)
    a.act("end")
    a.act("end")
    a.rig.push(10, 1, 1)  # the charge misses
    a.act("charge bob")
    assert a.whose() == ("ann", "action") and "attack bob" in a.legal()


def test_one_crippled_leg_is_minus_eight_to_a_charge():
    knife = creature("a", weapons=("knife",))
    a = sarena([("ann", (0, 0), 0, knife), ("bob", (5, 0), 1, creature("b"))], rows=WIDE)
    a.c("ann").crippled["leg"] = 1
    b = a.b
    assert dict(attack_mods(b, a.c("ann"), a.c("bob"), 0, None, charge=True)[0]
                )["crippled leg"] == -8
    assert "crippled leg" not in dict(attack_mods(b, a.c("ann"), a.c("bob"), 0, None)[0])


def test_crippled_eyes_obscure_every_target():
    """Seed 001, Crippled Effects: a crippled eye, all targets lightly obscured (-4); all
    eyes, moderately (-8)."""
    a = duel()
    a.c("ann").crippled["eye"] = 1
    assert mods_of(a)["visibility"] == -4
    a.c("ann").crippled["eye"] = 2
    assert mods_of(a)["visibility"] == -8


def test_a_crippled_groin_leaves_it_prone_and_unable_to_stand_or_move():
    """Seed 001, Crippled Effects: a crippled groin, prone, no standing or moving."""
    from wasteland.rules.simple.attack import cripple

    a = duel(at_b=(8, 0))
    bob = a.c("bob")
    cripple(a.b, bob, "groin", 5, [])
    assert bob.cond["stance"] == "prone"
    assert a.whose() == ("bob", "move")
    assert a.legal() == {"end", "evade", "drop", "stow"}  # handling its knife is no move


def test_a_burst_hits_with_every_round_each_less_dt():
    """Seed 001, Causing Damage: hit with six bullets, DT comes off each. Reading: one check
    for the burst; a hit lands every round fired (what is loaded), only the first can crit."""
    from .kitsimple import WEAPONS

    burst = WEAPONS["rifle"].model_copy(update={"id": "burst_rifle", "simple": WEAPONS[
        "rifle"].simple.model_copy(update={"shots": 3, "damage": "1d6"})})
    WEAPONS["burst_rifle"] = burst
    try:
        a = duel(a_w=("burst_rifle",), b_kw={"armor": "leather", "hp": 60})
        to_ann_action(a)
        a.c("ann").weapon_states[0].loaded = 2  # two left: two rounds fire
        a.rig.push(10, 10, 10).push(100, 50).push(6, 5).push(6, 6)
        evs = a.act("attack bob")
        dmg = [e for e in evs if isinstance(e, DamageDealt)]
        assert [d.raw for d in dmg] == [5, 6] and [d.dealt for d in dmg] == [3, 4]
        assert a.c("bob").hp == 60 - 7 and a.c("ann").weapon_states[0].loaded == 0
        assert "(2 rounds)" in [e for e in evs if isinstance(e, SkillChecked)][0].what
    finally:
        del WEAPONS["burst_rifle"]


def test_a_recharging_weapon_regains_rounds_each_round():
    """Reading: PnP's recharging quality (a robot's laser) refills under Simple as well."""
    from wasteland.bestiary.models import Qualities

    from .kitsimple import WEAPONS

    WEAPONS["head_laser"] = WEAPONS["laser"].model_copy(update={
        "id": "head_laser", "capacity": 3, "qualities": Qualities(recharging=1)})
    try:
        a = duel(a_w=("head_laser",))
        a.c("ann").weapon_states[0].loaded = 0
        while a.b.round == 1:
            a.act("end")
        assert a.c("ann").weapon_states[0].loaded == 1
        while a.b.round <= 3:
            a.act("end")
        assert a.c("ann").weapon_states[0].loaded == 3  # never past capacity
    finally:
        del WEAPONS["head_laser"]


def test_aimed_shots_at_the_eyes_and_groin_count_them_as_minute():
    """Seed 001, Called Shots: eyes and groin are minute (x4 range); reading: a groin on
    humanoids only; a hit over 10% of HP cripples one eye, or the groin (prone)."""
    a = duel(a_w=("derringer",), at_b=(2, 0))
    assert mods_of(a, "eyes")["range"] == -6  # 2 x4 = 8: far for point blank 2
    assert mods_of(a, "groin")["range"] == -6
    b = duel(at_b=(3, 0))
    to_ann_action(b)
    assert {"aimed bob eyes", "aimed bob groin"} <= b.legal()
    b.rig.push(10, 10, 10).push(100, 50).push(6, 2)  # 4 damage: over 10% of 30
    b.act("aimed bob eyes")
    assert b.c("bob").crippled == {"eye": 1}
    robot = duel(at_b=(3, 0), b_kw={"eyes": 0}, )
    robot.b.combatants[1].creature = robot.c("bob").creature.model_copy(update={"kind": "robot"})
    to_ann_action(robot)
    assert not any(t.startswith("aimed") for t in robot.legal())  # no eyes, no groin


def test_two_weapons_at_once_are_minus_eight_each():
    """Seed 001, Using Two Weapons: two one-handed actions at once, -8 to each."""
    a = duel(a_w=("pistol", "knife"), at_b=(1, 0), b_kw={"hp": 60})
    to_ann_action(a)
    assert "attack2 bob" in a.legal()
    a.rig.push(10, 10, 10).push(100, 50).push(6, 3)  # the pistol: hits
    a.rig.push(10, 10, 10).push(100, 50).push(4, 2)  # the knife: hits
    evs = a.act("attack2 bob")
    checks = [e for e in evs if isinstance(e, SkillChecked)]
    assert len(checks) == 2
    assert all(("two weapons", -8) in c.mods for c in checks)
    assert "pistol" in checks[0].what and "knife" in checks[1].what
    b = duel(a_w=("rifle", "knife"), at_b=(1, 0))  # a two-handed gun: not one-handed
    to_ann_action(b)
    assert "attack2 bob" not in b.legal()


def test_repairing_a_damaged_weapon_is_an_average_mechanics_check():
    """Seed 001, Action Phase (use an item, including repairing); reading: an Average
    Mechanics check mends the weapon in hand."""
    a = duel()
    a.c("ann").cond["damaged"] = [0]
    to_ann_action(a)
    assert "repair" in a.legal()
    a.rig.push(10, 7, 7)  # 14 + mechanics 5 = 19 < 20
    a.act("repair")
    assert a.c("ann").cond["damaged"] == [0]
    to_ann_action(a)
    a.rig.push(10, 7, 8)  # 20
    a.act("repair")
    assert a.c("ann").cond["damaged"] == [] and "repair" not in a.legal()


def test_perk_critical_multipliers_add_to_the_weapons():
    """Seed 001, Critical Hits: multipliers from the weapon and perks add, not multiply
    (Better Criticals with a .22 pistol: x4, not x6). A stat block's crit_perks each add
    their excess over x1: a x2 pistol and a x3 perk make x4; a x3 rifle and a x2 perk too."""
    a = duel(a_kw={"luck": 3, "crit_perks": [3]})
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 97).push(6, 1, 2, 3, 4)
    evs = a.act("attack bob")
    chk = [e for e in evs if isinstance(e, SkillChecked)][0]
    assert chk.crit == "critical, damage x4"
    dmg = [e for e in evs if isinstance(e, DamageDealt)][0]
    assert dmg.dice == "4d6+8" and dmg.raw == 1 + 2 + 3 + 4 + 8  # (1d6+2) x4
    a = duel(a_w=("scoped_rifle",), a_kw={"luck": 3, "crit_perks": [2]}, b_kw={"hp": 90})
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 97).push(6, *[1] * 8)
    evs = a.act("attack bob")
    assert [e for e in evs if isinstance(e, DamageDealt)][0].dice == "8d6"  # 2d6 x4
    a = duel(a_kw={"luck": 3, "crit_perks": [3]})  # no critical: the perk does nothing
    to_ann_action(a)
    a.rig.push(10, 10, 10).push(100, 50).push(6, 3)
    assert [e for e in a.act("attack bob") if isinstance(e, DamageDealt)][0].dice == "1d6+2"


@pytest.mark.parametrize("perks", [[1], [7], [2, 2, 2, 2, 2]])
def test_perk_critical_multipliers_are_validated(perks):
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as info:
        creature("a", crit_perks=perks)
    assert "crit_perks" in str(info.value)


def test_a_blast_weapon_hits_its_target_alone():
    """Reading (seed 001 has no blast rule): a grenade or a missile (PnP's splash quality)
    damages only the combatant it hits; those beside it, friend or foe, are untouched."""
    launcher = creature("a", weapons=("launcher",), ammo={"rocket": 2})
    a = sarena([("ann", (0, 0), 0, launcher), ("amy", (5, 2), 0, creature("m")),
                ("bob", (5, 1), 1, creature("b", weapons=("knife",))),
                ("cal", (6, 1), 1, creature("c", weapons=("knife",)))], rows=WIDE)
    assert a.c("ann").weapon.qualities.splash
    while a.whose() != ("ann", "action"):
        a.act("end")
    a.rig.push(10, 10, 10).push(100, 50).push(6, 6, 6, 6)
    evs = a.act("attack bob")
    hits = [e for e in evs if isinstance(e, DamageDealt)]
    assert [e.target for e in hits] == ["bob"] and hits[0].damage_type == "explosive"
    assert a.c("bob").hp == 30 - 18
    assert a.c("cal").hp == 30 and a.c("amy").hp == 30


def test_a_note_that_goes_on_from_a_name_takes_no_space():
    # issue 26: "drifter 's 10mm pistol jams"
    from wasteland.rules.events import Note

    assert Note("drifter", "'s 10mm pistol jams.").text() == "drifter's 10mm pistol jams."
    assert Note("drifter", "stands up.").text() == "drifter stands up."


@pytest.mark.parametrize("hp,status", [(-11, UNCONSCIOUS), (-12, DEAD), (-13, DEAD),
                                       (0, UNCONSCIOUS)])
def test_a_hit_to_exactly_ten_plus_endurance_below_zero_kills(hp, status):
    """Seed 001, Death and Fatigue: dead once 10 + END are lost below 0 HP, at once when a
    hit takes the HP there (END 2: -12 dead, -11 still bleeding out)."""
    from wasteland.rules.simple.attack import after_harm

    a = duel(b_kw={"endurance": 2, "hp": 4})
    bob = a.c("bob")
    bob.hp = hp
    after_harm(a.b, bob, [])
    assert bob.status == status
    assert bob.cond.get("bleeding", False) == (status == UNCONSCIOUS)


def test_range_penalty_is_the_seeds_table():
    """Seed 001, Range Penalty: range_penalty, written out step by step for speed, gives the
    band of RANGE_STEPS (point blank x1 0, x2 -2, x3 -4, x4 -6, x8 -8, None past) for every
    effective distance, on and between the band edges, fractional ones included."""
    from wasteland.rules.simple.attack import RANGE_STEPS, range_penalty

    def by_table(pb: int, d: float) -> int | None:
        return next((pen for mult, pen in RANGE_STEPS if d <= pb * mult), None)

    for pb in (1, 2, 3, 5, 12):
        for k in range(0, 8 * pb * 4 + 6):
            d = k / 4
            assert range_penalty(pb, d) == by_table(pb, d), (pb, d)
