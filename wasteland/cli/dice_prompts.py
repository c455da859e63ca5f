"""Physical dice: the prompt for a roll made at the table, and reading the faces typed.

One place for the words, so the line game, the GM tool and the full-screen game ask the
same thing: first what the roll is for (the rules' note: what it is against, the damage
formula and the DR or DT it meets, the hit-location table, who is tied with whom), then
how many dice of what to roll and how to type them. Fallout 2d20's combat dice are typed
by their faces (1, 2, b for a blank, e for an effect), or as the d6 a table may roll in
their place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from wasteland.bestiary.models import Scenario
from wasteland.rules.rollnotes import UNTIED, NotedDice
from wasteland.rules.setup import scenario_ids

Say = Callable[[str, str | None], None]
Read = Callable[[], str | None]

COMBAT_DICE: Final = "combat dice"  # the ``why`` of 2d20 damage rolls (f2d20/damage.py)
# a combat die's faces as typed -> the d6 face the engine scores (f2d20/dice.py: 1 -> 1,
# 2 -> 2, 3-4 blank, 5-6 one and an effect); a d6 rolled in its place is typed as it fell
CD_WORDS: Final = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "0": 3, "b": 3,
                   "blank": 3, "-": 3, "e": 5, "effect": 5, "fx": 5}
CD_HOW: Final = "1, 2, b (blank) or e (effect) each; a plain d6: 3-4 = b, 5-6 = e"


class Quit(Exception):
    """The person quit, or the input ended, in the middle of a roll; the message says which."""


class TakeBack(Exception):
    """Undo typed at a dice prompt: the action being rolled for is not taken."""


def dice_prompt(name: str, sides: int, n: int, why: str) -> str:
    """The line asking for the faces of ``n`` dice of ``sides`` rolled for ``name``."""
    if why == COMBAT_DICE and sides == 6:
        return (f"Roll {n}d6 for {name} (combat dice): type {n} face{'s' if n > 1 else ''}: "
                f"{CD_HOW}")
    return (f"Roll {n}d{sides} for {name} ({why}): type {n} number{'s' if n > 1 else ''} "
            f"from 1 to {sides}")


def parse_faces(line: str, sides: int, n: int, why: str) -> list[int]:
    """The faces typed for a roll; ValueError with a one-line message saying what is
    accepted when they do not fit."""
    words = line.replace(",", " ").lower().split()
    cd = why == COMBAT_DICE and sides == 6
    faces: list[int] = []
    for w in words:
        if cd and w in CD_WORDS:
            faces.append(CD_WORDS[w])
        elif w.isdigit() and len(w) <= 4 and 1 <= int(w) <= sides:
            faces.append(int(w))
        else:
            faces = []
            break
    if len(faces) == n:
        return faces
    if cd:
        example = " ".join((["e", "2", "b", "1"] * n)[:n])
        raise ValueError(f"need {n} combat dice faces, {CD_HOW}; e.g. {example}")
    raise ValueError(f"need {n} whole number{'s' if n > 1 else ''} from 1 to {sides}, "
                     f"e.g. {' '.join([str(min(4, sides))] * n)}")


NO_UNDO_YET: Final = "nothing to undo before the fight starts"


def ask_faces(say: Say, read: Read, name: str, sides: int, n: int, why: str,
              note: str = "", undo: bool = True, no_undo: str = NO_UNDO_YET) -> list[int]:
    """The faces of ``n`` real dice of ``sides`` faces rolled for ``name``, asked until
    they make sense; ``note`` says first what the roll is for. Quit or the end of the
    input raise Quit; undo raises TakeBack (or, when ``undo`` is False, is refused with
    ``no_undo``)."""
    if note:
        say(f"  {note}", "yellow")
    while True:
        say(dice_prompt(name, sides, n, why), "bold")
        line = read()
        if line is not None and line.lower() == "undo":
            if undo:
                raise TakeBack()
            say(no_undo, "red")
            continue
        if line is None or line.lower() in ("quit", "exit"):
            raise Quit("input ended during a roll; the action was not taken."
                       if line is None else "quit during a roll; the action was not taken.")
        try:
            return parse_faces(line, sides, n, why)
        except ValueError as e:
            say(f"{e}" + (" (undo takes the action back)" if undo else ""), "red")


class SetupDice(NotedDice):
    """The people's rolls while a new battle is laid out (initiative, sequence), asked at
    the table; everybody else's stay with the battle's dice."""

    def __init__(self, say: Say, read: Read, scenario: Scenario, people: int) -> None:
        self.say, self.read = say, read
        self.ids = scenario_ids(scenario)
        self.side_of = [si for si, side in enumerate(scenario.sides) for _ in side.combatants]
        self.people = people

    def __call__(self, who: int, sides: int, n: int, why: str) -> list[int] | None:
        note = self.take_note()
        if (who < 0 or who >= len(self.side_of) or self.side_of[who] != self.people
                or why == UNTIED):
            return None
        return ask_faces(self.say, self.read, self.ids[who], sides, n, why, note, undo=False)


def setup_dice(say: Say, read: Read) -> Callable[[Scenario, int], SetupDice]:
    """``dice_hook_for`` of play.begin: the set-up rolls of the people's side at the table."""
    return lambda sc, people: SetupDice(say, read, sc, people)
