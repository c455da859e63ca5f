"""The native copies of weapon and creature fields (wasteland/rules/facts.py): the same
values as the bestiary models, and never stale when a weapon or a stat block is swapped."""

from __future__ import annotations

import pytest

from wasteland.bestiary.loader import load_bestiary, load_scenario, scenario_names
from wasteland.rules.f2d20 import stats as S
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.tactics import dice_mean


def _battle(ruleset: str = "f2d20", scenario: str = "ruined_street"):
    return get_ruleset(ruleset).new_battle(load_scenario(scenario), 3)


@pytest.mark.parametrize("scenario", scenario_names())
def test_an_arm_holds_its_weapons_fields(scenario: str) -> None:
    for ruleset in ("pnp", "f2d20"):
        b = _battle(ruleset, scenario)
        for c in b.combatants:
            for i, w in enumerate(c.weapons):
                a = c.arm(i)
                assert a.weapon is w and a.creature is c.creature
                assert (a.kind, a.ammo, a.hands, a.reach, a.magazine, a.rof, a.range_ft) == (
                    w.kind, w.ammo, w.hands, w.reach, w.magazine, w.rof, w.range_ft)
                assert a.ranged == (w.kind == "ranged")
                q = w.qualities
                assert (a.splash, a.stunted, a.area_pnp) == (
                    q.splash, q.stunted_range, bool(q.splash or q.spread))
                assert (a.id, a.warm_up, a.lobbed, a.capacity) == (
                    w.id, q.warm_up, q.lobbed, w.capacity)
                p = w.f2d20
                assert a.f2d20 == (p is not None)
                if p is not None:
                    assert (a.skill, a.band, a.cd, a.fire_rate, a.dtype) == (
                        p.skill, p.range, p.cd, p.fire_rate, p.damage_type)
                    assert (a.burst, a.vicious, a.piercing) == (
                        p.effects.burst, p.effects.vicious, p.effects.piercing)
                    assert a.melee2d20 == (p.skill in ("melee_weapons", "unarmed"))
                assert c.arm(i) is a  # kept, not made again
            t, cr = c.traits(), c.creature
            assert (t.medic, t.robot) == (cr.medic, cr.kind == "robot")
            assert (t.pnp_speed, t.pnp_vats, t.pnp_ap) == (cr.pnp.speed, cr.pnp.vats, cr.pnp.ap)


def test_a_swapped_weapon_is_read_afresh() -> None:
    b = _battle()
    c = next(c for c in b.combatants if c.weapons[0].f2d20 is not None)
    w = c.weapons[0]
    assert w.f2d20 is not None
    before = c.arm(0)
    c.weapons[0] = w.model_copy(update={"f2d20": w.f2d20.model_copy(update={"fire_rate": 7,
                                                                          "cd": 9})})
    after = c.arm(0)
    assert after is not before
    assert (after.fire_rate, after.cd) == (7, 9)


def test_the_attack_test_follows_a_swapped_stat_block() -> None:
    b = _battle()
    c = next(c for c in b.combatants if S.stats(c).special is None)
    st = S.stats(c)
    tn, tag = S.attack_test(c, 0)
    assert st.body is not None
    c.creature = c.creature.model_copy(update={"f2d20": st.model_copy(
        update={"body": st.body + 2})})
    assert S.attack_test(c, 0) == (tn + 2, tag)


def test_traits_follow_the_stat_block() -> None:
    b = _battle()
    c = b.combatants[0]
    st = S.stats(c)
    assert c.traits().defense2d20 == st.defense
    assert (c.traits().big, c.traits().little) == ("big" in st.abilities,
                                                   "little" in st.abilities)
    assert (c.traits().burrow, c.traits().radiant) == ("burrow" in st.abilities,
                                                       "radiant" in st.abilities)
    c.creature = c.creature.model_copy(update={"f2d20": st.model_copy(
        update={"defense": st.defense + 1, "abilities": ["little", "burrow"]})})
    assert c.traits().defense2d20 == st.defense + 1
    assert c.traits().little and not c.traits().big
    assert c.traits().burrow and not c.traits().radiant
    c.creature = c.creature.model_copy(update={"f2d20": st.model_copy(
        update={"abilities": ["radiant"]})})
    assert c.traits().radiant and not c.traits().burrow


