"""Registered tasks: every seat of the benchmark suite (wasteland/bestiary/seats/,
docs/seats.md) as a Gymnasium id with a version, so that an RL user can name one and
compare with the baselines of docs/tasks.md.

    import gymnasium, wasteland.envs
    env = gymnasium.make("Wasteland/RadscorpionDuel-f2d20-v0")

The id is ``Wasteland/<Family><Map>-<ruleset>-v<version>``: the family's creature in
CamelCase and singular (radscorpions -> Radscorpion, super_mutants -> SuperMutant, robots
-> Robot), then the seat's map in CamelCase (vault_corridor -> VaultCorridor, a mirror
seat's map is Mirror), the ruleset as the command line writes it, and the task's version.

A task is the seat as ``training.seats`` plays it, through the single-agent env: the
learner plays the family's creatures on the seat's side of the seat's tuned scenario, the
packet the rest of that side (``allies``) and every other side (``opponents``); rewards
+1 win, -1 loss, 0 draw, no shaping; the observation of own sight; the scenario's round
limit. A mirror seat (the same line-up on both sides of a reflected map) puts the learner
on side 0 or side 1 at each reset, drawn from the env's seed, as the suite swaps sides
(``MirrorSeatEnv``). Held-out seats (maps no shipped policy trained on) are tasks too:
train elsewhere, and read them as the unseen test.

Each task's definition (map, line-up, learner side and kinds, allies, opponents, reward,
observation version and hash, sight, round limit) has a hash; tests/envs/test_tasks.py
holds every task's hash in tests/envs/task_hashes.json. Changing what a task is changes
its hash, and the rule is to bump its version (``VERSIONS`` below) rather than change
the recorded hash: results measured on ``-v0`` stay results of ``-v0``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np

from .single_agent import VECTOR_ENTRY_POINT, SingleAgentEnv

if TYPE_CHECKING:
    from wasteland.bestiary.suite import Seat

PREFIX = "Wasteland/"
# a seat id -> its task's version, when bumped from 0 (see the module docstring)
VERSIONS: dict[str, int] = {}
# what a task fixes besides its seat; the env's defaults, written out so that the
# definition's hash holds them
REWARD: dict[str, float] = {"win": 1.0, "loss": -1.0, "draw": 0.0, "shaping": 0.0}
SIGHT = "own"
AGENT = "packet"  # the learner's allies and its opponents


def camel(snake: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in snake.split("_"))


def family_word(family: str) -> str:
    """The suite's family name in the id: singular, CamelCase (super_mutants -> SuperMutant)."""
    return camel(family[:-1] if family.endswith("s") else family)


@dataclass(frozen=True)
class Task:
    """One registered task: a seat of the suite and its version."""

    seat: Seat
    version: int

    @property
    def id(self) -> str:
        s = self.seat
        return f"{PREFIX}{family_word(s.family)}{camel(s.map)}-{s.ruleset}-v{self.version}"

    @property
    def mirror(self) -> bool:
        return self.seat.side is None

    def kwargs(self) -> dict[str, Any]:
        """What the env is made with (the registry's kwargs)."""
        s = self.seat
        out: dict[str, Any] = {"scenario": str(s.scenario), "ruleset": s.ruleset,
                               "learner_kinds": list(s.kinds), "allies": AGENT,
                               "opponents": AGENT, "reward_shaping": REWARD["shaping"],
                               "draw_reward": REWARD["draw"], "sight": SIGHT}
        if s.side is not None:
            out["learner"] = s.side
        return out

    def definition(self) -> dict[str, Any]:
        """What the task is, as its hash covers it: the scenario's map and line-up (not its
        name, description or comments), who plays what, the reward, the observation, the
        round limit."""
        from wasteland.agents.policy import OBSERVATION_VERSION, observation_hash

        s = self.seat
        sc = s.load()
        lineup = [{"name": side.name, "alert": side.alert,
                   "combatants": [{"creature": c.creature, "at": list(c.at), "id": c.id,
                                   "ai": c.ai} for c in side.combatants]}
                  for side in sc.sides]
        return {"seat": s.id, "family": s.family, "ruleset": s.ruleset,
                "map": {"grid": sc.map, "legend": dict(sorted(sc.legend.items())),
                        "lighting": sc.lighting},
                "lineup": lineup,
                "learner": "side 0 or 1, drawn at reset" if s.side is None else s.side,
                "learner_kinds": sorted(s.kinds), "allies": AGENT, "opponents": AGENT,
                "reward": REWARD,
                "observation": {"version": OBSERVATION_VERSION, "hash": observation_hash(SIGHT)},
                "sight": SIGHT, "max_rounds": sc.max_rounds}

    def definition_hash(self) -> str:
        text = json.dumps(self.definition(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@cache
def tasks() -> tuple[Task, ...]:
    """Every registered task, in the suite's order."""
    from wasteland.bestiary.suite import load_suite

    return tuple(Task(s, VERSIONS.get(s.id, 0)) for s in load_suite())


def register_tasks() -> None:
    """Register every task's id with Gymnasium (done on importing wasteland.envs)."""
    for t in tasks():
        if t.id not in gymnasium.registry:
            entry = "MirrorSeatEnv" if t.mirror else "SingleAgentEnv"
            module = "tasks" if t.mirror else "single_agent"
            # a mirror seat draws its side per reset: the batch makes plain single-agent
            # envs, so make_vec gives Gymnasium's own vector env there
            gymnasium.register(id=t.id, entry_point=f"wasteland.envs.{module}:{entry}",
                               vector_entry_point=None if t.mirror else VECTOR_ENTRY_POINT,
                               kwargs=t.kwargs())


class MirrorSeatEnv(gymnasium.Env):
    """A mirror seat: the learner plays the family's creatures on side 0 or side 1, drawn
    from the env's random state at each reset (``info["learner_side"]`` says which), the
    packet the other side. Otherwise the single-agent env of that side, whose methods
    (``action_masks``, ``order``, ``env_action``, ``battle``...) it answers with."""

    metadata = SingleAgentEnv.metadata

    def __init__(self, scenario: Any = "vault_corridor", ruleset: Any = "pnp",
                 learner_kinds: Sequence[str] | None = None, render_mode: str | None = None,
                 **kwargs: Any) -> None:
        self.sides = [SingleAgentEnv(scenario, ruleset, learner=side,
                                     learner_kinds=learner_kinds, render_mode=render_mode,
                                     **kwargs) for side in (0, 1)]
        self.env = self.sides[0]
        self.render_mode = render_mode
        self.observation_space = self.env.observation_space
        self.action_space = self.env.action_space

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        side = int(self.np_random.integers(2))
        self.env = self.sides[side]
        obs, info = self.env.reset(seed=int(self.np_random.integers(2**31 - 1)),
                                   options=options)
        info["learner_side"] = side
        return obs, info

    def step(self, action: Any):
        return self.env.step(action)

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def render(self) -> Any:  # type: ignore[override,unused-ignore]
        return self.env.render()

    def close(self) -> None:
        for e in self.sides:
            e.close()

    def __getattr__(self, name: str) -> Any:
        # only what this class lacks reaches here; "sides" guards a half-built or unpickled one
        if name.startswith("_") or name in ("sides", "env"):
            raise AttributeError(name)
        return getattr(self.env, name)
