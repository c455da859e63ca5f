"""Egocentric observations and actions (wasteland/observe/encoding.py, combat_v0.py,
single_agent.py): the observation's blocks are me first, then the others still fighting
from the nearest out (ties: enemies, then the most hurt, then the slot), then the fallen,
so the observation does not depend on slot numbers; an action's target ``k`` names block
``k``, translated to the ruleset's table by ``to_table`` / ``to_ego``. SingleAgentEnv's
``learner_kinds`` (the learner plays only its creatures of those kinds, the rest of its side
is played by ``allies``) and ``draw_reward``."""

from __future__ import annotations

import numpy as np
import pytest

from wasteland.agents import RandomAgent, ScriptedAgent
from wasteland.agents.base import View, view_of
from wasteland.bestiary.models import Placement, Scenario, Side
from wasteland.envs import SingleAgentEnv, combat_v0
from wasteland.observe.encoding import (
    SLOT_FEATURES,
    B,
    Encoder,
    G,
    ego_ids,
    fallback_id,
    to_ego,
    to_table,
)
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, MAX_COMBATANTS, N_ACTIONS, Action
from wasteland.rules.battle import UNCONSCIOUS
from wasteland.rules.errors import IllegalActionError, WastelandError
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset

ROOM = ["##############"] + ["#............#"] * 6 + ["##############"]
Members = list[tuple[str, tuple[int, int], str]]

# from every one of them, the other four are at four different distances (none adjacent)
VAULT: Members = [("vault_dweller", (1, 1), "ted"), ("vault_dweller", (4, 5), "kat")]
SCORPS: Members = [("radscorpion", (12, 2), "a"), ("radscorpion", (7, 5), "b"),
                   ("radscorpion", (11, 5), "c")]


def room(sides: list[tuple[str, Members]], rows: list[str] = ROOM,
         max_rounds: int = 10) -> Scenario:
    """A scenario built in code, its sides (and their combatants) in the order given."""
    return Scenario(
        id="ego_room", name="Ego room", map="\n".join(rows),
        legend={".": "floor", "#": "wall"}, max_rounds=max_rounds,
        sides=[Side(name=name, combatants=[Placement(creature=cr, at=at, id=cid)
                                           for cr, at, cid in members])
               for name, members in sides])


def block(obs: np.ndarray, k: int, feature: str) -> float:
    return float(obs[G + k * B + SLOT_FEATURES.index(feature)])


def chebyshev(b, i: int, j: int) -> int:
    g = b.grid
    p, q = b.combatants[i].pos, b.combatants[j].pos
    return max(abs(g.xs[p] - g.xs[q]), abs(g.ys[p] - g.ys[q]))


class Ender:
    """Ends its turn, declines reactions (the cheapest choice in a 2d20 window)."""

    def act(self, view: View) -> Action:
        return ACTION_TABLE[fallback_id(view.legal_ids)]


