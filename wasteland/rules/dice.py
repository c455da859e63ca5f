"""Dice notation (NdX+M) and rolling from a battle's own RNG.

Rolling uses ``random.Random`` rather than numpy: single draws are an order of magnitude
cheaper, and its state is a plain tuple that saves to JSON.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .errors import NotationError

# at most 5 digits a number: a bonus within the stat caps (wasteland/limits.py MAX_STAT),
# and never the thousands of digits int() refuses
_DICE_RE: Final = re.compile(r"^\s*(\d{0,5})\s*[dD]\s*(\d{1,5})\s*(?:([+-])\s*(\d{1,5}))?\s*$")
_FLAT_RE: Final = re.compile(r"^\s*([+-]?\d{1,5})\s*$")


@mypyc_attr(serializable=True)
@dataclass(frozen=True, slots=True)
class Dice:
    """A dice expression: ``count`` dice of ``sides`` faces plus ``bonus``."""

    count: int
    sides: int
    bonus: int = 0

    def __reduce__(self) -> tuple[Any, ...]:  # frozen: copy and pickle by the constructor
        return (Dice, (self.count, self.sides, self.bonus))

    @classmethod
    def parse(cls, text: str) -> Dice:
        m = _DICE_RE.match(text)
        if m:
            count = int(m.group(1)) if m.group(1) else 1
            sides = int(m.group(2))
            bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
            if count < 1 or count > 100 or sides < 2 or sides > 1000 or abs(bonus) > 10_000:
                raise NotationError(
                    f"dice {text!r}: count must be 1-100, sides 2-1000 and the bonus at most 10000"
                )
            return cls(count, sides, bonus)
        m = _FLAT_RE.match(text)
        if m:
            return cls(0, 1, int(m.group(1)))
        raise NotationError(f"dice {text[:40]!r} is not NdX+M notation (e.g. 3d6, d20, 2d10+3, 1d4-1)")

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        sign = f"+{self.bonus}" if self.bonus > 0 else (str(self.bonus) if self.bonus else "")
        return f"{self.count}d{self.sides}{sign}"

    def roll(self, rng: random.Random) -> Roll:
        return Roll(self, roll_dice(rng, self.count, self.sides))

    @property
    def minimum(self) -> int:
        return self.count + self.bonus

    @property
    def mean(self) -> float:
        return self.count * (self.sides + 1) / 2 + self.bonus

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.bonus


@mypyc_attr(serializable=True)
@dataclass(frozen=True, slots=True)
class Roll:
    """The faces that came up for a Dice expression; ``total`` includes the bonus."""

    dice: Dice
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces) + self.dice.bonus

    def __reduce__(self) -> tuple[Any, ...]:  # frozen: copy and pickle by the constructor
        return (Roll, (self.dice, self.faces))

    def __str__(self) -> str:
        if self.dice.count == 0:
            return str(self.dice.bonus)
        faces = "+".join(map(str, self.faces))
        text = f"{self.dice.count}d{self.dice.sides} ({faces})"
        if self.dice.bonus:
            text += f" {'+' if self.dice.bonus > 0 else '-'}{abs(self.dice.bonus)}"
        return text


def roll_dice(rng: random.Random, count: int, sides: int) -> tuple[int, ...]:
    """Roll ``count`` dice with ``sides`` faces; ``int(random()*n)`` is uniform and fast."""
    r = rng.random
    return tuple(int(r() * sides) + 1 for _ in range(count))


def d(rng: random.Random, sides: int) -> int:
    return int(rng.random() * sides) + 1


def parse_dice(text: str) -> Dice:
    return Dice.parse(text)


D3D6: Final = Dice(3, 6)
