# noqa: D212, D415
"""
# Wasteland combat

| Import             | `from wasteland.envs import combat_v0`                               |
|--------------------|----------------------------------------------------------------------|
| Actions            | Discrete                                                             |
| Parallel API       | Yes (`combat_v0.parallel_env`: only the decider's action is applied)  |
| Manual Control     | No (the `wasteland` command is the terminal game)                    |
| Agents             | the scenario's combatants, e.g. `['ted', 'radscorpion_0', 'radscorpion_1']` |
| Agents             | 2 to 10 (`MAX_COMBATANTS`)                                           |
| Action Shape       | (1)                                                                  |
| Action Values      | [0, 318] (`N_ACTIONS` entries of the fixed action table)             |
| Observation Shape  | {"observation": (679,), "action_mask": (319,)}                       |
| Observation Values | observation in [-1, 1] (float32), action_mask in {0, 1} (int8)       |
| State Shape        | (agents x 679,): `state()`, every agent's full view in slot order     |

A Fallout tabletop fight on a square grid: every combatant of the scenario is an agent.
The rules live in the ruleset (`wasteland.rules`, default `"pnp"`, or `"f2d20"`, Fallout
2d20, whose ranges and moves read the map as zones, or `"simple"`, J.E. Sawyer's Simple,
whose rounds are move, charge and action phases on hexes read from the same map); this env
only translates them, like PettingZoo's classic games translate their board classes.

```python
from wasteland.envs import combat_v0

env = combat_v0.env(scenario="vault_corridor", render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
    else:
        action = env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
```

## Arguments

``env(ruleset="pnp", scenario="vault_corridor", render_mode=None, max_rounds=None,
max_cycles=None, reward_shaping=0.0, illegal_action="end", bestiary=None, sight="own")``

* `ruleset`: a registered ruleset name (`wasteland.rules.names.RULESETS`) or a Ruleset.
* `scenario`: a built-in scenario name (`wasteland.bestiary.loader.scenario_names()`), a
  path to a scenario file, or a loaded `Scenario`.
* `max_rounds`: overrides the scenario's round limit; the battle is a draw after it.
* `max_cycles`: each agent may make at most this many decisions; afterwards the env plays
  `end` for it (its turn ends, its reactions are declined) and once every standing agent
  has used its budget all agents are truncated.
* `reward_shaping`: adds `reward_shaping * (damage dealt - damage taken) / max HP` to each
  agent on every step (max HP at the start of the battle: 2d20 radiation lowers it). Damage
  dealt counts harm to enemies only; a blast that hurts an ally or oneself is damage taken.
* `illegal_action`: what an action id outside the mask does. `"end"` (the default): the
  agent passes - the action is replaced by `end` (in a 2d20 window where `end` is not
  legal, by the cheapest choice, `buy 0` / `boost 0`), the agent's info gets
  `illegal_action: True`, and the fight goes on. `"raise"`: it raises
  `wasteland.rules.errors.IllegalActionError`, whose one-line message names the action and
  lists the legal ones, and nothing happens (for code that means to act inside the mask
  and wants to hear when it does not: the trainers ask for it). PettingZoo's classic games
  end the game with -1 for the mover instead; here that would end every fight at the
  first unmasked sample, and `max_cycles_test`, which samples without the mask, expects
  the fight to run its cycles. Passing wastes the turn, which a policy learns to avoid
  without being told the rules. In either mode, something that is not an action id at all
  (a float, a string, a bool, None, an integer off the table 0..318; an action is an int,
  a numpy integer or a one-element integer array) is refused with `IllegalActionError` in
  one line, not taken for `end` or for action 0.

## Turn order

`agent_selection` is always the ruleset's decider. A combatant's turn is several decisions
(PnP: a small action, then a large one, then `end`; 2d20: minor and major actions, extra
ones bought from the side's AP pool, then `end`, and after declaring an attack how many
d20s to buy and after a hit how many combat dice to add), so the same agent may be
selected several times in a row; a reaction (an attack of opportunity, a readied attack, a 5-ft
step, a free attack on an unguarded enemy) selects the reacting combatant, and the turn
resumes afterwards. Downed combatants stay in `env.agents` until the battle ends (their
rewards arrive with their side's) and are never selected.

## Observation space

A dict with the usual `"observation"` and `"action_mask"`; the spaces are the same for
every agent, scenario and ruleset, so one policy can drive any combatant.

`observation` is egocentric (`wasteland.observe.encoding`, `feature_names()` names each
position; version 1, 679 floats). It holds what the combatant could know at the table,
no more:

* a global block: whether I decide now, the slot one-hot over every ruleset's slots (PnP
  small/large/free, 2d20 act/dice/boost/defend/free, other), the reaction kind one-hot,
  round fraction, my HP fraction, AP, loaded and reserve ammunition, weapon melee/ranged,
  range, RoF and reach, spare weapons, healing items, readied, free action used, Speed,
  cover and height of my square, visibility (my square or the light, the worse),
  unguarded, and the 2d20 AP economy (my side's pool and the fullest enemy pool / 6,
  minor and major actions used, moved this turn; zeros elsewhere);
* a 5 x 5 patch of terrain around me (`patch_<row>_<col>.<channel>`, rows and columns
  -2..+2, row growing as the map's y): wall (also off the map), cover / 3 (the zone's
  under 2d20), height over my square / 20 (signed), darkness;
* then one block per combatant in egocentric order (me first, then the others still
  fighting from the nearest out, ties to enemies and then the most hurt, then the
  fallen), so block `k` is the combatant that an action's target `k` names:
  - who: present, is me, ally, enemy, alive;
  - knowledge: seen (in my line of sight now; allies and I always are), last seen
    (rounds since I last saw it / 5, capped at 1), never seen;
  - geometry: dx and dy (normalized by the map size), distance, in line of sight, cover
    of its square, height difference, range band (2d20 zones: close 0 .. extreme 1);
  - what it shows: HP fraction, crippled head/arm/leg, readied, ranged weapon, free
    action used, unguarded, weapon empty, and the conditions prone, burrowed, bleeding,
    burning (a fire, or 2d20's persistent damage), winded (Simple's fatigue), stunned,
    dying, crippled (any limb), ready action (a readied action or attack), overwatching,
    evading (Simple's evade, 2d20's Defend);
  - what it is: creature kind one-hot (animal, insect, mutant, robot, ghoul, human,
    character), Defense (/ 30 PnP, / 5 2d20, / 10 Simple), physical and energy DR (DT
    under PnP and Simple) / 20, its own plus its armor's;
  - whether it is the subject of the decision (the reaction's subject, the 2d20 attack's
    target);
  - the odds, for an enemy in sight: for each of my weapon slots, the ruleset's exact
    chance to hit it if I attacked now (0 when that weapon cannot reach it from here or is
    not ready: put away, taken, out of rounds) and the expected damage of a hit after its
    armor over its HP left (capped at 1); then its chance to hit me with the weapon in its
    hand and the expected damage of that hit over my HP left.

An enemy out of my line of sight is shown where and as I last saw it (`Encoder.look`, at
each of my decisions), with `in_los` 0 and no odds; one I have never seen shows only that
it is there (present, enemy, alive, never seen). Who is out of the fight is known to all.
The memories are the env's (`env.memory`, observe/memory.py), not the battle's: a copy or
a pickle of the env carries them, `env.save_parts()` is their part of a save of the
battle, and the opponents that observe (policies) are handed the same memory. That is
`sight="own"` (the default). With `sight="side"` a side shares what its members see, as
a GM running a pack or players telling each other across the table would: an enemy any standing member of my
side sees now is seen (with `in_los` still mine, and odds 0 where I cannot reach it), and
at each decision of a side's member every standing member remembers what the side sees.
A policy's manifest records its sight (`"sight": "side"`; none means own), and its
observation hash covers it. Under 2d20, cover is the zone's,
weapons fire from the ammunition supply (no magazines) and Speed is 0. Empty blocks are
zeros.

`action_mask` is the ruleset's `legal_ids` for the deciding agent (in the egocentric ids
below) on the board as that agent knows it, and all zeros for every other agent (and for
everybody once the battle is over). When the agent sees every standing enemy that is the
true battle's `legal_ids`, unchanged. Otherwise (`wasteland.observe.fog`, the reading in
docs/rules/sight.md) each enemy out of its sight (its side's, with `sight="side"`) counts
as standing where the agent last saw it, or not at all when never seen or when that
square is in view and empty, so moving or hurting an enemy it cannot see changes neither
its observation nor its mask. Nothing but a move toward or away from such an enemy is
legal; such a move goes where it would go if the enemy stood there (played as `goto X
Y`, or `goto X Y sprint`, at the move's cost). An action the true battle cannot make
(someone unseen in the way) is refused: nothing happens, the same agent decides again
with that id gone from its mask, and its info has `refused: True`.

## State

`env.state()` (and `parallel_env().state()`), for centralized critics (QMIX, MAPPO):
every combatant's `observation` with nothing hidden (every enemy as it is now, seen or
not, with its odds) and no decision pending, concatenated in slot order (the order of
`possible_agents`), so each combatant's exact state is in it whatever the others could
see; `state_space` is the matching Box (the observation's bounds, tiled). Its length is
fixed for an env: agents x 679.

## Action space

Indices into the fixed action table (`wasteland.rules.actions.ACTION_TABLE`), the same for
every scenario and ruleset: `end`, `reload`, `ready`, `cover`, `draw N`,
`move toward|away T`, `step toward|away T`, `attack T [head|arm|leg]`, `vats T LOC`,
`attack2 T`, `whip T`, `stimpak T`, and the 2d20 intents. `T` is egocentric: the
combatant of observation block `T` (0 is the agent itself, 1 the nearest other, ...),
so what a policy learns does not depend on slot numbers. `env.action_text(a)` names an
id's target by combatant id; `wasteland.observe.encoding.to_table(a, env.order())` gives
the ruleset's table id.

## Rewards

| Winning side | Losing side(s) | Draw |
| :----------: | :------------: | :--: |
| +1 each      | -1 each        | 0    |

plus the optional shaping above.

## Episode end

All agents terminate when one side is left standing (or nobody is). When the round limit
ends the battle as a draw, or `max_cycles` is used up, all agents are truncated instead.

## Rendering

`"ansi"` returns the map (combatants as slot digits, downed ones `x`, walls `#`, cover
`,` `=` `%`), a status line per combatant and the last events' text; `"human"` prints
it. Under 2d20 the zone map (each square as its zone's letter) stands beside the terrain,
with a line of zone cover and one of each side's AP pool. With either text mode the
battle keeps its event log (otherwise it does not, for speed).

`"rgb_array"` returns a picture of the battle as a `(height * 16, width * 16, 3)` uint8
array, drawn with numpy (`wasteland.envs.frame`): each square 16 pixels, coloured by its
terrain (walls dark, the three covers in browns and green, high ground pale, obscured
grey-blue), zone borders under 2d20, each combatant a block of its side's colour
(`frame.SIDE_COLOURS`: side 0 blue, side 1 red, ...) under an HP bar, the fallen at half
brightness, the dead a cross, and a yellow frame round the one deciding. The same battle
gives the same pixels; `render_fps` is 4, one frame a decision, for Gymnasium's
`RecordVideo` (moviepy) on the single-agent env.

## Calls made wrongly

Each is one line, a `WastelandError` that is also the Python type a caller would catch
(`wasteland.envs.errors`): `step`, `observe`, `order`, `action_text`, `state` or (with a
render mode) `render` before `reset()` raise `ResetNeededError` (a `RuntimeError`);
`action_text` of an id off the table (`-1`, `319`, `10**9`) raises `ActionIdError` (an
`IndexError` and a `ValueError`), of anything not an integer `EnvArgumentTypeError` (a
`TypeError`); an agent name the env does not have, `UnknownAgentError` (a `KeyError`).
`parallel_env().step` takes a dict of actions by agent name (a list is
`EnvArgumentTypeError`); once the episode is over it returns five empty dicts, as
PettingZoo's parallel envs do, but before `reset()` it raises. The Gymnasium env and the
batched env answer the same way (the batch takes integer actions only: a float array is
refused, not cut to integers). The wrapped `combat_v0.env()` keeps PettingZoo's own
call-order check in front of these.

## Version History

* v0: first version.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from wasteland.agents.base import View
from wasteland.agents.loop import play
from wasteland.bestiary.loader import Bestiary, load_scenario
from wasteland.bestiary.models import Scenario
from wasteland.observe import fog
from wasteland.observe.encoding import (
    SIGHTS,
    Encoder,
    ego_ids,
    ego_mask,
    fallback_id,
    mask_box,
    observation_box,
    to_table,
)
from wasteland.observe.memory import Memory
from wasteland.observe.memory import parts as memory_parts
from wasteland.rules.actions import ACTION_TABLE, N_ACTIONS, Action
from wasteland.rules.battle import ACTIVE, Battle
from wasteland.rules.errors import IllegalActionError, WastelandError
from wasteland.rules.protocol import Decision, Ruleset
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.textmap import render_text

from .errors import ActionIdError, EnvArgumentTypeError, ResetNeededError, UnknownAgentError
from .frame import frame

ILLEGAL_MODES = ("end", "raise")
RENDER_MODES = ["ansi", "human", "rgb_array"]
TEXT_MODES = ("ansi", "human")
RENDER_FPS = 4  # a frame a decision: a 100-decision fight plays in 25 s


def check_options(modes: list[str], render_mode: str | None, illegal_action: str,
                  sight: str = "own") -> None:
    """One-line errors for a mistyped render_mode, illegal_action or sight (both envs)."""
    if sight not in SIGHTS:
        raise WastelandError(f"unknown sight {sight!r}; available: {', '.join(SIGHTS)}")
    if render_mode is not None and render_mode not in modes:
        raise WastelandError(f"unknown render_mode {render_mode!r}; available: "
                             f"{', '.join(modes)}")
    if illegal_action not in ILLEGAL_MODES:
        raise WastelandError(f"unknown illegal_action {illegal_action!r}; available: "
                             f"{', '.join(ILLEGAL_MODES)}")


RESET_OPTIONS = ("battle_seed",)
# what a caller may expect reset to change, but which the constructor fixes for the env's life
CONSTRUCTOR_ONLY = ("scenario", "ruleset", "bestiary", "max_rounds", "max_cycles",
                    "reward_shaping", "illegal_action", "render_mode", "opponents", "learner", "sight",
                    "side", "draw_reward")


def reset_seed(options: dict[str, Any] | None) -> int | None:
    """The battle seed ``reset(options=...)`` asks for, or None; one line for a scenario,
    ruleset or other constructor argument given to reset (it would be ignored) or a seed
    that is not a whole number a save can hold. Other keys are warned about and ignored,
    as PettingZoo's API test expects of an env."""
    from wasteland.limits import MAX_SEED

    if options is None:
        return None
    if not isinstance(options, dict):
        raise WastelandError(f"reset options must be a dict, got {type(options).__name__}")
    fixed = sorted(str(k) for k in options if k in CONSTRUCTOR_ONLY)
    if fixed:
        raise WastelandError(f"reset option {fixed[0]!r} is the constructor's: make another env "
                             f"with {fixed[0]}=...; reset takes {', '.join(RESET_OPTIONS)}")
    unknown = sorted(str(k) for k in options if k not in RESET_OPTIONS)
    if unknown:
        gymnasium.logger.warn(f"ignoring unknown reset options {', '.join(unknown)}; reset takes "
                              f"{', '.join(RESET_OPTIONS)}")
    seed = options.get("battle_seed")
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= int(seed) <= MAX_SEED:
        raise WastelandError(f"battle_seed must be a whole number from 0 to {MAX_SEED}, got "
                             f"{str(seed)[:40]!r}")
    return int(seed)