class Recorder:
    """Plays like ``inner`` and remembers whom it decided for."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.seen: set[str] = set()

    def act(self, view: View) -> Action:
        self.seen.add(view.battle.ids[view.decision.combatant])
        return self.inner.act(view)


# --- the observation does not depend on slots --------------------------------------------
LAYOUTS = {
    "as listed": [("Vault", VAULT), ("Radscorpions", SCORPS)],
    "sides swapped, lists reversed": [("Radscorpions", SCORPS[::-1]), ("Vault", VAULT[::-1])],
    "lists rotated": [("Vault", VAULT[::-1]), ("Radscorpions", SCORPS[1:] + SCORPS[:1])],
}


@pytest.mark.parametrize("rules", RULESETS)
def test_observation_does_not_depend_on_slots(rules: str) -> None:
    rs = get_ruleset(rules)
    seen: dict[str, dict[str, bytes]] = {}
    slots: dict[str, list[str]] = {}
    for name, layout in LAYOUTS.items():
        b = rs.new_battle(room(layout), 0)
        # the same hurt and fallen combatants in every layout, named by id
        by_id = {c.id: c for c in b.combatants}
        by_id["b"].hp = by_id["b"].max_hp // 2
        by_id["kat"].hp = by_id["kat"].max_hp // 3
        by_id["c"].hp, by_id["c"].status = 0, UNCONSCIOUS
        enc = Encoder(b, rs)
        seen[name] = {c.id: enc.observe(c.slot).tobytes() for c in b.combatants}
        slots[name] = list(b.ids)
    assert len({tuple(s) for s in slots.values()}) == len(LAYOUTS)  # the slots do differ
    first = seen["as listed"]
    for name, obs in seen.items():
        for cid in first:
            assert obs[cid] == first[cid], (name, cid)


# --- the block order ---------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULESETS)
def test_block_zero_is_me_then_the_others_by_distance(rules: str) -> None:
    rs = get_ruleset(rules)
    b = rs.new_battle(room(LAYOUTS["as listed"]), 0)
    enc = Encoder(b, rs)
    n = len(b.combatants)
    for me in range(n):
        order = enc.order(me)
        assert order[0] == me and sorted(order) == list(range(n))
        dists = [chebyshev(b, me, j) for j in order[1:]]
        assert dists == sorted(dists) and len(set(dists)) == n - 1
        obs = enc.observe(me)
        assert block(obs, 0, "is_me") == 1.0 and block(obs, 0, "distance") == 0.0
        assert [block(obs, k, "is_me") for k in range(1, n)] == [0.0] * (n - 1)
        shown = [block(obs, k, "distance") for k in range(1, n)]
        assert shown == sorted(shown) and len(set(shown)) == n - 1
        assert not obs[G + n * B:].any()  # the empty blocks


@pytest.mark.parametrize("rules", RULESETS)
def test_the_fallen_come_last_by_distance(rules: str) -> None:
    rs = get_ruleset(rules)
    b = rs.new_battle(room(LAYOUTS["as listed"]), 0)
    ted = b.ids.index("ted")
    # ted's two nearest fall: kat (3 squares) and b (6); a (11) and c (10) fight on
    for cid in ("kat", "b"):
        c = b.combatants[b.ids.index(cid)]
        c.hp, c.status = 0, UNCONSCIOUS
    enc = Encoder(b, rs)
    assert [b.ids[j] for j in enc.order(ted)] == ["ted", "c", "a", "kat", "b"]
    obs = enc.observe(ted)
    assert [block(obs, k, "alive") for k in range(5)] == [1.0, 1.0, 1.0, 0.0, 0.0]
    assert [block(obs, k, "ally") for k in range(5)] == [0.0, 0.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("rules", RULESETS)
@pytest.mark.parametrize("listed", ["ally first", "enemies first"])
def test_ties_go_to_enemies_then_the_most_hurt(rules: str, listed: str) -> None:
    rs = get_ruleset(rules)
    me: Members = [("vault_dweller", (6, 3), "ted")]
    ally: Members = [("vault_dweller", (6, 1), "kat")]  # all three 2 squares from ted
    enemies: Members = [("radscorpion", (8, 3), "fresh"), ("radscorpion", (4, 4), "hurt")]
    sides = ([("Vault", me + ally), ("Radscorpions", enemies)] if listed == "ally first"
             else [("Radscorpions", enemies[::-1]), ("Vault", ally + me)])
    b = rs.new_battle(room(sides), 0)
    hurt = b.combatants[b.ids.index("hurt")]
    hurt.hp = hurt.max_hp - 1
    enc = Encoder(b, rs)
    assert [b.ids[j] for j in enc.order(b.ids.index("ted"))] == ["ted", "hurt", "fresh", "kat"]


def _reference_order(b, enc: Encoder, me: int) -> list[int]:
    """The block order as its rule reads, by sorting whole key tuples."""
    g, c0 = b.grid, b.combatants[me]
    keys = []
    for o in b.combatants:
        if o.slot == me:
            continue
        d = max(abs(g.xs[o.pos] - g.xs[c0.pos]), abs(g.ys[o.pos] - g.ys[c0.pos]))
        keys.append((o.status != "active", d, 0.0 if o.side != c0.side else 1.0,
                     o.hp / o.max_hp if o.max_hp > 0 else 0.0, o.slot))
    return [me] + [k[4] for k in sorted(keys)]


@pytest.mark.parametrize("rules", ["pnp", "f2d20"])
def test_the_block_order_is_the_sorted_keys_in_random_fights(rules: str) -> None:
    """Random positions, HP (equal fractions of different maxima included, so the slot
    breaks ties) and falls: the encoder's order is the order of the sorted key tuples."""
    rs = get_ruleset(rules)
    rng = np.random.default_rng(11)
    b = rs.new_battle(room(LAYOUTS["as listed"]), 0)
    free = [i for i in range(b.grid.n_cells) if b.grid.passable[i]]
    for _ in range(300):
        for c, pos in zip(b.combatants, rng.choice(free, len(b.combatants), replace=False)):
            c.pos = int(pos)
            c.max_hp = int(rng.choice([10, 20, 40]))
            c.hp = int(c.max_hp * rng.choice([0.25, 0.5, 1.0]))
            c.status = "active" if rng.random() < 0.7 else UNCONSCIOUS
        enc = Encoder(b, rs)
        for me in range(len(b.combatants)):
            assert enc.order(me) == _reference_order(b, enc, me)


