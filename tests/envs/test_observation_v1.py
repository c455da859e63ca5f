"""Observation v1 (wasteland/observe/encoding.py, features.py; issue 25): the odds each block
carries, what it shows and is, what a combatant remembers of an enemy out of sight, and the
terrain around the decider. Each test reads a feature by name and compares it with what
the ruleset itself answers, so it fails when a feature is dropped, swapped or leaks."""

from __future__ import annotations

import numpy as np
import pytest

from wasteland.bestiary.models import Placement, Scenario, Side
from wasteland.envs import combat_v0
from wasteland.observe.encoding import (
    AGE_SCALE,
    GLOBAL_FEATURES,
    SLOT_FEATURES,
    B,
    Encoder,
    G,
    feature_names,
    observation_box,
    to_ego,
)
from wasteland.observe.features import CONDITIONS
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset

OPEN = ["#########", "#.......#", "#.......#", "#.......#", "#########"]
# a wall between the west and the east half, with a gap in the bottom row
SPLIT = ["###########", "#....#....#", "#....#....#", "#.........#", "###########"]


def scenario(rows: list[str], sides: dict[str, list[tuple[str, tuple[int, int], str]]]
             ) -> Scenario:
    return Scenario(
        id="obs_room", name="Obs room", map="\n".join(rows),
        legend={".": "floor", "#": "wall"}, max_rounds=10,
        sides=[Side(name=name, combatants=[Placement(creature=cr, at=at, id=cid)
                                           for cr, at, cid in members])
               for name, members in sides.items()])


def block(enc: Encoder, me: int, slot: int, obs: np.ndarray | None = None) -> dict[str, float]:
    """Combatant ``slot``'s block in ``me``'s observation, by feature name."""
    if obs is None:
        obs = enc.observe(me)
    k = enc.order(me).index(slot)
    return {f: float(obs[G + k * B + i]) for i, f in enumerate(SLOT_FEATURES)}


DUEL = {"Vault": [("vault_dweller", (2, 2), "ted")],
        "Raiders": [("raider", (3, 2), "rex"), ("raider", (6, 3), "pip")]}


@pytest.mark.parametrize("rules", RULESETS)
def test_hit_chance_and_damage_are_the_rulesets(rules: str) -> None:
    """hit_w<i> is the ruleset's exact chance with weapon slot i (if it can attack from
    here, else 0); damage_w<i> the ruleset's expected damage of a hit over the target's HP
    left; threat_* the same for the target's weapon in hand against me."""
    rs = get_ruleset(rules)
    b = rs.new_battle(scenario(OPEN, DUEL), 3)
    enc = Encoder(b, rs)
    tac = rs.tactics
    ted, rex = b.combatants[0], b.combatants[1]
    rex.hp = max(1, rex.hp - 3)
    got = block(enc, 0, 1)
    checked = 0
    for i in range(len(ted.weapons)):
        if tac.can_attack(b, ted, rex, i) and tac.rounds_ready(ted, i) > 0:
            ted.active_weapon = i
            p = tac.hit_chance(b, ted, rex, None, 0)
            ted.active_weapon = 0
            d = min(1.0, tac.damage_per_hit(b, ted, i, rex) / rex.hp)
            assert got[f"hit_w{i}"] == pytest.approx(p, abs=1e-6), i
            assert got[f"damage_w{i}"] == pytest.approx(d, abs=1e-6), i
            assert p > 0.0
            checked += 1
    assert checked >= 1
    assert got["threat_hit"] == pytest.approx(tac.hit_chance(b, rex, ted, None, 0), abs=1e-6)
    assert got["threat_damage"] == pytest.approx(
        min(1.0, tac.damage_per_hit(b, rex, rex.active_weapon, ted) / ted.hp), abs=1e-6)
    assert got["threat_hit"] > 0.0
    # my own block and an ally's carry no odds
    assert all(block(enc, 0, 0)[f"hit_w{i}"] == 0.0 for i in range(3))


@pytest.mark.parametrize("rules", RULESETS)
def test_a_melee_weapon_has_no_chance_beyond_its_reach(rules: str) -> None:
    rs = get_ruleset(rules)
    b = rs.new_battle(scenario(OPEN, {"Vault": [("brawler", (1, 1), "kat")],
                                      "Raiders": [("raider", (7, 3), "rex")]}), 0)
    enc = Encoder(b, rs)
    kat, rex = b.combatants
    assert not rs.tactics.can_attack(b, kat, rex, 0)
    assert block(enc, 0, 1)["hit_w0"] == 0.0
    kat.pos = b.grid.index(6, 3)
    assert rs.tactics.can_attack(b, kat, rex, 0)
    assert block(enc, 0, 1)["hit_w0"] > 0.0