def real_option(name: str, value: Any, lo: float, hi: float) -> float:
    """A real-valued constructor argument as a float; one line if it is not one in range."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real)
            or not lo <= float(value) <= hi):
        raise WastelandError(f"{name} must be a number from {lo:g} to {hi:g}, got "
                             f"{str(value)[:40]!r}")
    return float(value)


def render_battle(mode: str | None, battle: Battle | None,
                  ruleset: Ruleset) -> str | np.ndarray | None:
    """The envs' render(): "ansi" returns the text picture, "human" prints it,
    "rgb_array" returns the picture of ``wasteland.envs.frame``."""
    if mode is None:
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    if battle is None:
        raise not_reset("render()")
    if mode == "rgb_array":
        return frame(battle, ruleset)
    text = render_text(battle, ruleset)
    if mode == "human":
        print(text)
        return None
    return text


def env(**kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's call-order wrapper. Not its out-of-bounds assert: the
    raw env checks every action itself (its type, the table, the mask) and answers as
    ``illegal_action`` says, in one line, where the assert would stop a fallback."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """A ParallelEnv view: each step every live agent submits an action and only the
    decider's is applied; a step counts as one decision for every agent."""
    return ParallelCombat(**kwargs)


def resolve_ruleset(ruleset: str | Ruleset) -> Ruleset:
    return get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def resolve_scenario(scenario: str | Path | Scenario, bestiary: Bestiary | None) -> Scenario:
    if isinstance(scenario, Scenario):
        return scenario
    return load_scenario(scenario, bestiary)


