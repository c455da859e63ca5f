"""Expert iteration: the network learns from a search agent on the states the network itself
reaches (DAgger), before PPO.

Each iteration plays the league env with the current network in the learner's seat (the
first iteration, with no network yet, is the teacher's own play; in the second the
teacher still plays a ``beta`` share of the moves, halved each round after), asks the teacher (default the
search agent, ``agents/search.py``) what it would do in every state visited, adds those
labels to the data of all earlier iterations, and fits the policy to them (masked
cross-entropy) and the value head to the discounted returns that followed (the same fit as
the packet warm start, ``imitation.warm_start``). The teacher never sees the battle's own
dice: the search plays its continuations on copies with seeds of its own.

Labelling is the cost (a search decision takes tens to hundreds of milliseconds, the
network's under one), so ``expert.workers`` processes label in parallel, each with its
own env, teacher and a numpy copy of the network.
"""

from __future__ import annotations

import multiprocessing as mp
from typing import Any

import numpy as np

from wasteland.agents.base import View, intent_of, share_memory
from wasteland.agents.make import make_agent
from wasteland.agents.policy import Policy
from wasteland.observe import fog
from wasteland.rules.battle import ACTIVE

from .belief import last_seen
from .config import TrainConfig, teacher_agent
from .imitation import discounted


def _choose(policy: Policy, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator
            ) -> int:
    """A sample of the network's masked distribution (DAgger follows the learner's own
    play, spread as PPO's rollouts are)."""
    z = policy.logits(obs).astype(np.float64)
    legal = np.flatnonzero(mask)
    p = np.exp(z[legal] - z[legal].max())
    p /= p.sum()
    return int(legal[int(rng.choice(len(legal), p=p))])


def _teach(expert: Any, inner: Any, blind: bool) -> int:
    """The teacher's action as an env id, chosen among the learner's own legal actions
    (its mask: what is legal on the board as it knows it, observe/fog.py), so every label is
    one the network may play. ``blind``: decided on that board too (an enemy out of sight
    where last seen, one never seen away), or, while it knows of no enemy at all, with
    hidden enemies where last seen (``last_seen``) as before.

    Where the teacher's board is not the mask's (the true one, or ``last_seen``'s, where a
    hidden enemy may stand on the square a move would end on), it is offered only the
    mask's actions that are legal there too: a search plays its candidates on copies of
    the board it is given, unchecked. Should none be, it decides on the mask's board."""
    b = inner.battle
    dec = inner._decision
    rs = inner.ruleset
    legal = list(inner._legal)
    memory = inner._enc.memory
    share_memory([expert], b, memory)  # a teacher that observes remembers with the env

    def ask(ids: list[int]) -> int:
        return int(inner.env_action(intent_of(expert, expert.act(View(b, rs, dec, ids)))))

    def here() -> list[int]:  # the mask's actions that are legal on the board as it is now
        if not inner._fogged:  # no enemy out of sight: the mask is the board's own
            return legal
        ok = set(rs.legal_ids(b))
        return [i for i in legal if i in ok]

    me = dec.combatant
    side_sight = inner.sight == "side"
    if blind:
        with fog.belief(b, me, side_sight, memory=memory):
            side = b.combatants[me].side
            if any(o.side != side and o.status == ACTIVE for o in b.combatants):
                return ask(legal)
        with last_seen(b, me, memory):
            ids = here()
            if ids:
                return ask(ids)
    else:
        ids = here()
        if ids:
            return ask(ids)
    with fog.belief(b, me, side_sight, memory=memory):  # the mask's own board
        return ask(legal)


