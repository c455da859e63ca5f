"""The schema of a save file: every field typed and bounded, so that a damaged or crafted
save is refused in one line naming the field before anything is built from it.

Strict scalar types: a JSON string is never read as a number ("lots" HP, "0" ammunition) and a
boolean never as an integer. The bounds are what a real fight can reach; consistency
between fields (squares on the map, HP under the maximum, who is where) is checked in
rules/saves.py, and a replay of the history from the seed must then reach the saved state.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from wasteland.limits import MAX_HP, MAX_ROUNDS, MAX_SEED

from .actions import MAX_COMBATANTS
from .battle import STATUSES

# A fight of the longest allowed length (max_rounds) with every combatant deciding a few
# times a round stays far under these; they keep a crafted file from costing minutes.
MAX_HISTORY = 100_000
MAX_LOG = 400_000
MAX_LINE = 400
MAX_BESTIARY_ENTRIES = 200

Line = Annotated[StrictStr, Field(max_length=MAX_LINE)]
# what a fight adds to (damage dealt and taken, limb damage, AP, the rounds an unload puts
# back in the pack) stays under this with every stat at the bestiary's caps
# (wasteland/limits.py) for MAX_ROUNDS rounds: a save holds whatever the bestiary accepts
Count = Annotated[StrictInt, Field(ge=0, le=2**53)]
Slot = Annotated[StrictInt, Field(ge=0, lt=MAX_COMBATANTS)]
Status = Literal[STATUSES]  # type: ignore[valid-type]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CombatantState(_Strict):
    pos: Annotated[StrictInt, Field(ge=0)]
    # a hit takes HP past zero by at most its damage; radiation lowers the maximum
    hp: Annotated[StrictInt, Field(ge=-2**53, le=MAX_HP)]
    max_hp: Annotated[StrictInt, Field(ge=-2**53, le=MAX_HP)]
    status: Status
    active_weapon: Annotated[StrictInt, Field(ge=0, le=50)]
    ammo: dict[Line, Count]
    items: dict[Line, Count]
    crippled: dict[Line, Count]
    limb_damage: dict[Line, Count]
    ap: Count
    free_used: StrictBool
    readied: StrictBool
    unguarded: StrictBool
    burn_rate: Count
    burn_left: Count
    # a roll plus the stat block's modifier (at most MAX_MODIFIER either way)
    initiative: Annotated[StrictInt, Field(ge=-1000, le=1000)]
    last_attacker: Annotated[StrictInt, Field(ge=-1, lt=MAX_COMBATANTS)]
    damage_dealt: Count
    damage_taken: Count
    cond: dict[Line, Any]
    weapon_states: Annotated[list[tuple[Count, Count, Count, Annotated[StrictInt, Field(ge=-10)]]],
                             Field(max_length=50)]


class BattleState(_Strict):
    round: Count
    order: Annotated[list[Slot], Field(max_length=MAX_COMBATANTS)]
    turn: Annotated[StrictInt, Field(ge=0, lt=MAX_COMBATANTS)]
    slot: Line
    reactions: Annotated[list[tuple[Slot, Line, Slot]], Field(max_length=4 * MAX_COMBATANTS)]
    pending_move: Any
    winner: Annotated[StrictInt, Field(ge=0, le=MAX_COMBATANTS)] | None
    over: StrictBool
    extra: dict[Line, Any]
    rng: tuple[Literal[3], Annotated[list[Annotated[StrictInt, Field(ge=0, le=2**32)]],
                                     Field(min_length=625, max_length=625)], float | None]
    combatants: Annotated[list[CombatantState], Field(min_length=2, max_length=MAX_COMBATANTS)]


class SavedBestiary(_Strict):
    # entries are validated by their own bestiary models, with the bestiary's messages
    creatures: Annotated[list[dict[str, Any]], Field(min_length=1, max_length=MAX_BESTIARY_ENTRIES)]
    weapons: Annotated[list[dict[str, Any]], Field(max_length=MAX_BESTIARY_ENTRIES)]
    armor: Annotated[list[dict[str, Any]], Field(max_length=MAX_BESTIARY_ENTRIES)]
    items: Annotated[list[dict[str, Any]], Field(max_length=MAX_BESTIARY_ENTRIES)]


RngState = tuple[Literal[3], Annotated[list[Annotated[StrictInt, Field(ge=0, le=2**32)]],
                                       Field(min_length=625, max_length=625)], float | None]


class AgentMemory(_Strict):
    """What an agent keeps between decisions beside its random state: the search's plan
    for the rest of a combatant's turn (agents/search.py TurnPlan; plan "" is the packet)."""

    round: Annotated[StrictInt, Field(ge=0, le=MAX_ROUNDS + 1)]
    slot: Annotated[StrictInt, Field(ge=0, lt=MAX_COMBATANTS)]
    plan: Annotated[StrictStr, Field(max_length=64, pattern=r"^[a-z ]*$")]
    facts: Annotated[StrictInt, Field(ge=0, lt=2**MAX_COMBATANTS)]


class AgentState(_Strict):
    # a trained policy: "policy:NAME" (shipped) or "policy:/absolute/path/NAME.npz"; a
    # program: "cmd:COMMAND" or "cmd@SECONDS:COMMAND"
    kind: Literal["random", "scripted", "packet", "human", "sloppy", "easy", "normal", "hard",
                  "deadly"] | Annotated[
        StrictStr, Field(pattern=r"^(policy:|cmd(@[0-9.]+)?:|search($|@[0-9.]+$|:[a-z0-9=.,]+$))\S*",
                         max_length=4096)]
    side: Annotated[StrictInt, Field(ge=0, le=MAX_COMBATANTS)] | None = None
    rng: RngState | None = None
    # the packet that plays a policy's side for the creature kinds it was not trained for
    fallback_rng: RngState | None = None
    memory: AgentMemory | None = None


class Session(_Strict):
    """Who runs the fight: the command, the options it was started with (a resume must not
    contradict them), the sides people play, and the agents with their random state."""

    id: Annotated[StrictStr, Field(max_length=64)]
    command: Literal["play", "gm", "fight", "api"]
    options: dict[Annotated[StrictStr, Field(max_length=40)], StrictStr | StrictInt | StrictBool | None]
    humans: Annotated[list[Annotated[StrictInt, Field(ge=0, le=MAX_COMBATANTS)]],
                      Field(max_length=MAX_COMBATANTS)] = []
    agents: Annotated[list[AgentState], Field(max_length=MAX_COMBATANTS)] = []


class SaveFile(_Strict):
    format: Literal["wasteland-battle"]
    version: Literal[1, 2]
    ruleset: Line
    seed: Annotated[StrictInt, Field(ge=-MAX_SEED, le=MAX_SEED)]
    scenario: dict[str, Any]
    bestiary: SavedBestiary
    max_rounds: Annotated[StrictInt, Field(ge=1, le=MAX_ROUNDS)] | None = None
    history: Annotated[list[Line], Field(max_length=MAX_HISTORY)]
    state: BattleState
    log: Annotated[list[Annotated[StrictStr, Field(max_length=4000)]], Field(max_length=MAX_LOG)] = []
    session: Session | None = None