def start_battle(ruleset: Ruleset, scenario: Scenario, seed: int, bestiary: Bestiary | None,
                 render_mode: str | None, max_rounds: int | None,
                 sight: str = "own") -> tuple[Battle, Encoder]:
    """A new battle for an env and its encoder (observing with ``sight``); events are only
    built when rendered."""
    # only the text picture shows events; the rgb_array frame does not
    texts = render_mode in TEXT_MODES
    b = ruleset.new_battle(scenario, seed, bestiary, keep_log=texts, max_rounds=max_rounds)
    b.quiet = not texts  # nobody reads the events
    return b, Encoder(b, ruleset, sight)


def action_index(action: Any) -> int | None:
    """The table index of an env action, else None. An action is an integer: a python int
    or numpy integer, or a one-element numpy array of integers (what vector envs pass).
    Anything else (a bool, a float such as ``np.float32(0)``, the string "0", None) is
    not read as a number, so that a wrong type is refused, not taken for action 0."""
    if type(action) is not int:  # the common cases first: this runs every step
        if isinstance(action, np.integer):
            action = int(action)
        elif isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
            action = int(action.reshape(())[()])
        elif isinstance(action, int) and not isinstance(action, bool):
            action = int(action)
        else:
            return None
    return action if 0 <= action < N_ACTIONS else None