@pytest.mark.parametrize("name", CONDITIONS)
def test_each_condition_shows_on_its_own(name: str) -> None:
    rs = get_ruleset("simple")
    b = rs.new_battle(scenario(OPEN, DUEL), 0)
    enc = Encoder(b, rs)
    rex = b.combatants[1]
    before = block(enc, 0, 1)
    assert before[name] == 0.0
    setting = {"prone": {"prone": True}, "burrowed": {"burrowed": True},
               "bleeding": {"bleeding": 2}, "stunned": {"stunned": True},
               "dying": {"dying": 1}, "ready_action": {"ready": "attack"},
               "overwatching": {"overwatch": [b.round, 0, 8]},
               "evading": {"evade": b.round}, "winded": {"fatigue": rex.hp}}
    if name == "burning":
        rex.burn_left = 2
    elif name == "crippled":
        rex.crippled["leg"] = 1
    else:
        rex.cond.update(setting[name])
    after = block(enc, 0, 1)
    assert after[name] == 1.0
    others = [c for c in CONDITIONS if c != name and not (name == "crippled" and c == name)]
    assert all(after[c] == 0.0 for c in others), [c for c in others if after[c]]


def test_evading_is_this_round_only_and_winded_needs_fatigue_past_hp() -> None:
    rs = get_ruleset("simple")
    b = rs.new_battle(scenario(OPEN, DUEL), 0)
    enc = Encoder(b, rs)
    rex = b.combatants[1]
    rex.cond["evade"] = b.round - 1
    rex.cond["fatigue"] = rex.hp - 1
    got = block(enc, 0, 1)
    assert got["evading"] == 0.0 and got["winded"] == 0.0


@pytest.mark.parametrize("rules", RULESETS)
def test_kind_defense_and_dr_come_from_the_stat_block(rules: str) -> None:
    rs = get_ruleset(rules)
    b = rs.new_battle(scenario(OPEN, {"Vault": [("vault_dweller", (2, 2), "ted")],
                                      "Scorpions": [("radscorpion", (3, 2), "s")]}), 0)
    enc = Encoder(b, rs)
    got = block(enc, 0, 1)
    assert got["kind_insect"] == 1.0
    assert sum(v for f, v in got.items() if f.startswith("kind_")) == 1.0
    assert block(enc, 0, 0)["kind_character"] == 1.0
    stats = getattr(b.combatants[1].creature, rules)
    assert got["defense"] == pytest.approx(
        stats.defense / {"pnp": 30.0, "f2d20": 5.0, "simple": 10.0}[rules], abs=1e-6)
    phys = {"pnp": lambda: stats.pdt, "f2d20": lambda: stats.dr.physical,
            "simple": lambda: stats.dt.normal}[rules]()
    assert got["dr_physical"] == pytest.approx(min(1.0, phys / 20.0), abs=1e-6)
    assert phys > 0


def split_battle(rules: str):  # type: ignore[no-untyped-def]
    rs = get_ruleset(rules)
    b = rs.new_battle(scenario(SPLIT, {"Vault": [("vault_dweller", (2, 1), "ted")],
                                       "Raiders": [("raider", (4, 2), "rex"),
                                                   ("raider", (8, 1), "pip")]}), 0)
    return rs, b


@pytest.mark.parametrize("rules", RULESETS)
def test_an_enemy_out_of_sight_is_where_and_as_it_was_last_seen(rules: str) -> None:
    rs, b = split_battle(rules)
    g = b.grid
    enc = Encoder(b, rs)
    ted, rex, pip = b.combatants
    assert g.sight[ted.pos][rex.pos] and not g.sight[ted.pos][pip.pos]
    enc.look(0)
    seen = block(enc, 0, 1)
    assert seen["seen"] == 1.0 and seen["in_los"] == 1.0 and seen["last_seen"] == 0.0
    # rex slips behind the wall, is hurt and goes prone there; two rounds pass
    hp_then = seen["hp_frac"]
    rex.pos = g.index(7, 2)
    assert not g.sight[ted.pos][rex.pos]
    rex.hp = 1
    rex.cond["prone"] = True
    b.round += 2
    gone = block(enc, 0, 1)
    assert gone["seen"] == 0.0 and gone["in_los"] == 0.0 and gone["never_seen"] == 0.0
    assert gone["last_seen"] == pytest.approx(2 / AGE_SCALE)
    assert gone["hp_frac"] == hp_then and gone["prone"] == 0.0
    assert gone["dx"] == seen["dx"] and gone["dy"] == seen["dy"]  # where it was
    assert gone["hit_w0"] == 0.0 and gone["threat_hit"] == 0.0
    # the full view (state()) shows it as it is
    full = enc.observe(0, full=True)
    now = block(enc, 0, 1, full)
    assert now["hp_frac"] < hp_then and now["prone"] == 1.0 and now["seen"] == 1.0


