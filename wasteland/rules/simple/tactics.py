"""J.E. Sawyer's Simple's answers to the tactical questions (rules/tactics.py): hexes for
distance and sight, its exact odds (a charge's blow included), reach, and the fact that
its decisions come a phase at a time (move, charge, action), from the rules here."""

from __future__ import annotations

from typing import Final

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.hexes import hexes_for
from wasteland.rules.tactics import Tactics, walked_unanswered

from . import movement
from .attack import can_attack
from .odds import hit_chance
from .stats import move_hexes


class SimpleTactics(Tactics):
    """Simple's answers."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "simple"
        self.phases = True
        self.unit = "hexes"
        # a charge or disarm needs a free straight line someone unseen may block; taking
        # cover, a free hex with cover in reach, which someone unseen may stand on or wall off
        self.refusable = frozenset({"charge", "disarm", "cover"})

    def distance(self, b: Battle, a: int, c: int) -> int:
        return hexes_for(b.grid).dist(a, c)

    def sees(self, b: Battle, a: int, c: int) -> bool:
        return hexes_for(b.grid).sees(a, c)

    def walk_distances(self, b: Battle, goal: int) -> list[int]:
        return list(hexes_for(b.grid).walk_distances(goal))

    def move_end(self, b: Battle, c: Combatant, t: Combatant, kind: str, mode: str
                 ) -> int | None:
        """Where the move phase's walk (a run for a sprint) stops; None while a move is
        paused for overwatch."""
        if b.pending_move is not None:
            return None
        hexes = move_hexes(c, kind == "sprint")
        goal = t.pos

        def walk() -> None:
            movement.walk(b, c, mode, goal, hexes, "", [])

        return walked_unanswered(b, c, walk)

    def pace_limit(self, c: Combatant, sprint: bool) -> int | None:
        """A walk goes as far as the stance allows; the destinations reach a run's 8."""
        return None if sprint else move_hexes(c)

    def hit_chance(self, b: Battle, c: Combatant, t: Combatant, location: str | None = None,
                   extra_dice: int = 0) -> float:
        return hit_chance(b, c, t, c.active_weapon, location)

    def attack_chance(self, b: Battle, c: Combatant, t: Combatant, kind: str,
                      location: str | None = None, extra_dice: int = 0,
                      aim: bool | None = None) -> float:
        """A charge's blow has the charge's bonus."""
        if kind == "charge":
            return hit_chance(b, c, t, c.active_weapon, None, charge=True)
        return hit_chance(b, c, t, c.active_weapon, location)

    def can_attack(self, b: Battle, c: Combatant, t: Combatant, ws: int) -> bool:
        return can_attack(b, c, t, ws)

    def menu_chances(self, b: Battle, c: Combatant, a: Action) -> tuple[float, ...] | None:
        from .chances import menu_chances

        return menu_chances(b, c, a)


TACTICS: Final = SimpleTactics()
