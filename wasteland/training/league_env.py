"""The env a config trains in: every episode draws a map (a built-in scenario of the config,
or a procedurally generated arena) and the opponents (packet, random, or a frozen
snapshot of the policy itself: the league), by the curriculum phase of the run.

It is a Gymnasium env with SingleAgentEnv's spaces (egocentric observation, egocentric
action ids, ``action_masks()``); the learner plays the config's creature kinds, the rest
of its side is played by the config's ``allies`` agent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from wasteland.bestiary.models import Scenario
from wasteland.envs.single_agent import SingleAgentEnv
from wasteland.observe.encoding import observation_box
from wasteland.rules.actions import N_ACTIONS

from .config import TrainConfig, training_scenario
from .seats import side_of

# Arenas are drawn from a pool that renews slowly: laying out a new map (its sight and
# walking tables) costs about 40 ms, dozens of episodes' worth of steps, while a map
# already seen is cached by the engine (rules/grid.py keeps 256).
ARENA_POOL = 96
ARENA_RENEW = 0.05
# the pool is kept per process and config, shared by every env of the process: 64 batched
# envs each laying out 96 arenas of their own spent minutes before the first rollout
_POOLS: dict[str, list[tuple[Scenario, bool]]] = {}
# idle single-agent envs by config, map and opponents' kind, shared by every env of the
# process: an episode is fixed by the seed its env is reset with (the battle and every
# agent in it are made again then), so which idle env plays it changes nothing, and 64
# batched envs no longer each build their own for every map and kind they meet (1.3 ms
# each, a fifth of a batched step's time before; docs/speed.md)
_IDLE: dict[str, dict[tuple[str, str], list[SingleAgentEnv]]] = {}


class LeagueEnv(gymnasium.Env):
    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, cfg: TrainConfig) -> None:
        self.cfg = cfg
        self.observation_space = observation_box()
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.scenarios: list[Scenario] = [training_scenario(s) for s in cfg.scenarios]
        self.progress = 0.0
        self.league: list[Any] = []  # Policy objects of frozen snapshots
        self._league_paths: list[str] = []
        self._pool_key = cfg.hash()
        self._arenas: list[tuple[Scenario, bool]] = _POOLS.setdefault(self._pool_key, [])
        self.env: SingleAgentEnv | None = None
        self._env_key: tuple[str, str] | None = None  # where self.env goes back when idle
        self.episode: dict[str, Any] = {}
        # the config's `scenarios` entry the episode plays (None on an arena): per-map
        # teachers of expert iteration are keyed by it
        self.entry: str | None = None

    # called by the trainer through VecEnv.env_method
    def set_progress(self, progress: float) -> None:
        self.progress = float(progress)

    def set_league(self, paths: list[str]) -> None:
        if paths == self._league_paths:
            return
        from wasteland.agents.policy import load_policy

        self.league = [load_policy(Path(p)) for p in paths]
        self._league_paths = list(paths)

    def _opponent(self, rng: np.random.Generator) -> tuple[str, Any]:
        mix = self.cfg.phase_at(self.progress).mix
        names = [k for k, w in mix.items() if w > 0 and (k != "league" or self.league)]
        if not names:
            return "packet", "packet"
        w = np.array([mix[k] for k in names], dtype=float)
        kind = names[int(rng.choice(len(names), p=w / w.sum()))]
        if kind != "league":
            return kind, kind
        from wasteland.agents.policy import PolicyAgent

        pol = self.league[int(rng.integers(len(self.league)))]
        # a snapshot samples its moves, so the learner meets a spread of play
        return "league", PolicyAgent(pol, int(rng.integers(2**31 - 1)), temperature=1.0)

    def _make(self, rng: np.random.Generator, opponent: Any, kind: str) -> SingleAgentEnv:
        cfg = self.cfg
        a = cfg.arenas
        # MaskablePPO acts inside the mask: an illegal action is a bug to hear about
        common = dict(ruleset=cfg.ruleset, opponents=opponent, learner_kinds=cfg.creatures,
                      allies=cfg.allies, reward_shaping=cfg.reward.shaping, sight=cfg.sight,
                      draw_reward=cfg.reward.draw, illegal_action="raise")
        if not self.scenarios or rng.random() < a.share:
            sc, mirror = self._arena(rng)
            self.episode = {"map": "arena" + (" (mirror)" if mirror else ""), "opponents": kind}
            key = (f"arena:{id(sc)}", kind)
            learner: int | str = "Creatures"
            self.entry = None
        else:
            k = int(rng.integers(len(self.scenarios)))
            sc, self.entry = self.scenarios[k], cfg.scenarios[k]
            self.episode = {"map": sc.id, "opponents": kind}
            key, learner = (sc.id, kind), side_of(sc, cfg.creatures)
        idle = _IDLE.setdefault(self._pool_key, {})
        if self.env is not None and self._env_key is not None:  # its episode is over
            idle.setdefault(self._env_key, []).append(self.env)
        self.env = None
        env = None
        waiting = idle.get(key)
        while waiting:
            got = waiting.pop()
            # the same map (each env loads its config's own copy of a built-in one), and
            # not one of an arena whose id a newer arena took
            if got.scenario is sc or got.scenario == sc:
                env = got
                break
        if env is None:
            env = SingleAgentEnv(scenario=sc, learner=learner, **common)
        self._env_key = key
        if kind == "league":  # a new snapshot agent each episode
            env.set_opponents(opponent)
        return env

    def _arena(self, rng: np.random.Generator) -> tuple[Scenario, bool]:
        from .arenas import random_arena

        pool = self._arenas
        if len(pool) >= ARENA_POOL and rng.random() >= ARENA_RENEW:
            return pool[int(rng.integers(len(pool)))]
        a, cfg = self.cfg.arenas, self.cfg
        mirror = bool(rng.random() < a.mirror)
        sc = random_arena(rng, cfg.creatures, cfg.creatures if mirror else a.foes,
                          creature_count=a.creature_count,
                          foe_count=a.creature_count if mirror else a.foe_count,
                          ruleset=cfg.ruleset)
        if len(pool) < ARENA_POOL:
            pool.append((sc, mirror))
        else:  # renew: the replaced map's envs go with it (in every env, when next pruned)
            k = int(rng.integers(len(pool)))
            pool[k] = (sc, mirror)
        idle = _IDLE.get(self._pool_key)
        if idle is not None and len(idle) > 2 * ARENA_POOL:  # the replaced maps' envs go
            live = {f"arena:{id(s)}" for s, _ in pool}
            for gone in [key for key in idle if key[0].startswith("arena:")
                         and key[0] not in live]:
                del idle[gone]
        return sc, mirror

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        for _ in range(20):  # a drawn arena may end before the learner acts: draw again
            kind, opponent = self._opponent(rng)
            self.env = self._make(rng, opponent, kind)
            try:
                obs, info = self.env.reset(seed=int(rng.integers(2**31 - 1)))
            except Exception as e:  # noqa: BLE001 - only the "ended before acting" case
                if "ended before" not in str(e):
                    raise
                continue
            info.update(self.episode)
            return obs, info
        raise RuntimeError("20 maps in a row ended before the learner could act")

    def step(self, action: Any):
        assert self.env is not None
        obs, reward, term, trunc, info = self.env.step(action)
        if term or trunc:
            info.update(self.episode)
        return obs, reward, term, trunc, info

    def action_masks(self) -> np.ndarray:
        assert self.env is not None
        return self.env.action_masks()
