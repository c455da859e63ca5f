"""The native copies of weapon and creature fields (wasteland/rules/facts.py): the same
values as the bestiary models, and never stale when a weapon or a stat block is swapped."""

from __future__ import annotations

import pytest

from wasteland.bestiary.loader import load_bestiary, load_scenario, scenario_names
from wasteland.rules.f2d20 import stats as S
from wasteland.rules.rulesets import get_ruleset


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
                p = w.f2d20
                assert a.f2d20 == (p is not None)
                if p is not None:
                    assert (a.skill, a.band, a.cd, a.fire_rate, a.dtype) == (
                        p.skill, p.range, p.cd, p.fire_rate, p.damage_type)
                    assert (a.burst, a.vicious, a.piercing) == (
                        p.effects.burst, p.effects.vicious, p.effects.piercing)
                    assert a.melee2d20 == (p.skill in ("melee_weapons", "unarmed"))
                assert c.arm(i) is a  # kept, not made again


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
    c.creature = c.creature.model_copy(update={"f2d20": st.model_copy(
        update={"defense": st.defense + 1, "abilities": ["little"]})})
    assert c.traits().defense2d20 == st.defense + 1
    assert c.traits().little and not c.traits().big


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
