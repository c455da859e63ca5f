"""Simple's bookkeeping of a battle (rules/battle.py RulesBook): what the combatant
deciding has done in the phase, and the newcomers of the round.

Saved under "extra" with the keys and in the order saves have always had them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from ..battle import Battle, RulesBook


@mypyc_attr(serializable=True)
@dataclass
class SimpleBook(RulesBook):
    # the combatant deciding has finished its part of the phase
    done: bool = False
    # it has taken its main action of the phase
    main: bool = False
    # the round newcomers last joined in and their slots, which roll among themselves for
    # their places (seed 001): absent (None) until the first newcomer
    late_round: int = -1
    late: list[int] | None = None

    def write(self, out: dict[str, Any]) -> None:
        out["done"] = self.done
        out["main"] = self.main

    def read(self, d: dict[str, Any]) -> None:
        self.done = bool(d["done"])
        self.main = bool(d["main"])
        late = d.get("late")
        if isinstance(late, list):
            self.late_round, self.late = int(late[0]), [int(s) for s in late[1]]
        else:
            self.late_round, self.late = -1, None

    def later_keys(self) -> tuple[str, ...]:
        return ("late",)

    def write_later(self, key: str, out: dict[str, Any]) -> None:
        if key == "late" and self.late is not None:
            out[key] = [self.late_round, list(self.late)]

    def copy(self) -> SimpleBook:
        return SimpleBook(self.done, self.main, self.late_round,
                          None if self.late is None else list(self.late))

    def main_taken(self) -> bool:
        return self.main


def book(b: Battle) -> SimpleBook:
    """``b``'s Simple bookkeeping (a battle fought under Simple)."""
    x = b.book
    assert isinstance(x, SimpleBook)
    return x