def checked_action_id(action: Any) -> int:
    """``action`` as an index of the action table (an int, a numpy integer or a 1-element
    integer array, as step takes), or one line: ActionIdError when it is an integer off
    the table, EnvArgumentTypeError when it is not an integer at all."""
    idx = action_index(action)
    if idx is not None:
        return idx
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        raise ActionIdError(f"action id {_shown(int(action))} is not in the action table; ids are "
                            f"0..{N_ACTIONS - 1}")
    raise EnvArgumentTypeError(f"action id {_shown(action)} ({type(action).__name__}) is not an "
                               f"integer; ids are 0..{N_ACTIONS - 1}, as int, numpy integer "
                               f"or 1-element integer array")


def not_reset(call: str) -> ResetNeededError:
    return ResetNeededError(f"{call} before reset(): call reset() first")


def _shown(action: Any) -> str:
    """A short one-line picture of what was given as an action."""
    text = " ".join(repr(action).split())
    return text if len(text) <= 60 else text[:57] + "..."


def illegal_message(battle: Battle, dec: Decision, action: Any, legal: list[int],
                    order: list[int] | None = None) -> str:
    """``action`` as the caller gave it (an egocentric id when ``order`` is given, else a
    table id), ``legal`` the table ids."""
    ids = battle.ids
    me = dec.combatant
    idx = action_index(action)
    table = idx if (idx is None or order is None) else to_table(idx, order)
    if table is not None:
        what = repr(ACTION_TABLE[table].text(ids, me))
    elif idx is not None:
        what = f"{idx} ({ACTION_TABLE[idx].text()}: no combatant in that observation block)"
    elif isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        what = f"{_shown(action)} (not an index of the action table, 0..{N_ACTIONS - 1})"
    else:
        what = (f"{_shown(action)} ({type(action).__name__}, not an action: actions are "
                f"integers 0..{N_ACTIONS - 1}, as int, numpy integer or 1-element integer array)")
    shown = ", ".join(ACTION_TABLE[i].text(ids, me) for i in legal)
    return f"{what} is not legal for {ids[me]} now; legal: {shown}"


