"""combat_v0 as an RLlib multi-agent env, with everything RLlib needs handled here, so a
user writes no wrapper:

- the observation is ``{"observations": ..., "action_mask": ...}`` (the keys RLlib's
  action-masking module reads; combat_v0 says ``observation``), the mask as float32;
- turn-based: each step returns the observation of the one seat deciding next; rewards
  reach the other seats later, when RLlib hands them to their next step, and every seat
  gets a last observation when the battle ends (RLlib needs one to bootstrap a truncated
  episode);
- the learning seats are the config's creature kinds, on either side: one shared module
  per kind (the seat id ``SIDE/KIND/N`` names its module), and both sides learn where
  both hold such creatures (mirror arenas: self-play). Every other combatant is played
  inside the env by the config's allies agent or the phase's opponents (packet, random),
  so no step is spent on a seat that is not deciding;
- seat ids, not combatant ids: ``0/super_mutant/1`` is the second super mutant of the
  first side, the same id on every map, so arenas with new maps each episode keep a fixed
  set of possible agents;
- an action outside the mask (RLlib's env check samples without it) plays ``end`` and
  is counted in the seat's info, instead of raising mid-rollout.

Per-side returns are reported by ``SideReturns`` (rllib_run.py): RLlib's own episode return
sums every agent, which is zero in a symmetric zero-sum fight.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from wasteland.agents.base import Agent, View, intent_of
from wasteland.agents.loop import play
from wasteland.agents.make import make_agent
from wasteland.bestiary.models import Scenario
from wasteland.envs import combat_v0
from wasteland.observe.encoding import observation_box, to_ego
from wasteland.rules.actions import ACTION_INDEX, MAX_COMBATANTS, N_ACTIONS, Action

from .config import TrainConfig, training_scenario

ARENA_POOL = 64  # maps are costly to lay out (league_env.py): reuse a pool


def seat_id(side: int, kind: str, n: int) -> str:
    return f"{side}/{kind}/{n}"


def module_of(agent_id: Any, *args: Any, **kwargs: Any) -> str:
    """RLlib's policy_mapping_fn: a seat plays with its creature kind's module."""
    return str(agent_id).split("/")[1]


def side_of_seat(agent_id: Any) -> int:
    return int(str(agent_id).split("/")[0])


def seats_of(scenario: Scenario, kinds: set[str]) -> dict[int, str]:
    """Combatant slot -> seat id, for the combatants of ``kinds`` (slots in scenario order,
    as the battle numbers them)."""
    out: dict[int, str] = {}
    slot = 0
    for si, side in enumerate(scenario.sides):
        seen: dict[str, int] = {}
        for p in side.combatants:
            if p.creature in kinds:
                n = seen.get(p.creature, 0)
                seen[p.creature] = n + 1
                out[slot] = seat_id(si, p.creature, n)
            slot += 1
    return out


class RLlibCombat(MultiAgentEnv):
    """``env_config``: ``{"config": TrainConfig as a dict, "progress": 0.0}``, or the
    TrainConfig itself."""

    def __init__(self, env_config: dict[str, Any] | TrainConfig | None = None) -> None:
        super().__init__()
        ec: Any = env_config or {}
        cfg = ec if isinstance(ec, TrainConfig) else TrainConfig.model_validate(
            dict(ec).get("config", ec))
        self.cfg = cfg
        self.kinds = set(cfg.creatures)
        self.scenarios = [training_scenario(s) for s in cfg.scenarios]
        self.progress = float(ec.get("progress", 0.0)) if isinstance(ec, dict) else 0.0
        space = gym.spaces.Dict({
            "observations": observation_box(),
            "action_mask": gym.spaces.Box(0.0, 1.0, (N_ACTIONS,), np.float32)})
        sides = max([2, *(len(sc.sides) for sc in self.scenarios)])
        self.possible_agents = [seat_id(s, k, n) for s in range(sides) for k in cfg.creatures
                                for n in range(MAX_COMBATANTS)]
        self.agents = []
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, gym.spaces.Discrete(N_ACTIONS))
        self._rng = np.random.default_rng(cfg.seed)
        self._envs: dict[int, combat_v0.raw_env] = {}
        self._arenas: list[Scenario] = []
        self.env: combat_v0.raw_env | None = None
        self._seat: dict[int, str] = {}  # combatant slot -> seat id
        self._name: dict[str, str] = {}  # seat id -> the combatant's agent name in combat_v0
        self._others: dict[int, Agent] = {}  # combatant slot -> the agent playing it
        self._pending: dict[str, float] = {}
        self.seats: list[str] = []  # this episode's learning seats
        self.illegal = 0

    # the trainer sets it between iterations (EnvRunner.foreach_env)
    def set_progress(self, progress: float) -> None:
        self.progress = float(progress)

    def _scenario(self) -> Scenario:
        rng, cfg = self._rng, self.cfg
        if self.scenarios and rng.random() >= cfg.arenas.share:
            return self.scenarios[int(rng.integers(len(self.scenarios)))]
        if len(self._arenas) >= ARENA_POOL and rng.random() >= 0.05:
            return self._arenas[int(rng.integers(len(self._arenas)))]
        from .arenas import random_arena

        a = cfg.arenas
        mirror = bool(rng.random() < a.mirror)
        sc = random_arena(rng, cfg.creatures, cfg.creatures if mirror else a.foes,
                          creature_count=a.creature_count,
                          foe_count=a.creature_count if mirror else a.foe_count,
                          ruleset=cfg.ruleset)
        if len(self._arenas) < ARENA_POOL:
            self._arenas.append(sc)
        else:
            k = int(rng.integers(len(self._arenas)))
            self._envs.pop(id(self._arenas[k]), None)
            self._arenas[k] = sc
        return sc

    def _env(self, sc: Scenario) -> combat_v0.raw_env:
        env = self._envs.get(id(sc))
        if env is None:
            env = combat_v0.raw_env(ruleset=self.cfg.ruleset, scenario=sc,
                                    reward_shaping=self.cfg.reward.shaping,
                                    illegal_action="end", sight=self.cfg.sight)
            self._envs[id(sc)] = env
        return env

    def _opponent_kind(self) -> str:
        mix = self.cfg.phase_at(self.progress).mix
        # the league is RLlib's own self-play here (mirror arenas); packet stands in for it
        names = [k for k, w in mix.items() if w > 0 and k != "league"] or ["packet"]
        w = np.array([mix.get(k, 1.0) for k in names], dtype=float)
        return names[int(self._rng.choice(len(names), p=w / w.sum()))]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for _ in range(20):  # a map may end before any seat decides: draw another
            sc = self._scenario()
            env = self._env(sc)
            env.reset(seed=int(self._rng.integers(2**31 - 1)))
            self.env = env
            self._seat = seats_of(sc, self.kinds)
            opp = self._opponent_kind()
            learner_sides = {side_of_seat(s) for s in self._seat.values()}
            s = int(self._rng.integers(2**31 - 1))
            assert env.battle is not None
            self._others = {
                c.slot: make_agent(self.cfg.allies if c.side in learner_sides else opp,
                                   s + c.slot)
                for c in env.battle.combatants if c.slot not in self._seat}
            self._name = {a: env.possible_agents[s] for s, a in self._seat.items()}
            self.seats = sorted(self._seat.values())
            self.agents = list(self.seats)
            self._pending = dict.fromkeys(self.seats, 0.0)
            self.illegal = 0
            self._play_others()
            if not self._over():
                aid = self._deciding()
                return {aid: self._obs(aid)}, {aid: {}}
        raise RuntimeError("20 maps in a row ended before a learning seat could act")

    def step(self, action_dict: dict[Any, Any]):
        env = self.env
        assert env is not None
        aid = self._deciding()
        if aid not in action_dict:
            raise ValueError(f"the seat deciding is {aid}; got actions for "
                             f"{', '.join(map(str, action_dict)) or 'nobody'}")
        env.step(int(action_dict[aid]))
        illegal = bool(env.infos[self._name[aid]].get("illegal_action"))
        self.illegal += illegal
        self._collect()
        self._play_others()
        pending = self._pending
        if self._over():
            assert env.battle is not None
            winner = env.battle.winner
            draw = self.cfg.reward.draw if winner is None else 0.0
            seats = self.seats
            obs = {a: self._obs(a) for a in seats}
            rew = {a: pending[a] + draw for a in seats}
            infos = {a: {"winner": -1 if winner is None else winner, "illegal": self.illegal}
                     for a in seats}
            truncated = env.battle.end_reason == "max_rounds"
            flags = dict.fromkeys(seats, True)
            flags["__all__"] = True
            none = dict.fromkeys(seats, False)
            none["__all__"] = False
            self._pending = dict.fromkeys(seats, 0.0)
            return (obs, rew, none if truncated else flags, flags if truncated else none,
                    infos)
        nxt = self._deciding()
        rew = {a: r for a, r in pending.items() if r or a in (aid, nxt)}
        for a in rew:
            pending[a] = 0.0
        info: dict[str, Any] = {"illegal_action": True} if illegal and nxt == aid else {}
        done = {"__all__": False}
        return {nxt: self._obs(nxt)}, rew, done, dict(done), {nxt: info}

    # --- inside the env ------------------------------------------------------------------
    def _over(self) -> bool:
        env = self.env
        assert env is not None and env.battle is not None
        return env.battle.over

    def _deciding(self) -> str:
        env = self.env
        assert env is not None and env.battle is not None
        return self._seat[env.ruleset.decider(env.battle).combatant]

    def _obs(self, aid: str) -> dict[str, np.ndarray]:
        env = self.env
        assert env is not None
        o = env.observe(self._name[aid])
        return {"observations": o["observation"],
                "action_mask": o["action_mask"].astype(np.float32)}

    def _collect(self) -> None:
        env = self.env
        assert env is not None
        names = env.possible_agents
        pending = self._pending
        for slot, aid in self._seat.items():
            pending[aid] += env.rewards[names[slot]]

    def _play_others(self) -> None:
        """Combatants that are not learning seats act until a seat decides or it ends."""
        env = self.env
        assert env is not None and env.battle is not None
        b = env.battle

        def take(view: View, agent: Agent, action: Action) -> None:
            # the env applies it, by its table id (a policy's stale goto: the move behind it)
            env.step(to_ego(ACTION_INDEX[intent_of(agent, action)], env.order()))
            self._collect()

        play(env.ruleset, b, [self._others.get(c.slot) for c in b.combatants], apply=take)
