"""The Ruleset protocol's tactical answers (rules/tactics.py) agree with each ruleset's own
functions on built battles, and each ruleset states its capabilities."""

from __future__ import annotations

import random

import pytest

from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.rules import goto
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.battle import Battle
from wasteland.rules.fork import fork
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
            assert tac.walk_distances(b, c.pos) == list(b.grid.walk_distances(c.pos))
    assert n > 100
    tac = tactics_of(battles("pnp")[0])
    assert tac.vats_cost == VATS_COST and tac.large_only == LARGE_ONLY
    assert (tac.multi_shot, tac.pairs, tac.values_shots, tac.staged_reload) == (True,) * 4
    assert not (tac.ap_economy or tac.phases or tac.aims) and tac.extra_dice_cost == ()
    # a walk blocked by someone unseen stops short; taking cover has no cover to go to
    # when someone unseen stands on or walls off the only one (docs/rules/sight.md)
    assert tac.refusable == {"cover"}


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
    assert tac.refusable == {"move", "sprint"}  # a zone move needs a free square to end on


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
            assert tac.walk_distances(b, t.pos) == list(h.walk_distances(t.pos))
            n += 1
    assert n > 30
    assert tac.phases and tac.unit == "hexes" and tac.zones(b) is None
    # a straight line someone unseen may block; cover someone unseen may take away
    assert tac.refusable == {"charge", "disarm", "cover"}
    assert not tac.ap_economy and tac.extra_dice_cost == ()


def test_buyable_dice_follows_the_pool() -> None:
    b = battles("f2d20")[0]
    tac = tactics_of(b)
    for pool, want in ((0, 0), (1, 1), (2, 1), (3, 2), (5, 2), (6, 3)):
        b.book.pools[0] = pool
        assert tac.buyable_dice(b, 0) == want
    assert tactics_of(battles("pnp")[0]).buyable_dice(battles("pnp")[0], 0) == 0


# --- where a move ends with nobody answering it (the fog's stale moves, observe/fog.py) ------
MOVE_SETUPS = [("pnp", "ruined_street"), ("simple", "ruined_street"), ("f2d20", "robot_depot")]


def unanswered(b: Battle, me: int) -> Battle:
    """A fork of ``b`` where nobody but ``me`` has a reaction left to answer a move with."""
    f = fork(b, 0)
    for o in f.combatants:
        if o.slot != me:
            o.free_used, o.readied = True, False
            o.cond.pop("overwatch", None)
            o.cond.pop("ready", None)
    return f


def spent(b: Battle, me: int) -> tuple[object, ...]:
    """What a turn has spent so far, under every ruleset (slot, 2d20's actions and pool,
    Simple's phase flags), and the mover's conditions (a run)."""
    x = b.extra_json()
    return (b.slot, x.get("minor"), x.get("major"), x.get("moved"), list(x.get("pools", [])),
            x.get("main"), x.get("done"), sorted(b.combatants[me].cond.items()))


def decisions(rules: str, scenario: str, seeds: int = 3, turns: int = 40):
    """Random fights' decisions: (ruleset, battle, decider, its legal ids)."""
    rs = get_ruleset(rules)
    for seed in range(seeds):
        b = rs.new_battle(load_scenario(scenario), seed)
        rng = random.Random(seed)
        for _ in range(turns):
            if b.over:
                break
            ids = rs.legal_ids(b)
            yield rs, b, rs.decider(b).combatant, ids
            rs.apply(b, ACTION_TABLE[rng.choice(ids)])


@pytest.mark.parametrize(("rules", "scenario"), MOVE_SETUPS)
def test_move_end_is_where_the_rulesets_move_ends_when_nobody_answers(
        rules: str, scenario: str) -> None:
    kinds: set[str] = set()
    for rs, b, me, ids in decisions(rules, scenario):
        tac = rs.tactics
        c = b.combatants[me]
        for i in ids:
            a = ACTION_TABLE[i]
            if a.kind not in ("move", "sprint", "step") or a.target is None:
                continue
            before = (b.state(), list(b.occupied.items()))
            got = tac.move_end(b, c, b.combatants[a.target], a.kind, a.option or "toward")
            assert (b.state(), list(b.occupied.items())) == before  # put back
            if got is None:
                continue
            f = unanswered(b, me)
            rs.apply(f, a)
            assert got == f.combatants[me].pos, (rules, a.text())
            kinds.add(a.kind)
    assert {"move", "sprint"} <= kinds if rules != "pnp" else {"move", "step"} <= kinds


@pytest.mark.parametrize(("rules", "scenario"), MOVE_SETUPS)
def test_pace_limit_keeps_the_squares_a_goto_reaches_at_a_moves_cost(
        rules: str, scenario: str) -> None:
    """A `goto` to a square within ``pace_limit`` costs what a move costs; past it (a
    run, a sprint) it costs more."""
    checked = beyond = 0
    for rs, b, me, ids in decisions(rules, scenario, seeds=2, turns=25):
        move = next((ACTION_TABLE[i] for i in ids if ACTION_TABLE[i].kind == "move"), None)
        can = rs.destinations(b)
        if move is None or not can or b.reactions:
            continue
        f = unanswered(b, me)
        rs.apply(f, move)
        paid = spent(f, me)
        cap = rs.tactics.pace_limit(b.combatants[me], False)
        g = b.grid
        for cell, n in sorted(can.items())[::7]:
            f = unanswered(b, me)
            rs.apply(f, goto.goto(g.xs[cell], g.ys[cell], False))
            within = cap is None or n <= cap
            assert (spent(f, me) == paid) == within, (rules, cell, n, cap)
            checked += within
            beyond += not within
    assert checked and (beyond or rules == "pnp")
