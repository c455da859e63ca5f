"""The Agent protocol: an agent sees its view of the battle and the legal actions, and
returns one of them (with a one-line reason, for the GM)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

from wasteland.bestiary.models import AGENT_KINDS, LEVEL_KINDS
from wasteland.rules.actions import ACTION_TABLE, GOTO, Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.errors import WastelandError
from wasteland.rules.protocol import Decision, Ruleset
from wasteland.rules.tactics import tactics_of

if TYPE_CHECKING:
    from wasteland.observe.memory import Memory


class View:
    """What an agent may look at when deciding. A plain class, not a dataclass: compiled,
    its ``__init__`` is native (one view is made for every decision of every fight)."""

    def __init__(self, battle: Battle, ruleset: Ruleset, decision: Decision,
                 legal_ids: list[int], memo: dict[tuple[Any, ...], float] | None = None
                 ) -> None:
        self.battle = battle
        self.ruleset = ruleset
        self.decision = decision
        self.legal_ids = legal_ids
        # what an agent worked out during this decision (odds, expected damage), keyed by
        # everything it depends on that a what-if may change; the battle stands still
        # while a view is alive, so nothing in it goes stale
        self.memo: dict[tuple[Any, ...], float] = {} if memo is None else memo

    def __repr__(self) -> str:
        return (f"View(decision={self.decision!r}, legal_ids={self.legal_ids!r}, "
                f"round={self.battle.round})")

    @property
    def me(self) -> Combatant:
        return self.battle.combatants[self.decision.combatant]

    @property
    def legal(self) -> list[Action]:
        return [ACTION_TABLE[i] for i in self.legal_ids]


class Agent(Protocol):
    name: str
    last_reason: str

    def act(self, view: View) -> Action: ...


def intent_of(agent: object, action: Action) -> Action:
    """The table action behind ``action``: an agent deciding on what its combatant knows
    (a policy: observe/fog.py) answers a move aimed at an enemy out of sight with a `goto`
    of where that move ends in its belief, and keeps the move it chose as ``intent``.
    Whatever speaks in action ids (the envs, which resolve the same way themselves, and
    the agent protocol) sends that."""
    if action.kind == GOTO:
        intent = getattr(agent, "intent", None)
        if isinstance(intent, Action):
            return intent
    return action


def share_memory(agents: Iterable[object], battle: Battle, memory: Memory) -> None:
    """Hand ``memory`` (observe/memory.py: what the combatants have seen) to each agent
    that observes ``battle`` (a policy, a search its policies guide), so that they and
    whoever else holds it (the env's encoder, the game's save) remember the same: the
    place that makes a game's agents calls it. An agent not handed one keeps its own."""
    for agent in agents:
        hand = getattr(agent, "observe_with", None)
        if hand is not None:
            hand(battle, memory)


def handed_memory(agents: Iterable[object], battle: Battle) -> Memory | None:
    """The memory ``share_memory`` handed these agents for ``battle`` (what a save of the
    game keeps), None when none of them observes."""
    for agent in agents:
        got = getattr(agent, "_memory", None)
        if got is not None and got[0] is battle:
            return cast("Memory", got[1])
    return None


def rounds_ready(b: Battle, c: Combatant, i: int) -> int:
    """Shots ``c`` can fire with weapon slot ``i`` without reloading first (99 for a weapon
    that uses no ammunition), as the ruleset counts them: PnP fires from the magazine
    (none while a reload is under way); 2d20 has no magazines and fires from the
    ammunition carried (Tactics.rounds_ready)."""
    return tactics_of(b).rounds_ready(c, i)


def view_of(ruleset: Ruleset, battle: Battle) -> View:
    return View(battle, ruleset, ruleset.decider(battle), ruleset.legal_ids(battle))


AGENTS: Final = (*AGENT_KINDS, "policy:NAME", "cmd:COMMAND", "search[@SECONDS|:key=value,...]",
                  *LEVEL_KINDS)


def agent_kind(name: str) -> str:
    """The name that makes this agent again from anywhere: a policy's path made absolute."""
    if name.startswith("policy:"):
        rest = name[len("policy:"):]
        if "/" in rest or os.sep in rest or rest.endswith((".npz", ".json")):
            return "policy:" + os.path.abspath(rest)
    return name


def kind_of(agent: object) -> str:
    """What make_agent needs to make ``agent`` again (saved with a game to resume it)."""
    return str(getattr(agent, "kind", None) or getattr(agent, "name", ""))


# the difficulty levels (agents/levels.py LEVELS), by the agent each names
LEVEL_AGENTS: Final[dict[str, str]] = {
    "easy": "sloppy", "normal": "packet", "hard": "search",
    "deadly": "search:level=deadly",
}


def check_ruleset(agent: object, ruleset: str) -> None:
    """One line when ``agent`` cannot play a battle under ``ruleset``: a policy trained
    for another ruleset would hand every decision to the packet while its name stood on
    the side. An agent says so through its ``ruleset_problem(ruleset)``; the rest play
    any ruleset."""
    problem = getattr(agent, "ruleset_problem", None)
    text = problem(ruleset) if callable(problem) else None
    if text:
        raise WastelandError(text)
