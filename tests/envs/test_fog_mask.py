"""Fog in the mask (issue 42, item 1; observe/fog.py, docs/rules/sight.md): what an agent may do
is judged on what it knows. Moving an enemy it does not see to another square out of its
sight and halving its HP leaves its observation and its mask byte for byte the same, in the
AEC env, the single-agent env and the batched env, under every ruleset; and a move toward
an enemy out of sight ends where the same move toward the square it was last seen on ends,
at the same cost."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.envs.batched import BattleBatch
from wasteland.envs.single_agent import SingleAgentEnv
from wasteland.observe import fog
from wasteland.observe.encoding import to_ego
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.fork import fork
from wasteland.rules.protocol import Ruleset

# maps with walls and the dark, where enemies drop out of sight
SETUPS = [("pnp", "ruined_street"), ("simple", "ruined_street"), ("f2d20", "robot_depot")]
END = ACTION_INDEX[Action("end")]
SEEDS = 12
NEAR = 1  # squares from the decider a moved enemy keeps off (it would be in reach)


def memory(env: Any, me: int, slot: int) -> Any:
    """What the env remembers ``me`` saw of ``slot`` (observe/memory.py)."""
    row = env._enc.memory.seen_by(me)
    return row[slot] if row is not None and slot < len(row) else None


def a_hidden(env: Any, b: Battle, me: int, seen_before: bool) -> Combatant | None:
    """An enemy ``me`` does not see now, one it has seen before (or one it never saw)."""
    for o in fog.hidden(b, me):
        if (memory(env, me, o.slot) is not None) == seen_before:
            return o
    return None


def hide_elsewhere(env: Any, R: Ruleset, b: Battle, me: int, o: Combatant) -> bool:
    """Move ``o`` to another free square out of ``me``'s sight (not where it was last seen,
    more than 3 squares from ``me``) and halve its HP; a square that changes what the true
    battle allows when there is one (then True)."""
    g = b.grid
    c = b.combatants[me]
    row = g.sight[c.pos]
    rec = memory(env, me, o.slot)
    before = R.legal_ids(b)
    start = o.pos
    first = None
    chosen = None
    for q in range(g.n_cells):
        if (not g.passable[q] or q in b.occupied or row[q] or g.dist(q, c.pos) <= NEAR
                or (rec is not None and q == rec.square)):
            continue
        first = q if first is None else first
        b.set_pos(o, q)
        changed = R.legal_ids(b) != before
        b.set_pos(o, start)
        if changed:
            chosen = q
            break
    assert first is not None
    b.set_pos(o, first if chosen is None else chosen)
    o.hp = max(1, o.hp // 2)
    return chosen is not None


def same(x: dict[str, np.ndarray], y: dict[str, np.ndarray]) -> bool:
    return all(x[k].tobytes() == y[k].tobytes() for k in ("observation", "action_mask"))


@pytest.mark.parametrize(("ruleset", "scenario"), SETUPS)
@pytest.mark.parametrize("seen_before", [True, False], ids=["last_seen", "never_seen"])
def test_aec_env_moving_and_hurting_a_hidden_enemy_changes_nothing_it_shows(
        ruleset: str, scenario: str, seen_before: bool) -> None:
    cases = telling = 0
    for seed in range(SEEDS):
        env = combat_v0.env(ruleset=ruleset, scenario=scenario)
        env.reset(seed=seed)
        raw = env.unwrapped
        rng = np.random.default_rng(seed)
        for n, agent in enumerate(env.agent_iter(300)):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            b, me = raw.battle, raw._decision.combatant
            o = a_hidden(raw, b, me, seen_before)
            if o is not None and n >= 2:
                before = {k: v.copy() for k, v in env.observe(agent).items()}
                telling += hide_elsewhere(raw, raw.ruleset, b, me, o)
                raw._advance()  # the same decision, worked out again
                assert raw.agent_selection == agent
                assert same(env.observe(agent), before), (seed, n)
                cases += 1
                obs = env.observe(agent)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if telling >= 2:
                break
        if telling >= 2:
            break
    # the true battle's legality did change in some: the mask had something to leak
    assert cases >= 2 and telling >= 1


class Hooked(SingleAgentEnv):
    """A single-agent env that calls ``hook`` at each learner decision, then works the
    decision out again (what a changed battle would show)."""

    hook: Callable[[SingleAgentEnv], None] | None = None

    def _advance(self) -> None:
        super()._advance()
        if self.hook is not None and self._decision is not None:
            self.hook(self)
            super()._advance()


def perturber(seen_before: bool, act: bool, log: list[bool]) -> Callable[[Any], None]:
    """A hook that, at the first learner decision (after two) with a hidden enemy, moves
    and hurts it when ``act`` (``log`` gets whether the true legality changed)."""
    count = [0]

    def hook(env: Any) -> None:
        count[0] += 1
        b, me = env.battle, env._decision.combatant
        if log or count[0] < 3:
            return
        o = a_hidden(env, b, me, seen_before)
        if o is None:
            return
        log.append(hide_elsewhere(env, env.ruleset, b, me, o) if act else False)
    return hook


def make(ruleset: str, scenario: str, hook: Callable[[Any], None]) -> Hooked:
    env = Hooked(scenario=scenario, ruleset=ruleset, opponents="packet")
    env.hook = hook
    return env


def twins(ruleset: str, scenario: str, seen_before: bool, batched: bool, seed: int
          ) -> tuple[bool, bool]:
    """Two runs of one seed with the same actions, the second moving and hurting a hidden
    enemy at one decision: whether that happened, and whether the true legality changed.
    Every observation and mask of the two runs up to then are asserted equal."""
    logs: tuple[list[bool], list[bool]] = ([], [])
    rng = np.random.default_rng(seed)
    if batched:
        batches = [BattleBatch([partial(make, ruleset, scenario,
                                        perturber(seen_before, k == 1, logs[k]))])
                   for k in (0, 1)]
        for bb in batches:
            bb.seed(seed)
            bb.reset()
        for _ in range(120):
            a, b = batches[0].a, batches[1].a
            assert a.obs.tobytes() == b.obs.tobytes()
            assert a.masks.tobytes() == b.masks.tobytes()
            if logs[1]:
                break
            acts = np.array([rng.choice(np.flatnonzero(a.masks[0]))])
            ended = [dict(bb.step(acts)) for bb in batches]
            if ended[0] or ended[1]:
                break
        for bb in batches:
            bb.close()
    else:
        envs = [make(ruleset, scenario, perturber(seen_before, k == 1, logs[k]))
                for k in (0, 1)]
        got = [e.reset(seed=seed)[0] for e in envs]
        for _ in range(120):
            assert got[0].tobytes() == got[1].tobytes()
            masks = [e.action_masks() for e in envs]
            assert masks[0].tobytes() == masks[1].tobytes()
            if logs[1]:
                break
            act = int(rng.choice(np.flatnonzero(masks[0])))
            steps = [e.step(act) for e in envs]
            got = [s[0] for s in steps]
            if steps[0][2] or steps[0][3]:
                break
    return bool(logs[1]), bool(logs[1] and logs[1][0])


@pytest.mark.parametrize(("ruleset", "scenario"), SETUPS)
@pytest.mark.parametrize("batched", [False, True], ids=["single_agent", "batched"])
def test_single_agent_and_batched_envs_show_nothing_of_a_moved_hidden_enemy(
        ruleset: str, scenario: str, batched: bool) -> None:
    cases = telling = 0
    for seed in range(10):
        for seen_before in (True, False):
            hit, told = twins(ruleset, scenario, seen_before, batched, seed)
            cases += hit
            telling += told
        if cases >= 2 and telling >= 1:
            break
    assert cases >= 2 and telling >= 1


def cost(b: Battle, me: int) -> tuple[Any, ...]:
    """What a turn has spent, under every ruleset: the slot, 2d20's actions and pool,
    Simple's phase flags, and the mover's conditions."""
    x = b.extra_json()
    return (b.slot, x.get("minor"), x.get("major"), x.get("moved"), list(x.get("pools", [])),
            x.get("main"), x.get("done"), sorted(b.combatants[me].cond.items()))


def settle(R: Ruleset, b: Battle, me: int) -> None:
    """Decline every reaction the move offered, so the move runs to its end."""
    while not b.over and b.reactions and R.decider(b).combatant != me:
        R.apply(b, ACTION_TABLE[END])


@pytest.mark.parametrize(("ruleset", "scenario"), SETUPS)
def test_a_move_toward_a_hidden_enemy_ends_where_a_move_toward_its_last_seen_square_does(
        ruleset: str, scenario: str) -> None:
    kinds: set[str] = set()
    first = {"pnp": 0, "simple": 8, "f2d20": 3}[ruleset]  # fights where such moves come up
    for seed in range(first, first + 5):
        env = combat_v0.env(ruleset=ruleset, scenario=scenario)
        env.reset(seed=seed)
        raw = env.unwrapped
        R = raw.ruleset
        rng = np.random.default_rng(seed)
        for n, agent in enumerate(env.agent_iter(200)):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            b, me = raw.battle, raw._decision.combatant
            unseen = fog.hidden(b, me)
            x = unseen[0] if len(unseen) == 1 else None
            rec = memory(raw, me, x.slot) if x is not None else None
            moves = [i for i in raw._legal if x is not None and ACTION_TABLE[i].target == x.slot]
            if moves and rec is not None and n >= 2:
                g = b.grid
                far = [q for q in range(g.n_cells) if g.passable[q] and q not in b.occupied
                       and not g.sight[b.combatants[me].pos][q]
                       and g.dist(q, b.combatants[me].pos) > 12 and q != rec.square]
                if far:
                    b.set_pos(x, far[0])  # out of the way, and out of sight
                    raw._advance()
                    for i in raw._legal:
                        a = ACTION_TABLE[i]
                        if a.target != x.slot:
                            continue
                        assert a.kind in fog.MOVES  # nothing else aims at what it cannot see
                        twin = fork(b, 0)
                        twin.set_pos(twin.combatants[x.slot], int(rec.square))
                        R.apply(twin, a)  # legal there: the enemy really stands there
                        settle(R, twin, me)
                        played = copy.deepcopy(raw)
                        played.step(to_ego(i, played._order))
                        assert not played.infos[agent].get("refused")
                        settle(R, played.battle, me)
                        pb = played.battle
                        assert pb.combatants[me].pos == twin.combatants[me].pos, a.text()
                        assert cost(pb, me) == cost(twin, me), a.text()
                        assert pb.history[-1].split(": ")[1].startswith("goto")
                        kinds.add(a.kind)
                    if kinds:
                        break
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if len(kinds) >= (2 if ruleset != "pnp" else 1):
            break
    assert "move" in kinds
    if ruleset != "pnp":
        assert "sprint" in kinds  # a sprint (2d20) or a run (Simple) costs as one


def test_the_battle_is_put_back_exactly_after_a_look() -> None:
    env = combat_v0.env(ruleset="pnp", scenario="ruined_street")
    env.reset(seed=3)
    raw = env.unwrapped
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter(300):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        b, me = raw.battle, raw._decision.combatant
        if fog.hidden(b, me):
            before = (b.state(), list(b.occupied.items()), b.rng.getstate())
            fog.legal_ids(raw.ruleset, b, me, memory=raw.memory)
            with pytest.raises(RuntimeError), fog.belief(b, me, memory=raw.memory):
                raise RuntimeError("inside")
            assert (b.state(), list(b.occupied.items()), b.rng.getstate()) == before
            return
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no decision with an enemy out of sight")


def test_an_action_the_true_battle_refuses_keeps_the_decision_without_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone unseen in the way (fog.resolve gives None): nothing is played, the same
    agent decides again with that action gone from its mask, and info says so."""
    env = combat_v0.env(ruleset="pnp", scenario="ruined_street")
    env.reset(seed=3)
    raw = env.unwrapped
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter(300):
        obs, _, term, trunc, _ = env.last()
        assert not (term or trunc)
        if raw._fogged:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    agent = raw.agent_selection
    monkeypatch.setattr(fog, "resolve", lambda *a, **k: None)
    before = raw.battle.state()
    pick = int(np.flatnonzero(obs["action_mask"])[-1])
    env.step(pick)
    assert raw.agent_selection == agent and raw.infos[agent] == {"refused": True}
    assert raw.battle.state() == before
    mask = env.observe(agent)["action_mask"]
    assert mask[pick] == 0 and mask.sum() == obs["action_mask"].sum() - 1
    single = SingleAgentEnv(scenario="ruined_street", ruleset="pnp", opponents="packet")
    got, _ = single.reset(seed=0)
    for _ in range(200):
        if single._fogged:
            break
        got, *_ = single.step(int(rng.choice(np.flatnonzero(single.action_masks()))))
    assert single._fogged
    m = single.action_masks()
    pick = int(np.flatnonzero(m)[-1])
    again, reward, term, trunc, info = single.step(pick)
    assert info["refused"] and reward == 0.0 and not (term or trunc)
    assert again.tobytes() == got.tobytes() and not single.action_masks()[pick]