# --- translating action ids --------------------------------------------------------------
def test_to_table_and_to_ego_round_trip_over_the_whole_table() -> None:
    rng = np.random.default_rng(0)
    for _ in range(5):
        order = [int(s) for s in rng.permutation(MAX_COMBATANTS)]
        for t in range(N_ACTIONS):
            e = to_ego(t, order)
            assert to_table(e, order) == t
            a, ea = ACTION_TABLE[t], ACTION_TABLE[e]
            assert (ea.kind, ea.option) == (a.kind, a.option)
            if a.target is None:
                assert e == t
            else:
                assert order[ea.target] == a.target  # block k is the slot order[k]
        for e in range(N_ACTIONS):
            assert to_ego(to_table(e, order), order) == e
        legal = [int(i) for i in rng.choice(N_ACTIONS, 40, replace=False)]
        assert ego_ids(legal, order) == [to_ego(i, order) for i in legal]


def test_an_id_aimed_at_an_empty_block_has_no_table_id() -> None:
    order = [2, 0, 3, 1]  # four combatants: blocks 4.. are empty
    for e in range(N_ACTIONS):
        target = ACTION_TABLE[e].target
        got = to_table(e, order)
        if target is not None and target >= len(order):
            assert got is None
        else:
            assert got is not None and to_ego(got, order) == e
    assert to_table(-1, order) is None and to_table(N_ACTIONS, order) is None


def face_off() -> Scenario:
    return room([("Vault", [("vault_dweller", (3, 2), "ted")]),
                 ("Radscorpions", [("radscorpion", (6, 2), "scorp")])])


@pytest.mark.parametrize("rules", RULESETS)
def test_the_envs_refuse_an_empty_block_in_one_line(rules: str) -> None:
    empty = ACTION_INDEX[Action("attack", 5)]  # two combatants: block 5 is empty
    e = combat_v0.env(ruleset=rules, scenario=face_off(), illegal_action="raise")
    e.reset(seed=0)
    raw = e.unwrapped
    assert not e.observe(e.agent_selection)["action_mask"][empty]
    assert "no combatant in that block" in raw.action_text(empty)
    n = len(raw.battle.history)
    with pytest.raises(IllegalActionError) as err:
        e.step(empty)
    msg = str(err.value)
    assert "\n" not in msg and "no combatant in that observation block" in msg
    assert len(raw.battle.history) == n  # nothing happened

    env = SingleAgentEnv(scenario=face_off(), ruleset=rules, opponents=Ender(),
                         illegal_action="raise")
    env.reset(seed=0)
    assert not env.action_masks()[empty]
    with pytest.raises(IllegalActionError) as err:
        env.step(empty)
    msg = str(err.value)
    assert "\n" not in msg and "no combatant in that observation block" in msg
    fallback = SingleAgentEnv(scenario=face_off(), ruleset=rules, opponents=Ender(),
                              illegal_action="end")
    fallback.reset(seed=0)
    n = len(fallback.battle.history)
    *_, info = fallback.step(empty)
    assert info["illegal_action"] is True
    assert fallback.battle.history[n] == "ted: end"


# --- "attack block 1" attacks the nearest ------------------------------------------------
def near_and_far() -> Scenario:
    # the far radscorpion is listed (and slotted) first: slot order would pick it
    return room([("Vault", [("vault_dweller", (1, 3), "ted")]),
                 ("Radscorpions", [("radscorpion", (9, 3), "far"),
                                   ("radscorpion", (5, 3), "near")])])


@pytest.mark.parametrize("rules", RULESETS)
def test_attack_block_one_attacks_the_nearest_enemy(rules: str) -> None:
    env = SingleAgentEnv(scenario=near_and_far(), ruleset=rules, opponents=Ender(),
                         render_mode="ansi")
    _, info = env.reset(seed=0)
    b = env.battle
    assert info["agent"] == "ted"
    near, far = b.ids.index("near"), b.ids.index("far")
    assert near > far and env.order() == [0, near, far]
    attack1 = ACTION_INDEX[Action("attack", 1)]
    while b.slot in ("move", "charge"):  # Simple: attacks come in the action phase
        env.step(ACTION_INDEX[Action("end")])
    assert env.action_masks()[attack1]
    assert env.env_action(Action("attack", near)) == attack1
    assert env.env_action(Action("attack", far)) == ACTION_INDEX[Action("attack", 2)]
    assert env.env_action(Action("end")) == ACTION_INDEX[Action("end")]
    n = len(b.history)
    env.step(attack1)
    assert b.history[n] == "ted: attack near"
    assert b.combatants[far].damage_taken == 0
    assert any("near" in str(line) for line in b.log)


