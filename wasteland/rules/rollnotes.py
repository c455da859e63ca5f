"""What a roll is for, in words, for a GM rolling it at the table (``Battle.roll_note``).

The rules write a note just before a roll, and only while a dice hook listens, so fights
nobody watches never build these strings. The parts shared by the rulesets live here:
naming who is tied with whom, and reading a d20 hit-location table aloud.
"""

from __future__ import annotations

from wasteland.rules.battle import Battle

# 2d20's tie-break d20 of a combatant nobody is tied with: drawn from the battle's dice so
# that every fight keeps its dice, never asked at the table (a hook answers None); saves
# made before only ties were asked hold it as an "initiative tie" roll (saves.replay)
UNTIED = "untied initiative d20"
LEGACY = {UNTIED: "initiative tie"}


def names(ids: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(ids) < 2:
        return "".join(ids)
    return f"{', '.join(ids[:-1])} and {ids[-1]}"


def tie_note(b: Battle, slot: int, group: list[int], keys: list[int], dice: str,
             what: str = "initiative") -> str:
    """The tie-break roll of ``slot``, tied with the others of ``group`` at ``keys`` (the
    total, then the earlier tie-break rolls)."""
    others = names([b.ids[o] for o in group if o != slot])
    at = ", then ".join(map(str, keys))
    return (f"{what} tie: {b.ids[slot]} is tied with {others} at {at}; each of them rolls "
            f"{dice}, and the highest goes first among them")


def location_note(target: str, table: list[tuple[int, str, str]], purpose: str = "") -> str:
    """A d20 hit-location roll: the ranges of the target's table, e.g. "1-2 head"."""
    parts = []
    low = 1
    for hi, name, _ in table:
        parts.append(f"{low}-{hi} {name}" if hi > low else f"{low} {name}")
        low = hi + 1
    return f"hit location on {target}{purpose}: d20, {', '.join(parts)}"


class NotedDice:
    """A dice hook for the rolls made while a battle is laid out (initiative, sequence):
    the battle does not exist when the hook is made, so set-up gives it the battle, and
    the hook can read what each roll is for (``take_note``)."""

    battle: Battle | None = None

    def take_note(self) -> str:
        """The note the rules wrote for the roll being asked, which belongs to it alone."""
        b = self.battle
        if b is None:
            return ""
        note, b.roll_note = b.roll_note, ""
        return note