class _Pass:
    """Plays for an agent out of its max_cycles decisions: `end`, or where that is not legal
    the cheapest choice (fallback_id)."""

    name = "pass"
    last_reason = "out of decisions (max_cycles)"

    def act(self, view: View) -> Action:
        return ACTION_TABLE[fallback_id(view.legal_ids)]


PASS = _Pass()


class raw_env(AECEnv, EzPickle):
    """The combat AEC env without wrappers; see the module docstring."""

    metadata: dict[str, Any] = {
        "render_modes": RENDER_MODES,
        "name": "combat_v0",
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        ruleset: str | Ruleset = "pnp",
        scenario: str | Path | Scenario = "vault_corridor",
        render_mode: str | None = None,
        max_rounds: int | None = None,
        max_cycles: int | None = None,
        reward_shaping: float = 0.0,
        illegal_action: str = "end",
        bestiary: Bestiary | None = None,
        sight: str = "own",
    ) -> None:  # params: the env's keyword arguments, as makers and registries pass them
        EzPickle.__init__(self, ruleset, scenario, render_mode, max_rounds, max_cycles,
                          reward_shaping, illegal_action, bestiary, sight)
        super().__init__()
        check_options(self.metadata["render_modes"], render_mode, illegal_action, sight)
        self.sight = sight
        if max_cycles is not None and max_cycles < 1:
            raise WastelandError(f"max_cycles must be at least 1, got {max_cycles}")
        self.ruleset = resolve_ruleset(ruleset)
        self.bestiary = bestiary
        self.scenario = resolve_scenario(scenario, bestiary)
        self.render_mode = render_mode
        self.max_rounds = max_rounds
        self.max_cycles = max_cycles
        self.reward_shaping = real_option("reward_shaping", reward_shaping, 0.0, 100.0)
        self.illegal_action = illegal_action

        probe = self.ruleset.new_battle(self.scenario, 0, bestiary, keep_log=False,
                                        max_rounds=max_rounds)
        self.possible_agents: list[str] = list(probe.ids)
        self.agents = self.possible_agents[:]
        self._slot_of = {a: i for i, a in enumerate(self.possible_agents)}
        # one observation space and one action space, shared by every agent
        self._obs_space = spaces.Dict({"observation": observation_box(),
                                       "action_mask": mask_box()})
        self._act_space: spaces.Discrete = spaces.Discrete(N_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        # the global state for centralized critics: every combatant's own observation, in
        # slot order (each holds that combatant's exact state, whatever the others can see)
        box = observation_box()
        n = len(self.possible_agents)
        self.state_space = spaces.Box(low=np.tile(box.low, n), high=np.tile(box.high, n),
                                      dtype=np.float32)

        self._np_random: np.random.Generator | None = None
        self._np_random_seed: int | None = None
        self.battle: Battle | None = None
        self._enc: Encoder | None = None
        self._decision: Decision | None = None
        self._legal: list[int] = []
        self._fogged = False  # an enemy out of the decider's sight: the mask is fog.py's
        self._order: list[int] = []
        self._rewarded = False
        self._used: list[int] = []
        self._net: list[int] = []
        self._hp0: list[int] = []

    # --- copies --------------------------------------------------------------------------
    # EzPickle would pickle only the constructor's arguments, so a copy would come back as a
    # new env that was never reset; vector envs and Ray need the battle in progress.
    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # --- what the combatants have seen ---------------------------------------------------
    @property
    def memory(self) -> Memory | None:
        """What each combatant has seen this episode (observe/memory.py; None before the
        first reset): the env's own, copied and pickled with it (its encoder holds it)."""
        return self._enc.memory if self._enc is not None else None

    def save_parts(self) -> dict[str, Any]:
        """The env's part of a save of its battle (``rules.saves.dumps(env.battle,
        env.save_parts())``): its memory, which no replay of the history rebuilds."""
        return memory_parts(self.memory)

    # --- spaces and randomness -----------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random

    @property
    def np_random_seed(self) -> int | None:
        return self._np_random_seed

    # --- the episode ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new battle; its seed is drawn from the env's np_random (seeded by
        ``seed``), or taken from ``options["battle_seed"]`` when given."""
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        fixed = reset_seed(options)
        battle_seed = int(self.np_random.integers(0, 2**31 - 1))
        if fixed is not None:
            battle_seed = fixed
        b, self._enc = start_battle(self.ruleset, self.scenario, battle_seed, self.bestiary,
                                    self.render_mode, self.max_rounds, self.sight)
        self.battle = b
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False
        self._used = [0] * len(self.agents)
        self._net = [c.damage_dealt - c.damage_taken for c in b.combatants]
        # the starting maximum: 2d20 radiation lowers max_hp during the fight, even to 0
        self._hp0 = [max(1, c.max_hp) for c in b.combatants]
        self.agent_selection = self.agents[0]
        self._skip_agent_selection = None
        self._advance()

    def state(self) -> np.ndarray:
        """Every combatant's observation (``observation`` part, as if none were deciding),
        concatenated in slot order: ``state_space``."""
        enc = self._enc
        if enc is None:
            raise not_reset("state()")
        return np.concatenate([enc.observe(i, None, full=True)
                               for i in range(len(self.possible_agents))])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        dec = self._decision
        enc = self._enc
        # the decider, whom every last() asks for: its slot without the name's lookup
        slot = (dec.combatant if dec is not None and agent == self.agent_selection
                else self.slot(agent))
        if enc is None:
            raise not_reset("observe()")
        if dec is not None and dec.combatant == slot:
            order = self._order
            # _advance looked around for this decision already (look=False)
            return {"observation": enc.observe(slot, dec, order, False, False),
                    "action_mask": ego_mask(self._legal, order)}
        return {"observation": enc.observe(slot, None),
                "action_mask": np.zeros(N_ACTIONS, dtype=np.int8)}

    def last(self, observe: bool = True
             ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, with the decider's observation made here rather than through
        observe(), whose decider branch it repeats: every turn of a loop asks for it, and the
        extra call cost 0.11 us of the 7.3 us this takes (AECEnv.last's two calls, 0.38)."""
        if self.battle is None:
            raise not_reset("last()")
        agent = self.agent_selection
        dec = self._decision
        enc = self._enc
        if not observe:
            obs = None
        elif (dec is not None and enc is not None
              and agent == self.possible_agents[dec.combatant]):
            order = self._order
            obs = {"observation": enc.observe(dec.combatant, dec, order, False, False),
                   "action_mask": ego_mask(self._legal, order)}
        else:
            obs = self.observe(agent)
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        if self.battle is None:
            raise not_reset("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        b = self.battle
        dec = self._decision
        assert b is not None and dec is not None
        ego = action if type(action) is int else action_index(action)
        if ego is None or not 0 <= ego < N_ACTIONS:  # not an action id: refused in any mode
            raise IllegalActionError(illegal_message(b, dec, action, self._legal, self._order))
        idx = to_table(ego, self._order)
        if idx not in self._legal:  # also None: a target block with nobody in it
            if self.illegal_action == "raise":
                raise IllegalActionError(illegal_message(b, dec, action, self._legal,
                                                         self._order))
            idx = fallback_id(self._legal)
            self.infos[agent] = {"illegal_action": True}
        elif self.infos[agent]:
            self.infos[agent] = {}
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # rewards were paid last step: clear them
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        act = ACTION_TABLE[idx]
        if self._fogged:  # acting on what it knows: the true battle plays fog.resolve's
            got = fog.resolve(self.ruleset, b, dec.combatant, idx, self.sight == "side",
                              memory=self.memory)
            if got is None:  # refused (someone unseen in the way): the decision stands
                self._legal = [i for i in self._legal if i != idx]
                self.infos[agent] = {"refused": True}
                return
            act = got
        if self.max_cycles is not None:
            self._used[dec.combatant] += 1
        self.ruleset.apply(b, act, check=act is not ACTION_TABLE[idx])
        self._advance()
        if self.reward_shaping:
            self._shape()
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Find the next decision (playing `end` for agents out of max_cycles), cache its
        legal actions, or finish the episode."""
        b = self.battle
        assert b is not None
        R = self.ruleset
        mc = self.max_cycles
        if mc is None:  # every decision is an agent's: the next one, if the fight goes on
            # (what the fight loop with no seats answers, without its set-up each step)
            dec = None if b.over else R.decider(b)
        else:  # agents out of decisions pass (the fallback) until all are out
            used = self._used

            def spent(b: Battle) -> bool:
                return used[R.decider(b).combatant] >= mc and all(
                    used[c.slot] >= mc for c in b.combatants if c.status == ACTIVE)

            _, dec = play(R, b, [PASS if n >= mc else None for n in used], stop=spent)
            if dec is None and not b.over:
                self._end_episode(truncated=True)
                return
        if dec is not None:
            self._decision = dec
            assert self._enc is not None
            self._legal, self._fogged = fog.mask(R, b, dec.combatant, self.sight == "side",
                                                 memory=self._enc.memory)
            self._enc.look(dec.combatant)
            self._order = self._enc.order(dec.combatant)
            self.agent_selection = self.possible_agents[dec.combatant]
            return
        winner = b.winner
        if winner is not None:
            rewards = self.rewards
            for c in b.combatants:
                rewards[self.possible_agents[c.slot]] += 1.0 if c.side == winner else -1.0
            self._rewarded = True
        self._end_episode(truncated=b.end_reason == "max_rounds")

    def _end_episode(self, truncated: bool) -> None:
        self._decision = None
        self._legal = []
        self._fogged = False
        self._order = []
        done = self.truncations if truncated else self.terminations
        for a in self.agents:
            done[a] = True

    def _shape(self) -> None:
        b = self.battle
        assert b is not None
        k = self.reward_shaping
        net = self._net
        rewards = self.rewards
        for c in b.combatants:
            now = c.damage_dealt - c.damage_taken
            if now != net[c.slot]:
                rewards[self.possible_agents[c.slot]] += k * (now - net[c.slot]) / self._hp0[c.slot]
                net[c.slot] = now
                self._rewarded = True

    # --- queries -------------------------------------------------------------------------
    def slot(self, agent: str) -> int:
        """The combatant slot of agent ``agent``; UnknownAgentError (one line) if none."""
        try:
            return self._slot_of[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable name
            raise UnknownAgentError(f"unknown agent {_shown(agent)}; agents: "
                                    f"{', '.join(self.possible_agents)}") from None

    def legal_ids(self) -> list[int]:
        """The legal action ids of the current decision, egocentric as the env's actions
        are (empty when it is over)."""
        return ego_ids(self._legal, self._order)

    def order(self, agent: str | None = None) -> list[int]:
        """The combatant slots in ``agent``'s observation block order (default: the agent
        deciding now)."""
        if self._enc is None:
            raise not_reset("order()")
        if agent is None:
            return list(self._order)
        return self._enc.order(self.slot(agent))

    def action_text(self, action: int, agent: str | None = None) -> str:
        """The notation of an env action id (egocentric, as ``agent`` - default the agent
        deciding now - sees it), naming targets by combatant id. An id off the table is
        ActionIdError, one not an integer EnvArgumentTypeError (one line each)."""
        action = checked_action_id(action)
        if self.battle is None:
            raise not_reset("action_text()")
        actor = self.slot(agent) if agent is not None else (
            self._decision.combatant if self._decision is not None else None)
        order = self.order(agent) if agent is not None else self._order
        table = to_table(action, order) if order else action
        if table is None:
            return f"{ACTION_TABLE[action].text()} (no combatant in that block)"
        return ACTION_TABLE[table].text(self.battle.ids, actor)

    def render(self) -> str | np.ndarray | None:
        return render_battle(self.render_mode, self.battle, self.ruleset)

    def close(self) -> None:
        pass


class ParallelCombat(ParallelEnv):
    """The same game as a ParallelEnv: every live agent submits an action each step, only
    the decider's (whose mask is the only non-zero one) is applied. With ``max_cycles``,
    every agent is truncated after that many parallel steps."""

    metadata: dict[str, Any] = {**raw_env.metadata, "name": "combat_v0_parallel"}

    def __init__(self, max_cycles: int | None = None, **kwargs: Any) -> None:
        if max_cycles is not None and max_cycles < 1:
            raise WastelandError(f"max_cycles must be at least 1, got {max_cycles}")
        self.aec_env = raw_env(**kwargs)
        self.max_cycles = max_cycles
        self.possible_agents = self.aec_env.possible_agents
        self.agents: list[str] = []
        self.render_mode = self.aec_env.render_mode
        self.state_space = self.aec_env.state_space
        self._steps = 0

    @property
    def unwrapped(self) -> raw_env:
        return self.aec_env

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec_env.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec_env.action_space(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        e = self.aec_env
        e.reset(seed=seed, options=options)
        self._steps = 0
        self.agents = e.agents[:]
        return ({a: e.observe(a) for a in self.agents}, {a: dict(e.infos[a]) for a in self.agents})

    def step(self, actions: dict[str, Any]):
        e = self.aec_env
        if e.battle is None:
            raise not_reset("step()")
        if not isinstance(actions, Mapping):
            raise EnvArgumentTypeError(
                f"step() takes a dict of actions by agent name ({{'{self.possible_agents[0]}': "
                f"3, ...}}), got {type(actions).__name__} {_shown(actions)}")
        if not self.agents:  # the episode is over: PettingZoo's parallel envs return nothing
            return {}, {}, {}, {}, {}
        for name in actions:
            if name not in e._slot_of:
                e.slot(name)  # one line naming it and the agents
        agent = e.agent_selection
        if not (e.terminations[agent] or e.truncations[agent]):
            e.step(actions.get(agent))
        self._steps += 1
        agents = self.agents
        terminations = {a: e.terminations[a] for a in agents}
        truncations = {a: e.truncations[a] for a in agents}
        if (self.max_cycles is not None and self._steps >= self.max_cycles
                and not any(terminations.values())):
            truncations = dict.fromkeys(agents, True)
        rewards = {a: float(e.rewards[a]) for a in agents}
        infos = {a: dict(e.infos[a]) for a in agents}
        observations = {a: e.observe(a) for a in agents}
        if all(terminations[a] or truncations[a] for a in agents):
            self.agents = []
            for o in observations.values():  # nobody decides any more
                o["action_mask"] = np.zeros(N_ACTIONS, dtype=np.int8)
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        return self.aec_env.render()

    def state(self) -> np.ndarray:
        return self.aec_env.state()

    def close(self) -> None:
        self.aec_env.close()
