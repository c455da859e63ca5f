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
from dataclasses import dataclass, replace
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


def dice_prompt(name: str, sides: int, n: int, why: str, then: list[str] | None = None
                ) -> str:
    """The line asking for the faces of ``n`` dice of ``sides`` rolled for ``name``;
    ``then``: the later rolls of the same action, which may be typed with these (groups
    apart by "/"), each as "2d8" (then_note says what they are)."""
    every = f" (or all: {' / '.join([f'{n}d{sides}', *then])})" if then else ""
    if why == COMBAT_DICE and sides == 6:
        return (f"Roll {n}d6 for {name} (combat dice): type {n} face{'s' if n > 1 else ''}: "
                f"{CD_HOW}{every}")
    return (f"Roll {n}d{sides} for {name} ({why}): type {n} number{'s' if n > 1 else ''} "
            f"from 1 to {sides}{every}")


def then_note(labels: list[str]) -> str:
    """The line that opens a first prompt, naming the later rolls of its action, each as
    "2d8 (damage) if it hits": the GM rolls them together and types them after a /."""
    return f"  then: {'; '.join(labels)} (roll them with it and type each after a /)"


def _face(word: str, sides: int) -> int | None:
    """One die typed as a number; a d10's 10 may be read as 0, a d100's 100 as 00."""
    if not (word.isascii() and word.isdigit()) or len(word) > 4:
        return None
    if sides == 10 and word == "0":
        return 10
    if sides == 100 and word == "00":
        return 100
    v = int(word)
    return v if 1 <= v <= sides else None


def _run_together(words: list[str], sides: int, n: int) -> list[int] | None:
    """Dice of one digit each typed without spaces ("345" for three d6); a 0 is a d10's 10."""
    # isascii: "²".isdigit() holds, but int() refuses it
    if sides > 10 or sum(map(len, words)) != n or not all(
            w.isascii() and w.isdigit() for w in words):
        return None
    faces = [_face(ch, sides) for w in words for ch in w]
    return [f for f in faces if f is not None] if None not in faces else None


def accepted(sides: int, n: int, why: str) -> str:
    """What a roll of ``n`` dice of ``sides`` accepts, in one line (the error's words)."""
    if why == COMBAT_DICE and sides == 6:
        example = " ".join((["e", "2", "b", "1"] * n)[:n])
        return f"need {n} combat dice faces, {CD_HOW}; e.g. {example}"
    reads = {10: " (0 reads as 10)", 100: " (00 reads as 100)"}.get(sides, "")
    example = " ".join([str(min(4, sides))] * n)
    if n > 1 and sides <= 10:
        example += f" or {example.replace(' ', '')}"
    return (f"need {n} whole number{'s' if n > 1 else ''} from 1 to {sides}{reads}, "
            f"e.g. {example}")


def parse_faces(line: str, sides: int, n: int, why: str) -> list[int]:
    """The faces typed for a roll: numbers apart, or run together when every die has one
    digit ("345"); combat dice by face, apart or run together ("12be"). ValueError with
    a one-line message saying what is accepted when they do not fit."""
    words = line.replace(",", " ").lower().split()
    if why == COMBAT_DICE and sides == 6:
        cd: list[int] = []
        for w in words:
            if w in CD_WORDS:
                cd.append(CD_WORDS[w])
            elif all(ch in CD_WORDS for ch in w):
                cd.extend(CD_WORDS[ch] for ch in w)
            else:
                break
        else:
            if len(cd) == n:
                return cd
    else:
        got = [_face(w, sides) for w in words]
        whole = [f for f in got if f is not None]
        if len(whole) == len(got) == n:
            return whole
        apart = _run_together(words, sides, n)
        if apart is not None:
            return apart
    raise ValueError(accepted(sides, n, why))


NO_UNDO_YET: Final = "nothing to undo before the fight starts"


def refused_undo(say: Say, line: str | None, undo: bool, no_undo: str) -> bool:
    """What every dice prompt does with undo, quit and the end of the input: TakeBack or
    Quit raised, or True when undo is refused here (the roll is asked again)."""
    if line is not None and line.lower() == "undo":
        if undo:
            raise TakeBack()
        say(no_undo, "red")
        return True
    if line is None or line.lower() in ("quit", "exit"):
        raise Quit("input ended during a roll; the action was not taken."
                   if line is None else "quit during a roll; the action was not taken.")
    return False