def label(cfg: TrainConfig, policy: Policy | None, decisions: int, seed: int, beta: float,
          teacher: str) -> dict[str, np.ndarray]:
    """``decisions`` states of the league env, with the teacher's action in each: played
    by the teacher with probability ``beta`` (always without a ``policy``), else by the
    network: observations, masks, the teacher's egocentric ids, and the discounted
    returns of the play that followed. An episode on a map named in ``expert.teachers``
    is labelled by that map's teacher, any other by ``teacher``."""
    from .league_env import LeagueEnv

    env = LeagueEnv(cfg)
    rng = np.random.default_rng(seed)
    # one agent per distinct name (a policy file is loaded once however many maps use it)
    by_name: dict[str, Any] = {}
    for name in (teacher, *cfg.expert.teachers.values()):
        if name not in by_name:
            by_name[name] = make_agent(teacher_agent(name), int(rng.integers(2**31 - 1)))
    default = by_name[teacher]
    per_map: dict[str | None, Any] = {k: by_name[v] for k, v in cfg.expert.teachers.items()}
    # a policy decides from its own observation, which shows only what it saw already
    blind = {id(a) for n, a in by_name.items()
             if cfg.expert.last_seen and not n.startswith("policy:")}
    obs, _ = env.reset(seed=int(rng.integers(2**31 - 1)))
    obs_l: list[np.ndarray] = []
    mask_l: list[np.ndarray] = []
    act_l: list[int] = []
    ret_l: list[float] = []
    rewards: list[float] = []
    gamma = cfg.ppo.gamma
    while len(act_l) < decisions:
        inner = env.env
        assert inner is not None and inner.battle is not None
        mask = env.action_masks()
        expert = per_map.get(env.entry, default)  # an arena's entry is None: the default
        a = _teach(expert, inner, id(expert) in blind)
        obs_l.append(obs)
        mask_l.append(mask)
        act_l.append(a)
        play = a if policy is None or rng.random() < beta else _choose(policy, obs, mask, rng)
        obs, reward, term, trunc, _ = env.step(play)
        rewards.append(float(reward))
        if term or trunc:
            ret_l.extend(discounted(rewards, gamma))
            rewards = []
            obs, _ = env.reset()
    ret_l.extend(discounted(rewards, gamma))
    n = len(act_l)
    return {"obs": np.asarray(obs_l, dtype=np.float32), "mask": np.asarray(mask_l, dtype=bool),
            "action": np.asarray(act_l, dtype=np.int64),
            "ret": np.asarray(ret_l[:n], dtype=np.float32)}


def _label_part(args: tuple[TrainConfig, Policy | None, int, int, float, str]
                ) -> dict[str, np.ndarray]:
    return label(*args)


def label_parallel(cfg: TrainConfig, policy: Policy | None, decisions: int, seed: int,
                   beta: float) -> dict[str, np.ndarray]:
    """``label`` split over ``cfg.expert.workers`` forked processes (seeds seed, seed+1...)."""
    e = cfg.expert
    w = max(1, min(e.workers, decisions))
    shares = [decisions // w + (1 if k < decisions % w else 0) for k in range(w)]
    jobs = [(cfg, policy, n, seed * 1000 + k, beta, e.teacher) for k, n in enumerate(shares)]
    if w == 1:
        parts = [_label_part(jobs[0])]
    else:
        with mp.get_context("fork").Pool(w) as pool:
            parts = pool.map(_label_part, jobs)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def merge(a: dict[str, np.ndarray] | None, b: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    if a is None:
        return b
    return {k: np.concatenate([a[k], b[k]]) for k in a}


def teacher_share(beta: float, i: int) -> float:
    """The share of round ``i``'s moves (0 for the first) the teacher plays: all of the
    first (there is no network yet to play), ``beta`` of the second, halved each round
    after."""
    return 1.0 if i == 0 else beta / (2 ** (i - 1))


def expert_iteration(cfg: TrainConfig, model: Any, policy_of: Any, after: Any = None
                     ) -> dict[str, float]:
    """Run ``cfg.expert.iterations`` rounds on ``model`` (a MaskablePPO); ``policy_of(model)``
    gives its numpy policy, ``after(i, stats)`` is called after each round (evaluation,
    checkpoint). Returns the last round's fit statistics."""
    import time

    from .imitation import warm_start

    e = cfg.expert
    data: dict[str, np.ndarray] | None = None
    stats: dict[str, float] = {}
    for i in range(e.iterations):
        t = time.time()
        beta = teacher_share(e.beta, i)
        fresh = label_parallel(cfg, policy_of(model) if i else None, e.decisions,
                               cfg.seed + 7919 * (i + 1), beta)
        data = merge(data, fresh)
        stats = warm_start(model, data, e.epochs, lr=e.learning_rate, seed=cfg.seed + i)
        stats.update(iteration=float(i + 1), labelled=float(len(data["action"])),
                     seconds=round(time.time() - t, 1))
        if after is not None:
            after(i + 1, stats)
    return stats
