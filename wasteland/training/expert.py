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
from pathlib import Path
from typing import Any, Final

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


# what each round leaves in the run folder's expert/ (``expert_iteration``'s ``store``)
ROUND_ARRAYS: Final = {"obs": np.float32, "mask": np.bool_, "action": np.int64, "ret": np.float32}
ROUND_STATS: Final = ("agreement", "value_loss", "decisions", "labelled", "seconds", "iteration")


def _round_files(store: Path, i: int) -> tuple[Path, Path, Path]:
    return store / f"round_{i}.npz", store / f"round_{i}.zip", store / f"round_{i}.json"


def save_round(store: Path, i: int, fresh: dict[str, np.ndarray], model: Any,
               stats: dict[str, float]) -> None:
    """Round ``i``'s labels, the network fitted after it and its statistics, each written
    whole (a temporary file renamed) with the statistics last: a round counts as done
    only when all three are there."""
    import json
    import os

    store.mkdir(exist_ok=True)
    data, net, info = _round_files(store, i)
    tmp = store / f".round_{i}.npz"
    with open(tmp, "wb") as f:
        np.savez(f, obs=fresh["obs"], mask=fresh["mask"], action=fresh["action"],
                 ret=fresh["ret"])
    os.replace(tmp, data)
    model.save(store / f".round_{i}")  # SB3 adds ".zip"
    os.replace(store / f".round_{i}.zip", net)
    tmp = store / f".round_{i}.json"
    tmp.write_text(json.dumps({k: float(stats[k]) for k in ROUND_STATS}))
    os.replace(tmp, info)


def load_round(store: Path, i: int, decisions: int
               ) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Round ``i``'s labels and statistics as ``save_round`` wrote them (``decisions``
    labels, the run's ``expert.decisions``), checked: a file that is not what a round
    leaves is one line. Only regular files are read, no array larger than ``decisions``
    rows is inflated, and nothing in them is unpickled."""
    import os
    import zipfile

    from wasteland import limits
    from wasteland.observe.encoding import N_ACTIONS, OBS_SIZE
    from wasteland.rules.errors import WastelandError

    data, _, info = _round_files(store, i)
    again = f"delete {store} to label its rounds again"

    def refuse(why: str) -> WastelandError:
        return WastelandError(f"{data}: not the labels of an expert round ({why}); {again}")

    row = {"obs": OBS_SIZE * 4, "mask": N_ACTIONS, "action": 8, "ret": 4}  # bytes a label
    fd, st = limits.open_regular(data, lambda m: WastelandError(f"{m}; {again}"))
    with os.fdopen(fd, "rb") as f:
        # np.savez stores the arrays as they are: a larger file is not a round's, and its
        # zip directory is not read
        if st.st_size > decisions * sum(row.values()) + 4096 * (len(row) + 1):
            raise refuse(f"the file holds {st.st_size:,} bytes, more than {decisions:,} "
                         f"labels take")
        try:
            with zipfile.ZipFile(f) as z:  # the sizes it declares bound what np.load inflates
                sizes = {m.filename: m.file_size for m in z.infolist()}
            if set(sizes) != {f"{k}.npy" for k in ROUND_ARRAYS}:
                raise refuse(f"arrays {', '.join(sorted(sizes))[:80]}; a round holds "
                             f"{', '.join(ROUND_ARRAYS)}")
            for k, per in row.items():
                if sizes[f"{k}.npy"] > decisions * per + 4096:
                    raise refuse(f"{k} holds {sizes[f'{k}.npy']:,} bytes, more than "
                                 f"{decisions:,} labels take")
            f.seek(0)
            with np.load(f, allow_pickle=False) as z:
                got = {k: z[k] for k in z.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
            raise refuse(" ".join(str(e).split())[:120] or type(e).__name__) from None
    n = len(got["action"])
    shapes = {"obs": (n, OBS_SIZE), "mask": (n, N_ACTIONS), "action": (n,), "ret": (n,)}
    for k, dtype in ROUND_ARRAYS.items():
        if got[k].dtype != dtype or got[k].shape != shapes[k]:
            raise refuse(f"{k} is {got[k].dtype} {got[k].shape}, not {np.dtype(dtype)} "
                         f"{shapes[k]}")
    a = got["action"]
    if n and (a.min() < 0 or a.max() >= N_ACTIONS or not got["mask"][np.arange(n), a].all()):
        raise refuse("a label outside its state's mask")
    if not (np.isfinite(got["obs"]).all() and np.isfinite(got["ret"]).all()):
        raise refuse("a number that is not finite")

    def bad(m: str) -> WastelandError:
        return WastelandError(f"{m}; {again}")

    stats = limits.load_json(limits.read_text(info, "manifest", bad), str(info), bad)
    if not isinstance(stats, dict) or set(stats) != set(ROUND_STATS) or not all(
            type(v) in (int, float) for v in stats.values()):
        raise bad(f"{info}: not an expert round's statistics (an object of the numbers "
                  f"{', '.join(ROUND_STATS)})")
    return got, {k: float(v) for k, v in stats.items()}


def rounds_done(store: Path, iterations: int) -> int:
    """How many rounds, from the first and without a gap, left all their files."""
    k = 0
    while k < iterations and all(p.is_file() for p in _round_files(store, k + 1)):
        k += 1
    return k


def expert_iteration(cfg: TrainConfig, model: Any, policy_of: Any, after: Any = None,
                     store: Path | None = None, resume: Any = None) -> dict[str, float]:
    """Run ``cfg.expert.iterations`` rounds on ``model`` (a MaskablePPO); ``policy_of(model)``
    gives its numpy policy, ``after(i, stats)`` is called after each round (evaluation,
    checkpoint). Returns the last round's fit statistics.

    ``store``: a folder where each round leaves its labels, the network after it and its
    statistics (``save_round``); with ``resume`` (``resume(model, path)`` loads a
    checkpoint into ``model``), the rounds found there are not labelled again: a long run
    stopped between rounds loses only the round it was in."""
    import time

    from .imitation import warm_start

    e = cfg.expert
    data: dict[str, np.ndarray] | None = None
    stats: dict[str, float] = {}
    done = rounds_done(store, e.iterations) if store is not None and resume else 0
    if done:
        assert store is not None
        for i in range(1, done + 1):
            fresh, stats = load_round(store, i, e.decisions)
            data = merge(data, fresh)
        resume(model, _round_files(store, done)[1])
    for i in range(done, e.iterations):
        t = time.time()
        beta = teacher_share(e.beta, i)
        fresh = label_parallel(cfg, policy_of(model) if i else None, e.decisions,
                               cfg.seed + 7919 * (i + 1), beta)
        data = merge(data, fresh)
        stats = warm_start(model, data, e.epochs, lr=e.learning_rate, seed=cfg.seed + i)
        stats.update(iteration=float(i + 1), labelled=float(len(data["action"])),
                     seconds=round(time.time() - t, 1))
        if store is not None:
            save_round(store, i + 1, fresh, model, stats)
        if after is not None:
            after(i + 1, stats)
    return stats