@pytest.mark.parametrize("rules", RULESETS)
def test_an_enemy_never_seen_shows_only_that_it_is_there(rules: str) -> None:
    rs, b = split_battle(rules)
    enc = Encoder(b, rs)
    got = block(enc, 0, 2)
    assert got["present"] == got["enemy"] == got["alive"] == got["never_seen"] == 1.0
    rest = [f for f in SLOT_FEATURES if f not in ("present", "enemy", "alive", "never_seen",
                                                   "last_seen")]
    assert all(got[f] == 0.0 for f in rest), [f for f in rest if got[f]]
    # never seen: placed after those it knows of, wherever it really is
    pip = b.combatants[2]
    for x in (6, 9):
        pip.pos = b.grid.index(x, 1)
        assert enc.order(0) == [0, 1, 2]


def test_the_order_does_not_follow_an_enemy_out_of_sight() -> None:
    """The block order would give away where an unseen enemy is: it uses the remembered
    square."""
    rs, b = split_battle("pnp")
    g = b.grid
    ted, rex, pip = b.combatants
    pip.pos = g.index(3, 3)  # in sight, further than rex
    enc = Encoder(b, rs)
    enc.look(0)
    assert enc.order(0) == [0, 1, 2]
    rex.pos = g.index(9, 2)  # behind the wall, remembered next to ted
    assert not g.sight[ted.pos][rex.pos]
    assert enc.order(0) == [0, 1, 2]
    # the memory is the observer's (observe/memory.py): an encoder handed the same one
    # knows; one with a memory of its own knows only pip
    assert Encoder(b, rs, memory=enc.memory).order(0) == [0, 1, 2]
    assert Encoder(b, rs).order(0) == [0, 2, 1]


def test_the_env_remembers_at_each_decision_without_being_asked() -> None:
    """The AEC env looks for the decider at each decision, also when nobody observes (a
    learner reading only the legal list): the env's memory then holds every enemy in
    the decider's sight, where it stands now; and an agent keeping its own Encoder of the
    battle handed the env's memory (a PolicyAgent opponent) sees what the env shows."""
    env = combat_v0.env(ruleset="f2d20", scenario="ruined_street")
    env.reset(seed=4)
    raw = env.unwrapped
    mine = Encoder(raw.battle, raw.ruleset, memory=raw.memory)
    rng = np.random.default_rng(0)
    checked = compared = 0
    for n, agent in enumerate(env.agent_iter()):
        if raw.terminations[agent] or raw.truncations[agent]:
            env.step(None)
            continue
        b = raw.battle
        me = b.combatants[raw._decision.combatant]
        sight = b.grid.sight[me.pos]
        for o in b.combatants:
            if o.side != me.side and o.status == "active" and sight[o.pos]:
                rec = raw.memory.rows[me.slot][o.slot]
                assert (rec.square, rec.round) == (o.pos, b.round)
                checked += 1
        if n % 4 == 0:
            dec = raw._decision
            want = mine.observe(dec.combatant, dec, mine.order(dec.combatant))
            assert np.array_equal(want, env.observe(agent)["observation"])
            compared += 1
        env.step(to_ego(int(rng.choice(raw._legal)), raw._order))
    assert checked > 50 and compared > 20


def test_the_terrain_patch_shows_walls_around_me() -> None:
    rs = get_ruleset("pnp")
    b = rs.new_battle(scenario(OPEN, DUEL), 0)
    enc = Encoder(b, rs)
    obs = enc.observe(0)  # ted at (2, 2): the wall row y=0 is two rows up
    at = {f: float(obs[i]) for i, f in enumerate(GLOBAL_FEATURES)}
    assert at["patch_-2_+0.wall"] == 1.0 and at["patch_-1_+0.wall"] == 0.0
    assert at["patch_+0_-2.wall"] == 1.0 and at["patch_+0_-1.wall"] == 0.0
    assert at["patch_+0_+0.wall"] == 0.0
    b.combatants[0].pos = b.grid.index(1, 1)  # the corner: off-map reads as wall too
    at = {f: float(v) for f, v in zip(GLOBAL_FEATURES, enc.observe(0))}
    assert at["patch_-2_-2.wall"] == 1.0 and at["patch_+1_+1.wall"] == 0.0
    assert at["patch_-2_-2.cover"] == 0.0


@pytest.mark.parametrize("rules", RULESETS)
def test_observations_stay_in_the_box_through_a_fight(rules: str) -> None:
    env = combat_v0.env(ruleset=rules, scenario="ruined_street")
    env.reset(seed=2)
    box = observation_box()
    names = feature_names()
    rng = np.random.default_rng(1)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        o = obs["observation"]
        bad = np.flatnonzero((o < box.low) | (o > box.high))
        assert not len(bad), [names[i] for i in bad]
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
