"""The Ruleset protocol's tactical answers (rules/tactics.py) agree with each ruleset's own
functions on built battles, and each ruleset states its capabilities."""

from __future__ import annotations

import pytest

from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.rules.battle import Battle
from wasteland.rules.hexes import hexes_for
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.tactics import AttackOdds, Tactics, tactics_of
from wasteland.rules.zones import zones_for


def battles(rules: str) -> list[Battle]:
    rs = get_ruleset(rules)
    return [rs.new_battle(load_scenario(s), seed) for s in scenario_names() for seed in (0, 1)]


def pairs(b: Battle):  # every attacker against every enemy
    for c in b.combatants:
        for t in b.combatants:
            if t.side != c.side:
                yield c, t


@pytest.mark.parametrize("rules", RULESETS)
def test_tactics_of_is_the_rulesets_own(rules: str) -> None:
    b = battles(rules)[0]
    tac = tactics_of(b)
    assert isinstance(tac, Tactics)
    assert tac.name == rules == get_ruleset(rules).tactics.name
    assert tactics_of(b) is tac  # asked once per ruleset


def test_pnp_answers_are_its_odds_and_rules() -> None:
    from wasteland.rules.pnp import combat, movement, odds
    from wasteland.rules.pnp.stats import LARGE_ONLY, VATS_COST

    n = 0
    for b in battles("pnp"):
        tac = tactics_of(b)
        for c, t in pairs(b):
            for loc in (None, "head", "leg"):
                assert tac.hit_chance(b, c, t, loc) == odds.hit_chance(b, c, t, loc)
                n += 1
            if "head" in t.loc_kinds:
                assert (tac.attack_chance(b, c, t, "vats", "head")
                        == odds.hit_chance(b, c, t, "head", vats=True))
            assert tac.can_attack(b, c, t, c.active_weapon) == combat.can_attack(
                b, c, t, c.active_weapon)
            got = tac.odds(b, c, t)
            assert isinstance(got, AttackOdds) and got.p_hit == odds.hit_chance(b, c, t)
            assert got.expected_damage == tac.damage_per_hit(b, c, c.active_weapon, t) >= 0
        for c in b.combatants:
            assert tac.cover_within_move(b, c) == movement.nearest_cover(b, c)
            assert tac.threats_on_leaving(b, c) == movement.threats_on_leaving(b, c)
    assert n > 100
    tac = tactics_of(battles("pnp")[0])
    assert tac.vats_cost == VATS_COST and tac.large_only == LARGE_ONLY
    assert (tac.multi_shot, tac.pairs, tac.values_shots, tac.staged_reload) == (True,) * 4
    assert not (tac.ap_economy or tac.phases or tac.aims) and tac.extra_dice_cost == ()


def test_f2d20_answers_are_its_odds_and_rules() -> None:
    from wasteland.rules.f2d20 import stats as S
    from wasteland.rules.f2d20.dice import EXTRA_DICE_COST, MAX_POOL

    rs = get_ruleset("f2d20")
    n = 0
    for b in battles("f2d20"):
        tac = tactics_of(b)
        z = zones_for(b.grid)
        assert tac.zones(b) is z
        for c, t in pairs(b):
            for extra in (0, 1, 3):
                assert tac.hit_chance(b, c, t, None, extra) == rs.hit_chance(  # type: ignore[attr-defined]
                    b, c, t, None, extra_dice=extra)
                n += 1
            assert tac.attack_chance(b, c, t, "attack", None, 0, True) == rs.hit_chance(  # type: ignore[attr-defined]
                b, c, t, None, aim=True)
            assert tac.can_attack(b, c, t, c.active_weapon) == rs.can_attack(  # type: ignore[attr-defined]
                b, c, t, c.active_weapon)
            assert tac.distance(b, c.pos, t.pos) == z.band(c.pos, t.pos)
            for mode in ("toward", "away"):
                assert tac.destination(b, c, t, mode, 1) == rs._destination(  # type: ignore[attr-defined]
                    b, z, c, t, mode, 1)
        for c in b.combatants:
            assert tac.full_hp(c) == S.stats(c).hp
            assert tac.medicine_rank(c) == S.medicine_rank(c)
            assert tac.cover_level(b, c.pos) == z.cover(z.zone_of[c.pos])
            assert tac.target_number(c, "survival") == S.target_number(c, "survival")
    assert n > 100
    assert (tac.extra_dice_cost, tac.max_pool) == (EXTRA_DICE_COST, MAX_POOL)
    assert tac.ap_economy and tac.aims and not tac.magazines and not tac.friendly_fire
    assert tac.unit == "band" and not tac.phases


def test_simple_answers_are_its_odds_and_rules() -> None:
    from wasteland.rules.simple import attack, odds

    n = 0
    for b in battles("simple"):
        tac = tactics_of(b)
        h = hexes_for(b.grid)
        for c, t in pairs(b):
            ws = c.active_weapon
            assert tac.hit_chance(b, c, t) == odds.hit_chance(b, c, t, ws, None)
            assert tac.attack_chance(b, c, t, "charge") == odds.hit_chance(
                b, c, t, ws, None, charge=True)
            assert tac.can_attack(b, c, t, ws) == attack.can_attack(b, c, t, ws)
            assert tac.distance(b, c.pos, t.pos) == h.dist(c.pos, t.pos)
            assert tac.sees(b, c.pos, t.pos) == h.sees(c.pos, t.pos)
            n += 1
    assert n > 30
    assert tac.phases and tac.unit == "hexes" and tac.zones(b) is None
    assert not tac.ap_economy and tac.extra_dice_cost == ()


def test_buyable_dice_follows_the_pool() -> None:
    b = battles("f2d20")[0]
    tac = tactics_of(b)
    for pool, want in ((0, 0), (1, 1), (2, 1), (3, 2), (5, 2), (6, 3)):
        b.extra["pools"][0] = pool
        assert tac.buyable_dice(b, 0) == want
    assert tactics_of(battles("pnp")[0]).buyable_dice(battles("pnp")[0], 0) == 0