def test_attack_block_one_in_the_aec_env() -> None:
    e = combat_v0.env(scenario=near_and_far())
    e.reset(seed=0)
    raw = e.unwrapped
    attack1 = ACTION_INDEX[Action("attack", 1)]
    for _ in range(20):
        if e.agent_selection == "ted":
            break
        e.step(ACTION_INDEX[Action("end")])
    assert e.agent_selection == "ted"
    assert raw.order() == raw.order("ted") == [0, 2, 1]
    assert raw.action_text(attack1) == "attack near"
    # another agent's view: for "near", ted and "far" are 4 squares away; the enemy first
    assert raw.action_text(attack1, "near") == "attack ted"
    n = len(raw.battle.history)
    e.step(attack1)
    assert raw.battle.history[n] == "ted: attack near"


# --- learner_kinds -----------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULESETS)
def test_learner_kinds_play_only_their_creatures(rules: str) -> None:
    allies, opponents = Recorder(RandomAgent(1)), Recorder(RandomAgent(2))
    env = SingleAgentEnv(scenario="ruined_street", ruleset=rules, learner="Raiders",
                         learner_kinds=["super_mutant", "super_mutant_brute"],
                         allies=allies, opponents=opponents)
    ids = env.ids
    assert [ids[s] for s in env.learner_slots] == ["grunt", "brute"]
    assert [ids[s] for s in env.ally_slots] == ["raider_0", "raider_1"]
    rng = np.random.default_rng(0)
    deciders: set[str] = set()
    for seed in range(2):
        _, info = env.reset(seed=seed)
        while True:
            deciders.add(info["agent"])
            assert env.battle.combatants[env.order()[0]].id == info["agent"]
            *_, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if term or trunc:
                break
    assert deciders == {"grunt", "brute"}
    assert allies.seen == {"raider_0", "raider_1"}
    assert opponents.seen and opponents.seen <= {"kat", "drifter", "val", "ted"}


@pytest.mark.parametrize("side, kinds", [("Raiders", ["deathclaw"]), ("Party", ["raider"]),
                                         ("Raiders", [])])
def test_learner_kinds_absent_from_the_side_are_a_one_line_error(side: str,
                                                                 kinds: list[str]) -> None:
    with pytest.raises(WastelandError) as err:
        SingleAgentEnv(scenario="ruined_street", learner=side, learner_kinds=kinds)
    msg = str(err.value)
    assert "\n" not in msg and repr(side) in msg and all(k in msg for k in kinds)


def test_learner_kinds_name_a_family_the_side_may_hold_part_of() -> None:
    # a training config names a creature family; a map may hold only some of its kinds
    env = SingleAgentEnv(scenario="ruined_street", learner="Raiders",
                         learner_kinds=["super_mutant", "deathclaw"], allies=Ender())
    assert [env.ids[s] for s in env.learner_slots] == ["grunt"]
    assert [env.ids[s] for s in env.ally_slots] == ["brute", "raider_0", "raider_1"]


# --- draw_reward -------------------------------------------------------------------------
CORRIDOR = ["#" * 32, "#" + "." * 30 + "#", "#" * 32]


@pytest.mark.parametrize("rules", RULESETS)
def test_a_draw_at_the_round_limit_pays_draw_reward(rules: str) -> None:
    # nobody attacks anybody: the one round runs out with both standing
    far = room([("A", [("radscorpion", (1, 1), "x")]), ("B", [("radscorpion", (30, 1), "y")])],
               rows=CORRIDOR, max_rounds=1)
    for draw_reward, want in ((None, 0.0), (0.25, 0.25), (-0.5, -0.5)):
        kw = {} if draw_reward is None else {"draw_reward": draw_reward}
        env = SingleAgentEnv(scenario=far, ruleset=rules, opponents=Ender(), **kw)
        env.reset(seed=0)
        total, rewards = 0.0, []
        while True:
            action = int(np.flatnonzero(env.action_masks())[0])  # end, or the cheapest
            _, reward, term, trunc, info = env.step(action)
            rewards.append(reward)
            total += reward
            if term or trunc:
                break
        assert env.battle.winner is None and info["reason"] == "max_rounds"
        assert trunc and not term
        assert rewards[-1] == want and total == want  # paid once, at the end


@pytest.mark.parametrize("rules", RULESETS)
def test_a_decided_battle_pays_no_draw_reward(rules: str) -> None:
    bot = ScriptedAgent()
    for seed in range(10):
        env = SingleAgentEnv(ruleset=rules, scenario="duel", opponents="scripted",
                             draw_reward=0.25)
        env.reset(seed=seed)
        total = 0.0
        while True:  # the learner's seat played by the scripted agent, through env_action
            action = env.env_action(bot.act(view_of(env.ruleset, env.battle)))
            *_, reward, term, trunc, _ = env.step(action)
            total += reward
            if term or trunc:
                break
        if env.battle.winner is not None:
            assert total == (1.0 if env.battle.winner == env.learner else -1.0)
            return
        assert total == 0.25
    pytest.fail("no battle had a winner")
