"""A Gymnasium env in which one side learns and every other combatant is driven by an agent.

The learner's policy decides for each combatant of its side in turn (and for their
reactions), or only for its combatants of the creature kinds named in ``learner_kinds``
(the rest of its side is then played by ``allies``); opponents are scripted agents by
default, or the agent the scenario names for their side (a side's ``agent`` field:
random, scripted, packet or ``policy:NAME``) when ``opponents`` is not given. The
observation is combat_v0's egocentric vector for the learner combatant deciding now (no
mask inside it), the action space is the fixed action table with
egocentric targets (target ``k`` is observation block ``k``: 0 myself, 1 the nearest
other, ...; ``to_table(a, env.order())`` gives the ruleset's id), and ``action_masks()``
returns the legal actions as a
bool array, as sb3-contrib's MaskablePPO expects (it finds the method through any
Gymnasium wrapper and any SB3 VecEnv, DummyVecEnv or SubprocVecEnv).

```python
import gymnasium
import wasteland.envs  # registers "Wasteland/Combat-v0"

env = gymnasium.make("Wasteland/Combat-v0", scenario="vault_corridor", opponents="scripted")
obs, info = env.reset(seed=0)
action = int(env.np_random.choice(info["action_mask"].nonzero()[0]))
obs, reward, terminated, truncated, info = env.step(action)
```

The mask is also in every ``info["action_mask"]`` (reset and step), which reaches the caller
through any wrapper; ``gymnasium.make``'s wrappers do not forward ``action_masks()`` itself
(use ``env.unwrapped.action_masks()`` or ``env.get_wrapper_attr("action_masks")()``).

Rewards: +1 when the learner's side wins, -1 when it loses, ``draw_reward`` (default 0)
on a draw, plus optionally ``reward_shaping * (damage dealt - damage taken) / max HP``
(at the start of the battle) summed over the learner's combatants on every step.
``terminated`` when a side wins (or nobody is left), ``truncated`` when the round limit
ends the battle as a draw.

An action id outside the mask is, by default (``illegal_action="end"``), replaced by
``end`` (in a 2d20 window where ``end`` is not legal, by the cheapest choice) and the
step's info has ``illegal_action: True``: the learner passes and the fight goes on, so
Gymnasium's and SB3's ``check_env``, which sample without the mask, pass as they are.
``illegal_action="raise"`` raises ``IllegalActionError`` instead (one line naming the
action and the legal ones), for code that means to act inside the mask (the trainers use
it). Something that is not an action id at all (not an integer, or off the table) is
refused in one line in either mode. combat_v0's env card says why not PettingZoo
classic's "the game ends, -1 for the mover".

``render_mode="rgb_array"`` draws the battle as an RGB array (combat_v0's env card,
"Rendering"), so ``gymnasium.wrappers.RecordVideo`` records a fight (it needs moviepy,
in the ``dev`` extra) and ``stable_baselines3.common.env_util.make_vec_env``, which asks
for that mode, makes it. ``gymnasium.make_vec`` on the id returns the batched env
(``wasteland.envs.batched.make_vector_env``: the id's kwargs and make_vec's go to every
env; ``workers=2`` steps them in two processes).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from wasteland.agents.base import Agent, View, share_memory
from wasteland.agents.loop import play
from wasteland.agents.make import make_agent
from wasteland.bestiary.models import Scenario
from wasteland.observe import fog
from wasteland.observe.encoding import (
    END_ID,
    Encoder,
    ego_ids,
    ego_mask,
    fallback_id,
    observation_box,
    to_ego,
    to_table,
)
from wasteland.observe.memory import Memory
from wasteland.observe.memory import parts as memory_parts
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, GOTO, N_ACTIONS, Action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import IllegalActionError, WastelandError
from wasteland.rules.protocol import Decision, Ruleset

from .combat_v0 import (
    RENDER_FPS,
    RENDER_MODES,
    action_index,
    illegal_message,
    not_reset,
    render_battle,
    reset_seed,
    resolve_ruleset,
    resolve_scenario,
    start_battle,
)
from .env_options import EnvOptions
from .errors import EnvArgumentTypeError, ResetNeededError

OpponentSpec = str | Agent
NEW_BATTLE_TRIES = 100


class SingleAgentEnv(gymnasium.Env):
    """One side learns; see the module docstring.

    ``learner``: the learning side, as an index or a side name. ``opponents``: an agent name
    ("scripted", "random", "packet", "policy:NAME") or an Agent for every other combatant,
    or a sequence (in slot order of the non-learner combatants) or mapping (combatant id ->
    agent) of them; not given (None): each opponent plays by the agent its scenario side
    names (``agent:``), else "scripted". Named
    opponents are made anew with a seed from the env's np_random at every reset; given
    Agent instances are reseeded there if they have a ``seed(int)`` method or a
    ``random.Random`` in ``rng``.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def __init__(
        self,
        scenario: str | Path | Scenario = "vault_corridor",
        ruleset: str | Ruleset = "pnp",
        learner: int | str = 0,
        opponents: OpponentSpec | Sequence[OpponentSpec] | Mapping[str, OpponentSpec] | None = None,
        **options: Any,
    ) -> None:
        """``options``: the fields of EnvOptions by name (max_rounds, reward_shaping,
        illegal_action, render_mode, bestiary, learner_kinds, allies, draw_reward, sight),
        as gymnasium.make and the registered tasks pass them."""
        self.options = o = EnvOptions.given(options)
        self.sight = o.sight
        self.ruleset = resolve_ruleset(ruleset)
        self.bestiary = bestiary = o.bestiary
        self.scenario = resolve_scenario(scenario, bestiary)
        self.render_mode = o.render_mode
        self.max_rounds = max_rounds = o.max_rounds
        self.reward_shaping = o.reward_shaping
        self.illegal_action = o.illegal_action
        sides = [s.name for s in self.scenario.sides]
        if isinstance(learner, str):
            if learner not in sides:
                raise WastelandError(f"unknown learner side {learner!r}; sides: {', '.join(sides)}")
            learner = sides.index(learner)
        if not 0 <= learner < len(sides):
            raise WastelandError(f"learner side {learner} out of range; sides: "
                                 + ", ".join(f"{i} {s}" for i, s in enumerate(sides)))
        self.learner = learner
        self.draw_reward = o.draw_reward

        probe = self.ruleset.new_battle(self.scenario, 0, bestiary, keep_log=False,
                                        max_rounds=max_rounds)
        self.ids = list(probe.ids)
        kinds = set(o.learner_kinds) if o.learner_kinds is not None else None
        self.learner_slots = [c.slot for c in probe.combatants if c.side == learner
                              and (kinds is None or c.creature.id in kinds)]
        if not self.learner_slots:
            raise WastelandError(
                f"scenario {self.scenario.id!r}: side {sides[learner]!r} has no combatant of "
                f"the learner's kinds ({', '.join(sorted(kinds or ()))})")
        self._learner_set = frozenset(self.learner_slots)
        self.ally_slots = [c.slot for c in probe.combatants if c.side == learner
                           and c.slot not in self._learner_set]
        self._ally_spec = allies = o.allies
        if isinstance(allies, str):
            make_agent(allies, ruleset=self.ruleset.name)  # one line: unknown, other ruleset
        self.opponent_ids = [c.id for c in probe.combatants if c.side != learner]
        if opponents is None:  # each side's scenario agent, else scripted
            opponents = [self.scenario.sides[c.side].agent or "scripted"
                         for c in probe.combatants if c.side != learner]
        self._opponent_spec = self._check_opponents(opponents)
        self.opponents: dict[int, Agent] = {}

        self.observation_space = observation_box()
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.battle: Battle | None = None
        self._enc: Encoder | None = None
        self._decision: Decision | None = None
        self._legal: list[int] = []
        self._fogged = False  # an enemy out of the learner's sight: the mask is fog.py's
        self._order: list[int] = []
        self._mask = np.zeros(N_ACTIONS, dtype=bool)
        self._net = 0.0
        self._hp0: list[int] = []
        self._seats: list[Agent | None] = []  # per slot: who plays it, None for the learner

    def set_opponents(self, spec: Any) -> None:
        """Who plays the other sides from the next reset on (the same forms as the
        ``opponents`` argument)."""
        self._opponent_spec = self._check_opponents(spec)

    def _check_opponents(self, spec: Any) -> list[OpponentSpec]:
        """One agent spec per opponent combatant, in slot order."""
        n = len(self.opponent_ids)
        if isinstance(spec, str) or not isinstance(spec, (Mapping, Sequence)):
            out = [spec] * n
        elif isinstance(spec, Mapping):
            unknown = set(spec) - set(self.opponent_ids)
            if unknown:
                raise WastelandError(f"opponents: unknown combatant {sorted(unknown)[0]!r}; "
                                     f"opponents: {', '.join(self.opponent_ids)}")
            missing = [i for i in self.opponent_ids if i not in spec]
            if missing:
                raise WastelandError(f"opponents: no agent for {', '.join(missing)}")
            out = [spec[i] for i in self.opponent_ids]
        else:
            out = list(spec)
            if len(out) != n:
                raise WastelandError(f"opponents: {len(out)} agents for {n} opponent "
                                     f"combatants ({', '.join(self.opponent_ids)})")
        for s in out:
            if isinstance(s, str):
                make_agent(s, ruleset=self.ruleset.name)  # one line: unknown, other ruleset
            elif not callable(getattr(s, "act", None)):
                raise WastelandError(f"opponents: {s!r} is neither an agent name nor an Agent")
        return out

    # --- the episode ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        fixed = reset_seed(options)
        for _ in range(NEW_BATTLE_TRIES):
            battle_seed = int(rng.integers(0, 2**31 - 1))
            if fixed is not None:
                battle_seed = int(fixed)
            self._start(battle_seed, rng)
            assert self.battle is not None
            if not self.battle.over or fixed is not None:
                break
        assert self.battle is not None
        if self.battle.over:
            raise WastelandError(f"scenario {self.scenario.id!r}: the battle ended before the "
                                 f"learner's side could act")
        return self._obs(), self._info()

    def _start(self, battle_seed: int, rng: np.random.Generator) -> None:
        b, self._enc = start_battle(self.ruleset, self.scenario, battle_seed, self.bestiary,
                                    self.render_mode, self.max_rounds, self.sight)
        self.battle = b
        self.opponents = {}
        opp_slots = [c.slot for c in b.combatants if c.side != self.learner]
        for slot, spec in zip(opp_slots, self._opponent_spec):
            s = int(rng.integers(0, 2**31 - 1))
            if isinstance(spec, str):
                agent = make_agent(spec, s)
            else:
                agent = spec
                if callable(getattr(agent, "seed", None)):
                    agent.seed(s)  # type: ignore[attr-defined]
                elif isinstance(getattr(agent, "rng", None), random.Random):
                    agent.rng.seed(s)  # type: ignore[attr-defined]
            self.opponents[slot] = agent
        for slot in self.ally_slots:  # the learner side's other kinds
            spec = self._ally_spec
            self.opponents[slot] = make_agent(spec, int(rng.integers(0, 2**31 - 1))) \
                if isinstance(spec, str) else spec
        self._seats = [self.opponents.get(c.slot) for c in b.combatants]
        # the opponents that observe remember with the env: one memory of the battle
        share_memory(self.opponents.values(), b, self._enc.memory)
        # the starting maximum: 2d20 radiation lowers max_hp during the fight, even to 0
        self._hp0 = [max(1, c.max_hp) for c in b.combatants]
        self._net = self._learner_net()
        self._advance()

    def step(self, action: Any):
        b = self.battle
        if b is None:
            raise not_reset("step()")
        if b.over or self._decision is None:
            raise ResetNeededError("step() called on a finished episode; call reset() first")
        ego = action_index(action)
        if ego is None:  # not an action id: refused whatever illegal_action says
            raise IllegalActionError(illegal_message(b, self._decision, action, self._legal,
                                                     self._order))
        illegal = not self._mask[ego]
        idx = to_table(ego, self._order) if not illegal else None
        if idx is None:
            if self.illegal_action == "raise":
                raise IllegalActionError(illegal_message(b, self._decision, action, self._legal,
                                                         self._order))
            idx = fallback_id(self._legal)
        act = ACTION_TABLE[idx]
        if self._fogged:  # acting on what it knows: the true battle plays fog.resolve's
            assert self._enc is not None
            got = fog.resolve(self.ruleset, b, self._decision.combatant, idx,
                              self.sight == "side", memory=self._enc.memory)
            if got is None:  # refused (someone unseen in the way): the decision stands
                self._legal = [i for i in self._legal if i != idx]
                self._mask = ego_mask(self._legal, self._order).view(np.bool_)
                info = self._info()
                info["refused"] = True
                return self._obs(), 0.0, False, False, info
            act = got
        self.ruleset.apply(b, act, check=act is not ACTION_TABLE[idx])
        self._advance()
        reward = 0.0
        if self.reward_shaping:
            now = self._learner_net()
            if now != self._net:
                reward += self.reward_shaping * (now - self._net)
                self._net = now
        terminated = truncated = False
        if b.over:
            if b.end_reason == "max_rounds":
                truncated = True
            else:
                terminated = True
            if b.winner is not None:
                reward += 1.0 if b.winner == self.learner else -1.0
            else:
                reward += self.draw_reward
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, info

    def _learner_net(self) -> float:
        b = self.battle
        assert b is not None
        return sum((b.combatants[s].damage_dealt - b.combatants[s].damage_taken) / self._hp0[s]
                   for s in self.learner_slots)

    def _advance(self) -> None:
        """Let the opponents decide until a learner combatant decides or the battle ends."""
        b = self.battle
        assert b is not None
        R = self.ruleset
        # the fight loop plays the others; a learner's seat is empty, so it stops there
        _, dec = play(R, b, self._seats, apply=self._take)
        if dec is not None:
            assert self._enc is not None
            self._decision = dec
            self._legal, self._fogged = fog.mask(R, b, dec.combatant, self.sight == "side",
                                                 memory=self._enc.memory)
            legal = self._legal
            self._order = order = self._enc.order(dec.combatant)
            self._mask = ego_mask(legal, order).view(np.bool_)  # one C pass
            return
        self._decision = None
        self._legal = []
        self._fogged = False
        self._order = []
        self._mask = np.zeros(N_ACTIONS, dtype=bool)

    def _take(self, view: View, agent: Agent, action: Action) -> None:
        """An opponent's choice, applied once it is found legal (an Agent given by the
        caller is not trusted to keep to the legal actions)."""
        b, legal = view.battle, view.legal_ids  # the GM's NPCs decide on the true battle
        idx = ACTION_INDEX.get(action)
        if idx is None and getattr(action, "kind", None) == GOTO:
            self.ruleset.apply(b, action)  # a policy's move on stale knowledge (observe/fog.py), checked
            return
        if idx is None or idx not in legal:
            me = view.decision.combatant
            raise IllegalActionError(
                f"opponent agent {getattr(agent, 'name', agent)!r} for {b.ids[me]}: "
                + illegal_message(b, view.decision, idx if idx is not None else action, legal))
        self.ruleset.apply(b, action, check=False)

    @property
    def memory(self) -> Memory | None:
        """What each combatant has seen this episode (observe/memory.py; None before the
        first reset): the env's, shared with its opponents that observe."""
        return self._enc.memory if self._enc is not None else None

    def save_parts(self) -> dict[str, Any]:
        """The env's part of a save of its battle: its memory (as combat_v0's)."""
        return memory_parts(self.memory)

    def _obs(self) -> np.ndarray:
        assert self._enc is not None
        dec = self._decision
        if dec is not None:
            return self._enc.observe(dec.combatant, dec, self._order)
        # the battle is over: the view of the first learner combatant
        return self._enc.observe(self.learner_slots[0], None)

    def _info(self) -> dict[str, Any]:
        b = self.battle
        assert b is not None
        # the mask in info too: Gymnasium 1.x wrappers (gymnasium.make) do not forward
        # action_masks(), and info reaches the caller through every wrapper
        if self._decision is not None:
            return {"agent": b.ids[self._decision.combatant], "action_mask": self.action_masks()}
        winner = b.side_names[b.winner] if b.winner is not None else None
        return {"winner": winner, "reason": b.end_reason or "battle over",
                "action_mask": self.action_masks()}

    # --- masks, rendering ----------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The legal actions of the current decision as a bool array (MaskablePPO's hook).
        Once the battle is over only ``end`` is set, so a masked distribution stays valid."""
        if self._decision is None:
            m = np.zeros(N_ACTIONS, dtype=bool)
            m[END_ID] = True
            return m
        return self._mask.copy()

    def legal_ids(self) -> list[int]:
        """The legal actions now, as egocentric env ids."""
        return ego_ids(self._legal, self._order)

    def order(self) -> list[int]:
        """The combatant slots in the current observation's block order."""
        return list(self._order)

    def env_action(self, action: Action) -> int:
        """The env id of a ruleset action (what an agent playing the learner's seat
        returns), for the current decision; one line for anything else."""
        if self.battle is None:
            raise not_reset("env_action()")
        if not isinstance(action, Action):
            raise EnvArgumentTypeError(f"env_action takes an Action, got "
                                       f"{type(action).__name__} {action!r:.60}")
        idx = ACTION_INDEX.get(action)
        if idx is None:
            raise IllegalActionError(f"{action!r:.80} is not in the action table")
        return to_ego(idx, self._order)

    # gymnasium types render by version (1.2's RenderFrame, 1.4's object); ansi is a str
    def render(self) -> str | np.ndarray | None:  # type: ignore[override,unused-ignore]
        return render_battle(self.render_mode, self.battle, self.ruleset)

    def close(self) -> None:
        pass


ENV_ID = "Wasteland/Combat-v0"
# what every Wasteland id registers: the env, and the batched env for gymnasium.make_vec
ENTRY_POINT = "wasteland.envs.single_agent:SingleAgentEnv"
VECTOR_ENTRY_POINT = "wasteland.envs.batched:make_vector_env"


def register() -> None:
    """Register ``Wasteland/Combat-v0`` with Gymnasium (done on importing wasteland.envs)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT,
                           vector_entry_point=VECTOR_ENTRY_POINT)