@dataclass(frozen=True)
class RollAsk:
    """A roll asked of the people: ``n`` dice of ``sides`` faces rolled for ``name`` (what
    for: ``why``), ``note`` said first (what the roll is for), and how undo is answered:
    TakeBack, or (``undo`` False) refused with ``no_undo``."""

    name: str
    sides: int
    n: int
    why: str
    note: str = ""
    undo: bool = True
    no_undo: str = NO_UNDO_YET

    @property
    def undo_hint(self) -> str:
        """What an error at this prompt adds about undo."""
        return " (undo takes the action back)" if self.undo else ""


def ask_faces(say: Say, read: Read, ask: RollAsk) -> list[int]:
    """The faces of the roll ``ask`` describes, asked until they make sense; its note is
    said first. Quit or the end of the input raise Quit; undo raises TakeBack (or is
    refused)."""
    if ask.note:
        say(f"  {ask.note}", "yellow")
    while True:
        say(dice_prompt(ask.name, ask.sides, ask.n, ask.why), "bold")
        line = read()
        if refused_undo(say, line, ask.undo, ask.no_undo):
            continue
        assert line is not None
        try:
            return parse_faces(line, ask.sides, ask.n, ask.why)
        except ValueError as e:
            say(f"{e}{ask.undo_hint}", "red")


def typed_or_read(say: Say, read: Read, typed: str | None) -> str | None:
    """The dice typed with the action (said, as if typed at the prompt just shown), else
    the next line read."""
    if typed is None:
        return read()
    say(f"> {typed} (typed with the action)", "dim")
    return typed


Later = tuple[str, int, int, str]  # a later roll of a line: its label, sides, dice, why


def ask_line(say: Say, read: Read, ask: RollAsk, later: list[Later],
             typed: str | None = None) -> tuple[list[int], list[list[int] | None]]:
    """The first roll of an action (``ask``) whose ``later`` rolls may be typed on the same
    line, groups apart by "/" ("5 3 6 / 4 4"): the first roll's faces and each later
    group's (None: not typed, or did not read, and then asked when its roll comes). A first
    group that does not read is asked again alone, the later ones kept; with no ``later``
    it is ask_faces. ``typed``: the line typed with the action (after its words and a "/"),
    taken as the first answer."""
    if not later and typed is None:
        return ask_faces(say, read, ask), []
    sides, n, why = ask.sides, ask.n, ask.why
    # what the rolls after it are first: what this one is against stays next to its prompt
    if later:
        say(then_note([lab for lab, *_ in later]), "yellow")
    if ask.note:
        say(f"  {ask.note}", "yellow")
    prompt = dice_prompt(ask.name, sides, n, why, [f"{k}d{s}" for _, s, k, _ in later])
    while True:
        say(prompt, "bold")
        line, typed = typed_or_read(say, read, typed), None
        if refused_undo(say, line, ask.undo, ask.no_undo):
            continue
        assert line is not None
        parts = line.split("/")
        if len(parts) > 1 + len(later):
            every = " / ".join([f"{n}d{sides}", *(f"{k}d{s}" for _, s, k, _ in later)])
            say(f"{len(parts)} groups typed; this roll takes at most {1 + len(later)}: "
                f"{every}{ask.undo_hint}", "red")
            continue
        groups: list[list[int] | None] = []
        for part, (_, s, k, w) in zip(parts[1:], later):
            try:
                groups.append(parse_faces(part, s, k, w) if part.strip() else None)
            except ValueError as e:
                groups.append(None)
                say(f"{w} ({k}d{s}) not kept: {e}; it is asked when rolled", "red")
        groups += [None] * (len(later) - len(groups))
        try:
            return parse_faces(parts[0], sides, n, why), groups
        except ValueError as e:
            if len(parts) == 1:  # nothing else typed: the whole line is asked again
                say(f"{e}{ask.undo_hint}", "red")
                continue
            kept = sum(g is not None for g in groups)
            say(f"{why} ({n}d{sides}): {e}" + (f"; the {kept} later group"
                                              f"{'s' if kept > 1 else ''} kept" if kept else ""),
                "red")
        return ask_faces(say, read, replace(ask, note="")), groups


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
        return ask_faces(self.say, self.read, RollAsk(self.ids[who], sides, n, why, note,
                                                      undo=False))


def setup_dice(say: Say, read: Read) -> Callable[[Scenario, int], SetupDice]:
    """``dice_hook_for`` of play.begin: the set-up rolls of the people's side at the table."""
    return lambda sc, people: SetupDice(say, read, sc, people)