def test_every_bestiary_weapon_makes_an_arm() -> None:
    """Weapons without a 2d20 profile (PnP only) read as having none."""
    best = load_bestiary()
    b = _battle("pnp")
    c = b.combatants[0]
    for w in best.weapons.values():
        c.weapons[0] = w
        a = c.arm(0)
        assert a.weapon is w and a.f2d20 == (w.f2d20 is not None)
        if w.f2d20 is None:
            assert (a.skill, a.cd, a.melee2d20) == ("", 0, False)


def test_arms_and_traits_are_made_anywhere_and_survive_a_pickle() -> None:
    """Made from interpreted code as the engine makes them, and copied with a combatant."""
    import copy
    import pickle

    from wasteland.rules.facts import Arm, Traits

    b = _battle()
    c = b.combatants[0]
    a = Arm(c.creature, c.weapons[0])
    assert (a.kind, a.cd, a.tn) == (c.arm(0).kind, c.arm(0).cd, -1)
    assert Traits(c.creature).defense2d20 == c.traits().defense2d20
    tn = S.attack_test(c, 0)
    for twin in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c)):
        assert twin.arm(0).kind == c.arm(0).kind and S.attack_test(twin, 0) == tn
        assert twin.traits().defense2d20 == c.traits().defense2d20


@pytest.mark.parametrize("scenario", scenario_names())
def test_the_simple_fields_are_the_blocks_and_profiles(scenario: str) -> None:
    """What Simple's odds read natively (the profile's skill, range and scope; the block's
    size, Defense, skills, eyes and legs) is what the models say."""
    from wasteland.bestiary.models import SIZES_SIMPLE
    from wasteland.rules.simple import stats as SS

    b = _battle("simple", scenario)
    for c in b.combatants:
        s = c.creature.simple
        assert s is not None
        t = c.traits()
        assert SIZES_SIMPLE[t.simple_size] == s.size == SIZES_SIMPLE[SS.size_index(c)]
        assert (t.simple_defense, t.simple_eyes, t.simple_legs) == (s.defense, s.eyes, s.legs)
        assert t.simple_stances == s.stances
        assert SS.defense(c) == s.defense
        assert (SS.count_of(c, "eye"), SS.count_of(c, "leg")) == (s.eyes, s.legs)
        for name in ("guns", "melee", "unarmed", "throwing", "big_guns", "energy_weapons"):
            assert SS.skill(c, name) == s.skills.get(name, 0)  # type: ignore[call-overload]
        for i, w in enumerate(c.weapons):
            p = w.simple
            assert p is not None
            a = c.arm(i)
            assert (a.simple_skill, a.simple_range, a.simple_scope) == (p.skill, p.range,
                                                                        p.scope)
            assert a.simple_heavy == p.heavy and a.recharging == w.qualities.recharging
            assert SS.skill_of(c, i) == p.skill
            assert a.damage_mean == dice_mean(w.damage)
        c.active_weapon = 0
        assert SS.heavy_weapon(c) == c.weapons[0].simple.heavy  # type: ignore[union-attr]


def test_a_swapped_simple_block_is_read_afresh() -> None:
    from wasteland.rules.simple import stats as SS

    b = _battle("simple")
    c = b.combatants[0]
    s = c.creature.simple
    assert s is not None
    before = SS.defense(c), SS.skill(c, "guns"), SS.size_index(c)
    c.creature = c.creature.model_copy(update={"simple": s.model_copy(update={
        "defense": s.defense + 3, "skills": {"guns": 17}, "size": "minute"})})
    assert (SS.defense(c), SS.skill(c, "guns"), SS.size_index(c)) == (s.defense + 3, 17, 0)
    assert before != (s.defense + 3, 17, 0)


