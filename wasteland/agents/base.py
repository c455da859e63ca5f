"""The Agent protocol: an agent sees its view of the battle and the legal actions, and
returns one of them (with a one-line reason, for the GM)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from wasteland.rules.actions import ACTION_TABLE, Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.errors import WastelandError
from wasteland.rules.protocol import Decision, Ruleset


@dataclass
class View:
    """What an agent may look at when deciding."""

    battle: Battle
    ruleset: Ruleset
    decision: Decision
    legal_ids: list[int]

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


def view_of(ruleset: Ruleset, battle: Battle) -> View:
    return View(battle, ruleset, ruleset.decider(battle), ruleset.legal_ids(battle))


AGENTS = ("random", "scripted", "packet")


def make_agent(name: str, seed: int = 0) -> Agent:
    from .random_agent import RandomAgent
    from .scripted import ScriptedAgent

    if name == "random":
        return RandomAgent(seed)
    if name == "scripted":
        return ScriptedAgent()
    if name == "packet":
        from .packets import PacketAgent

        return PacketAgent(seed)
    raise WastelandError(f"unknown agent {name!r}; available: {', '.join(AGENTS)}")
