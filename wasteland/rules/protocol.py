"""The Ruleset protocol every rule system implements (the registry of rulesets by name is
rules/rulesets.py, which imports them; nothing here does)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .actions import ACTION_TABLE, Action

if TYPE_CHECKING:
    from wasteland.bestiary.loader import Bestiary
    from wasteland.bestiary.models import Scenario

    from .battle import Battle, Combatant, DiceHook
    from .events import Event
    from .tactics import Tactics


class Decision(NamedTuple):
    """Whose decision it is and in which slot (small / large / free; minor / major ...)."""

    combatant: int
    slot: str
    reaction: str | None = None
    subject: int | None = None


class Ruleset(Protocol):
    name: str

    @property
    def tactics(self) -> Tactics:
        """The ruleset's answers to the tactical questions agents, envs and menus ask
        (chances, damage, reach, cover, moves, what a turn can buy: rules/tactics.py)."""
        ...

    def new_battle(self, scenario: Scenario, seed: int, bestiary: Bestiary | None = None,
                   keep_log: bool = True, max_rounds: Any = None,
                   rng: random.Random | None = None, dice_hook: DiceHook | None = None
                   ) -> Battle: ...

    def decider(self, battle: Battle) -> Decision: ...

    def legal_ids(self, battle: Battle) -> list[int]: ...

    def apply(self, battle: Battle, action: Action, check: bool = True) -> list[Event]: ...

    def outcome(self, battle: Battle) -> int | None: ...

    def legal_actions(self, battle: Battle) -> list[Action]: ...

    def make_combatant(self, bestiary: Bestiary, creature: str, slot: int, cid: str,
                       side: int, pos: int, alert: bool = True) -> Combatant: ...

    def join(self, battle: Battle, c: Combatant) -> list[Event]: ...


def legal_actions(ruleset: Ruleset, battle: Battle) -> list[Action]:
    return [ACTION_TABLE[i] for i in ruleset.legal_ids(battle)]
