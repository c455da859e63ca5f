"""2d20's bookkeeping of a battle (rules/battle.py RulesBook): the sides' AP pools, what
the turn under way has used, the attack window open, the round's order.

Saved under "extra" with the keys and in the order saves have always had them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

from ..battle import Battle, Economy, RulesBook


@mypyc_attr(serializable=True)
@dataclass
class F2d20Book(RulesBook):
    # each side's AP pool (seed 002, Action Points)
    pools: list[int] = field(default_factory=list)
    # the minor and major actions the combatant whose turn it is has taken, and whether
    # it has moved (a second of each costs AP)
    minor: int = 0
    major: int = 0
    moved: bool = False
    # the decision open inside an attack or a Defend ({"kind": "dice" | "boost" |
    # "defend", "attacker", "target", ...}: JSON values, replaced, never changed in place)
    window: dict[str, Any] | None = None
    # the turn began stunned (its free major action lost)
    stunned: bool = False
    # the turn's combatant has declared an attack
    attacked: bool = False
    # the slots in Initiative order: each round after the opening turn
    base_order: list[int] = field(default_factory=list)
    # the turn's combatant said `end`
    turn_done: bool = False

    def write(self, out: dict[str, Any]) -> None:
        w = self.window
        out["pools"] = list(self.pools)
        out["minor"] = self.minor
        out["major"] = self.major
        out["moved"] = self.moved
        out["window"] = None if w is None else dict(w)
        out["stunned"] = self.stunned
        out["attacked"] = self.attacked
        out["base_order"] = list(self.base_order)
        out["turn_done"] = self.turn_done

    def read(self, d: dict[str, Any]) -> None:
        w = d["window"]
        self.pools = list(d["pools"])
        self.minor = d["minor"]
        self.major = d["major"]
        self.moved = d["moved"]
        self.window = None if w is None else dict(w)
        self.stunned = d["stunned"]
        self.attacked = d["attacked"]
        self.base_order = list(d["base_order"])
        self.turn_done = d["turn_done"]

    def copy(self) -> F2d20Book:
        w = self.window
        return F2d20Book(list(self.pools), self.minor, self.major, self.moved,
                         None if w is None else dict(w), self.stunned, self.attacked,
                         list(self.base_order), self.turn_done)

    def economy(self) -> Economy | None:
        return self

    def pool(self, side: int) -> int:
        return self.pools[side]

    def open_window(self) -> dict[str, Any] | None:
        return self.window

    def round_order(self) -> list[int] | None:
        return self.base_order


def book(b: Battle) -> F2d20Book:
    """``b``'s 2d20 bookkeeping (a battle fought under 2d20)."""
    x = b.book
    assert isinstance(x, F2d20Book)
    return x