def test_a_creature_without_a_simple_block_still_fails_in_one_line() -> None:
    from wasteland.rules.simple import stats as SS

    b = _battle("f2d20")
    c = next(c for c in b.combatants)
    c.creature = c.creature.model_copy(update={"simple": None})
    for ask in (SS.size_index, SS.defense, lambda c: SS.skill(c, "guns"),
                lambda c: SS.count_of(c, "leg")):
        with pytest.raises(AssertionError, match="has no simple stat block"):
            ask(c)


def test_pnp_threshold_numbers_are_the_texts(  # the odds' number, the damage note's text
) -> None:
    """PnP's odds read a weapon's DT or resistance from the native copies
    (combat.threshold_value): the number combat.threshold gives, for every weapon against
    every creature of every map, and for weapons made to pierce, to find armor vulnerable
    and to deal each damage type."""
    from wasteland.rules.pnp.combat import threshold, threshold_value
    from wasteland.rules.pnp.tactics import TACTICS
    from wasteland.rules.tactics import dice_mean

    kinds = ("physical", "energy", "radiation", "toxic")
    seen: set[tuple[str, bool, bool]] = set()
    for scenario in scenario_names():
        b = _battle("pnp", scenario)
        for c in b.combatants:
            base = list(c.weapons)
            made = [w.model_copy(update={"damage_type": k, "qualities": w.qualities.model_copy(
                update={"armor_piercing": ap, "armor_vulnerable": av})})
                for w in base[:1] for k in kinds for ap, av in ((0, 1.0), (3, 1.0), (0, 2.5),
                                                                 (5, 1.5))]
            c.weapons = base + made
            for t in b.combatants:
                for i, w in enumerate(c.weapons):
                    assert threshold_value(t, i, c) == threshold(t, w)[1], (c.id, t.id, i)
                    seen.add((w.damage_type, bool(w.qualities.armor_piercing),
                              w.qualities.armor_vulnerable != 1))
                    raw, res = dice_mean(w.damage), threshold(t, w)[1]
                    want = (max(1.0, raw - res) if w.damage_type in ("physical", "energy")
                            else 0.0 if res >= 100 else max(1.0, raw * (100 - res) / 100))
                    assert TACTICS.damage_per_hit(b, c, i, t) == want
    assert len(seen) >= 12


@pytest.mark.parametrize("scenario", scenario_names())
def test_the_pnp_fields_are_the_blocks(scenario: str) -> None:
    from wasteland.rules.pnp import stats as PS

    b = _battle("pnp", scenario)
    for c in b.combatants:
        s = c.creature.pnp
        assert s is not None
        t = c.traits()
        assert (t.pnp_defense, t.pnp_perception, t.pnp_strength) == (s.defense, s.perception,
                                                                     s.strength)
        assert (t.pnp_pdt, t.pnp_edt, t.pnp_rad, t.pnp_poison) == (
            s.pdt, s.edt, s.rad_resistance, s.poison_resistance)
        assert PS.perception(c) == s.perception
        c.crippled["head"] = 1
        assert PS.perception(c) == s.perception - 4  # seed 000: a crippled head, -4 PER
        for i, w in enumerate(c.weapons):
            a = c.arm(i)
            assert (a.min_range_ft, a.damage_type, a.armor_piercing, a.armor_vulnerable) == (
                w.min_range_ft, w.damage_type, w.qualities.armor_piercing,
                w.qualities.armor_vulnerable)


def test_pnp_traits_follow_the_stat_block() -> None:
    """Speed, V.A.T.S., AP and who gives first aid are read afresh from a swapped block."""
    b = _battle("pnp")
    c = b.combatants[0]
    sp = c.creature.pnp
    before = c.traits()
    c.creature = c.creature.model_copy(update={
        "pnp": sp.model_copy(update={"speed": sp.speed + 3, "vats": not sp.vats, "ap": sp.ap + 2}),
        "first_aid": not c.creature.medic})
    after = c.traits()
    assert after is not before
    assert (after.pnp_speed, after.pnp_vats, after.pnp_ap) == (sp.speed + 3, not sp.vats, sp.ap + 2)
    assert after.medic is not before.medic
