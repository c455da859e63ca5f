"""The encoder's shortcuts (issue 42, the env's speed): a combatant's state read from
shared rows by its bits, and a new battle's stat-block features kept by object. Each test
compares the shortcut with the plain reading it replaced, on the states where they could
part: crippled limbs, conditions, an empty weapon, a changed armor."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.observe.encoding import SLOT_FEATURES, STATE_FEATURES, B, Encoder, G
from wasteland.observe.features import condition_features, static_features
from wasteland.rules.battle import Combatant
from wasteland.rules.rulesets import get_ruleset

from .test_observation_v1 import DUEL, OPEN, block, scenario


def plain_state(enc: Encoder, o: Combatant) -> tuple[Any, ...]:
    """STATE_FEATURES as the encoder read them before the shortcut, value for value."""
    w = enc._slots[o.slot][o.active_weapon]
    if not w.feed:
        empty = False
    elif w.feed == 1:  # a magazine
        st = o.weapon_states[o.active_weapon]
        empty = st.loaded == 0 or st.reload_step != 0
    else:
        empty = o.ammo.get(w.ammo, 0) <= 0
    cr = o.crippled
    if cr:
        ca, cl = cr.get("arm", 0) * 0.5, cr.get("leg", 0) * 0.5
        crip: tuple[Any, ...] = (cr.get("head", 0) != 0, min(ca, 1.0), min(cl, 1.0))
    else:
        crip = (0.0, 0.0, 0.0)
    return ((o.hp / o.max_hp if o.max_hp > 0 else 0.0,) + crip
            + (o.readied, w.ranged, o.free_used, o.unguarded, empty)
            + condition_features(enc.battle, o))


def same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Equal values of the same types (a remembered state is saved as JSON: True is not 1.0)."""
    return len(a) == len(b) and all(x == y and type(x) is type(y) for x, y in zip(a, b))


@pytest.mark.parametrize("rules", ["pnp", "simple"])
def test_a_state_from_its_bits_is_the_plain_reading(rules: str) -> None:
    rs = get_ruleset(rules)
    b = rs.new_battle(scenario(OPEN, DUEL), 0)
    enc = Encoder(b, rs)
    rex = b.combatants[1]
    limbs = ({}, {"arm": 0}, {"arm": 1}, {"leg": 1, "head": 1}, {"arm": 2, "leg": 3},
             {"arm": -1}, {"head": 0, "leg": 2})
    conds = ({}, {"prone": True}, {"stunned": True, "evade": b.round}, {"fatigue": rex.hp},
             {"dying": 1, "bleeding": 2})
    for crippled, cond, flags in itertools.product(limbs, conds, range(8)):
        rex.crippled = dict(crippled)
        rex.cond = dict(cond)
        rex.readied, rex.free_used, rex.unguarded = bool(flags & 1), bool(flags & 2), bool(flags & 4)
        rex.weapon_states[rex.active_weapon].loaded = flags % 3
        got, want = enc._state(rex), plain_state(enc, rex)
        assert same(got, want), (crippled, cond, flags, got, want)
    # and in the observation: crippled legs show as the plain reading has them
    rex.crippled, rex.cond = {"leg": 1}, {}
    assert block(enc, 0, 1)["crippled_leg"] == 0.5 and block(enc, 0, 1)["crippled_arm"] == 0.0


def test_a_new_armor_gives_a_new_encoder_its_own_dr() -> None:
    """The stat-block features are kept by the creature and armor objects: the same
    creature in another armor is read again."""
    rs = get_ruleset("pnp")
    sc = scenario(OPEN, DUEL)
    b = rs.new_battle(sc, 0)
    ted = b.combatants[0]
    first = Encoder(b, rs)._static[0]
    assert first == static_features(ted, "pnp")
    armored = [c.armor for c in b.combatants if c.armor is not None]
    assert armored, "a line-up with some armor"
    other = next(a for a in armored if a is not ted.armor)
    ted.armor = other
    again = Encoder(b, rs)._static[0]
    assert again == static_features(ted, "pnp")
    assert again != first


def plain_condition_bits(round_: int, c: Combatant) -> int:
    """condition_bits as it read before walking the conditions: one lookup per condition."""
    cond = c.cond
    fatigue = cond.get("fatigue", 0)
    winded = isinstance(fatigue, int) and fatigue > 0 and fatigue >= c.hp
    return ((1 if cond.get("prone") else 0)
            | (2 if cond.get("burrowed") else 0)
            | (4 if (cond.get("bleeding") or cond.get("torso_bleed")) else 0)
            | (8 if (c.burn_left > 0 or cond.get("persist")) else 0)
            | (16 if winded else 0)
            | (32 if cond.get("stunned") else 0)
            | (64 if cond.get("dying") else 0)
            | (128 if c.crippled else 0)
            | (256 if (c.readied or cond.get("ready")) else 0)
            | (512 if cond.get("overwatch") else 0)
            | (1024 if (cond.get("evade") == round_ or cond.get("defend")) else 0))


def test_condition_bits_walking_the_conditions_reads_as_one_lookup_each() -> None:
    """Every condition that counts, true and false-y, with fatigue below, at and past HP,
    evade this round and another, among conditions that do not count: 4,000 drawn sets."""
    import random

    from wasteland.bestiary.loader import load_scenario
    from wasteland.observe.features import condition_bits

    rs = get_ruleset("simple")
    b = rs.new_battle(load_scenario("duel"), 1)
    c = b.combatants[0]
    rng = random.Random(7)
    keys = ["prone", "burrowed", "bleeding", "torso_bleed", "persist", "stunned", "dying",
            "ready", "overwatch", "defend", "evade", "fatigue", "gone", "stowed", "aim"]
    values: list[Any] = [0, 1, 2, True, False, None, "", "x", 3, b.round, b.round + 1]
    seen = set()
    for _ in range(4000):
        c.cond = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, 6))}
        c.hp = rng.choice([1, 2, 3])
        c.burn_left = rng.choice([0, 0, 1])
        c.readied = rng.random() < 0.2
        c.crippled = {"arm": 1} if rng.random() < 0.2 else {}
        want = plain_condition_bits(b.round, c)
        assert condition_bits(b, c) == want, c.cond
        seen.add(want)
    assert len(seen) > 200  # the draws reached most combinations of the eleven bits


@pytest.mark.parametrize("sight", ["own", "side"])
@pytest.mark.parametrize("rules", ["pnp", "f2d20", "simple"])
def test_a_seen_enemys_state_at_a_decision_is_the_state_now(rules: str, sight: str) -> None:
    """At a decision the observation shows each enemy in sight with the state ``look``
    has just recorded for it, not worked out again: that is the state it shows now
    (``Encoder._state``), through a fight of random play, wherever it stands."""
    at = SLOT_FEATURES.index(STATE_FEATURES[0])
    env = combat_v0.raw_env(ruleset=rules, scenario="ruined_street", sight=sight)
    env.reset(seed=3)
    rng = random.Random(5)
    checked = 0
    for agent in env.agent_iter(600):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        enc, b = env._enc, env.battle
        me = env.slot(agent)
        for k, j in enumerate(env._order):
            o = b.combatants[j]
            start = G + k * B + at
            shown = obs["observation"][start:start + len(STATE_FEATURES)]
            if o.side != b.combatants[me].side and obs["observation"][G + k * B + 5] == 1.0:
                want = np.array(enc._state(o), dtype=np.float32)
                assert shown.tobytes() == want.tobytes(), (agent, o.id)
                checked += 1
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert checked > 100
