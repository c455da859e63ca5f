"""One line a roll (issue 41): every die of one attack or test typed on one line.

Before an action is applied at a table with physical dice, the rolls the people will be
asked for it, and for the windows that follow it for the same combatant (2d20's d20 buy
and boost, answered by the table rules), are found by playing it out on the battle with
made-up faces a few times and putting everything back: no die of the battle is read and
nothing is logged, so a fight goes exactly as it would without the look. The first
prompt then lists them ("Roll 3d6 for ted (attack), then 2d8 (damage) if it hits"), the
GM may type them all, groups apart by "/", and each later roll takes its group from the
line when it comes. A roll of the line that turns out not to be needed (a miss) drops its
dice with a note when the action is over; one that needs more dice than were typed (a Simple critical doubles
them) asks for the rest only; a group that did not read is asked when its roll comes.

The dice used are what the battle records, so a save replays them as any typed roll.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from wasteland.agents.base import Agent, view_of
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.protocol import Ruleset

from .dice_prompts import Read, RollAsk, Say, ask_faces, ask_line
from .orders import Orders, auto_answer

TRIALS: Final = 24  # play-outs per look: enough to see a hit of one chance in ten
SHARE: Final = 0.25  # a later roll is listed when it came in this share of the play-outs
LATER: Final = 4  # later rolls listed at most: a handful of dice rolled together, not a bag
# what a later roll waits on, in words, by what it is for
WHEN: Final = {"damage": "if it hits", "hit location": "if it hits",
               "combat dice": "if it hits", "critical": "if it hits",
               "crit damage": "on a critical", "aim reroll": "if a d20 fails",
               "first aid healing": "if it works"}

Key = tuple[int, int, int, str, int]  # who, sides, dice, what for, its repeat in the action


@dataclass(frozen=True)
class Roll:
    """A roll the people will be asked for; ``nth``: the how-many-th of its kind in the
    action (a burst's second damage roll); ``always``: it came in every play-out."""

    who: int
    sides: int
    n: int
    why: str
    nth: int = 0
    always: bool = True

    def fits(self, who: int, sides: int, why: str) -> bool:
        """The roll asked is this one (the count may differ: a critical's dice)."""
        return (self.who, self.sides, self.why) == (who, sides, why)


def foresee(b: Battle, asked: Callable[[int], bool], play: Callable[[], None],
            trials: int = TRIALS) -> list[Roll]:
    """The rolls ``play()`` (the action and what follows it, on ``b``) asks of the people
    (``asked(slot)``): the first, then the later ones that came in at least SHARE of the
    play-outs that went past it, in their order. ``b`` is put back as it was."""
    snap = (b.state(), len(b.log), len(b.moves))
    hook, note = b.dice_hook, b.roll_note
    seqs: list[list[Key]] = []
    faces = random.Random(0)  # made-up faces: the same look every time from one state
    seen: Counter[tuple[int, int, int, str]] = Counter()

    def spy(who: int, sides: int, n: int, why: str) -> list[int] | None:
        if who < 0 or not asked(who):
            return None  # the battle's own dice, put back with the rest
        key = (who, sides, n, why)
        seqs[-1].append((*key, seen[key]))
        seen[key] += 1
        return [faces.randint(1, sides) for _ in range(n)]

    b.dice_hook = spy
    try:
        for k in range(trials):
            seqs.append([])
            seen.clear()
            play()
            if k == 0 and not seqs[0]:
                return []  # it rolls nothing of the people's: nothing to list
            b.restore(snap[0])
            del b.log[snap[1]:]
            del b.moves[snap[2]:]
    finally:
        b.dice_hook, b.roll_note = hook, note
        b.restore(snap[0])
        del b.log[snap[1]:]
        del b.moves[snap[2]:]
    return _listed(seqs)


def _listed(seqs: list[list[Key]]) -> list[Roll]:
    first = seqs[0][0]
    seqs = [s for s in seqs if s and s[0] == first]
    # a roll is its kind and its count in the action; its dice may differ between
    # play-outs (a Simple critical doubles the damage dice): the most usual is listed
    at: dict[tuple[int, int, str, int], list[int]] = {}
    dice: dict[tuple[int, int, str, int], Counter[int]] = {}
    for s in seqs:
        for i, (who, sides, n, why, nth) in enumerate(s[1:], 1):
            at.setdefault((who, sides, why, nth), []).append(i)
            dice.setdefault((who, sides, why, nth), Counter())[n] += 1
    went_on = sum(1 for s in seqs if len(s) > 1)
    keep = [k for k, seen in at.items() if len(seen) >= max(1.0, SHARE * went_on)]
    # in their usual place (branches that never meet, such as a tie's second roll and
    # the attack after it, have no one order); the rolls of a kind by their count
    keep.sort(key=lambda k: (sum(at[k]) / len(at[k]), k[3]))
    del keep[LATER:]
    return [Roll(*first)] + [Roll(k[0], k[1], dice[k].most_common(1)[0][0], k[2], k[3],
                                  len(at[k]) == len(seqs)) for k in keep]


def play_out(b: Battle, rs: Ruleset, action: Action,
             then: Callable[[], Action | None]) -> Callable[[], None]:
    """``action`` applied on ``b``, then each answer ``then()`` gives (the windows that
    follow it), as ``foresee`` plays it."""
    def play() -> None:
        rs.apply(b, action)
        while not b.over:
            nxt = then()
            if nxt is None:
                return
            rs.apply(b, nxt)
    return play


def windows_of(b: Battle, rs: Ruleset, who: int, orders: Orders | None,
               windows: tuple[str, ...]) -> Callable[[], Action | None]:
    """What the table rules answer at the next decision when it is one of ``who``'s
    ``windows`` (2d20's buy and boost after its attack), else None: the decisions a
    line's later rolls wait on. The AI's advice comes from an agent of its own, so the
    game's advisor is not touched."""
    orders = replace(orders) if orders is not None else None  # taken on the copy only
    advisor: list[Agent] = []

    def advice() -> tuple[Action, str]:
        from wasteland.agents.hint import safe_hint
        from wasteland.agents.packets import PacketAgent

        if not advisor:
            advisor.append(PacketAgent(b.seed))
        return safe_hint(advisor[0], view_of(rs, b))

    def then() -> Action | None:
        dec = rs.decider(b)
        if dec.combatant != who or dec.slot not in windows or dec.reaction is not None:
            return None
        got = auto_answer(b, rs, orders, advice)
        return None if got is None else got[0]
    return then


def groups(rolls: list[Roll]) -> list[str]:
    """The dice groups of a line, each as "3d6": what its first prompt's "(or all: ...)"
    lists, in that order, and what may be typed after an action's words."""
    return [f"{r.n}d{r.sides}" for r in rolls]


def split_dice(line: str, physical: bool) -> tuple[list[str], str | None]:
    """A decision line's parts (apart by ";") and the dice typed after the last one's
    words ("attack raider_0 / 544 / 22": "544 / 22"), or None. ValueError, one line,
    when dice are typed where they cannot go."""
    parts = line.split(";")
    if not any("/" in p for p in parts):
        return parts, None
    if not physical:
        raise ValueError("'/' types an action's dice, with --physical-dice only: "
                         "type the action alone")
    if any("/" in p for p in parts[:-1]):
        raise ValueError("dice go after the last action of a line "
                         "('move toward rad; attack rad / 544 / 22')")
    words, _, dice = parts[-1].partition("/")
    if not words.strip():
        raise ValueError("type the action before its dice ('attack rad / 544 / 22')")
    return [*parts[:-1], words], dice.strip() or None


def label(r: Roll, ids: list[str], first: int) -> str:
    """"2d8 (damage) if it hits", naming whose roll when it is not the first's."""
    whose = f" for {ids[r.who]}" if r.who != first else ""
    what = r.why + (f", roll {r.nth + 1}" if r.nth else "")
    when = "" if r.always else " " + WHEN.get(r.why, "if needed")
    return f"{r.n}d{r.sides}{whose} ({what}){when}"


class DiceLine:
    """The rolls foreseen for the action under way and the faces typed ahead for them."""

    def __init__(self, say: Say, read: Read, ids: list[str], rolls: list[Roll],
                 actor: int, typed: str | None = None) -> None:
        self.say, self.read, self.ids = say, read, ids
        self.actor = actor  # whose action it is: its windows go on with the line
        self.typed = typed  # the dice typed with the action: the first prompt's answer
        self.rolls = rolls  # those still to come, the first one first
        self.given: dict[Roll, list[int]] = {}
        self.started = False

    def ask(self, who: int, ask: RollAsk) -> list[int]:
        """The faces for this roll (``who``'s): typed now (with the later ones, at the
        first roll of the line), or taken from the line."""
        sides, n, why = ask.sides, ask.n, ask.why
        if not self.started and self.rolls and self.rolls[0].fits(who, sides, why):
            self.started = True
            later = self.rolls[1:]
            self.rolls = later
            faces, groups = ask_line(
                self.say, self.read, ask,
                [(label(r, self.ids, who), r.sides, r.n, r.why) for r in later], self.typed)
            self.typed = None
            self.given = {r: g for r, g in zip(later, groups) if g is not None}
            return faces
        # the first of its kind still to come (the line's order is only the usual one)
        r = next((r for r in self.rolls if r.fits(who, sides, why)), None)
        if r is None:
            return ask_faces(self.say, self.read, ask)
        self.rolls.remove(r)
        typed = self.given.pop(r, None)
        if typed is None:  # not typed, or it did not read: asked alone
            return ask_faces(self.say, self.read, ask)
        used = typed[:n]
        shown = "+".join(map(str, used))
        spare = typed[n:]
        if len(used) == n:
            self.say(f"  {why}: {n}d{sides} ({shown}) from your line"
                     + (f"; {' '.join(map(str, spare))} not needed" if spare else ""), "dim")
            return used
        self.say(f"  {why}: {n}d{sides}, {len(used)} of them from your line ({shown})", "dim")
        return used + ask_faces(self.say, self.read, replace(ask, n=n - len(used)))

    def drop(self, rolls: list[Roll]) -> None:
        """Dice typed for rolls that were not needed: left out, and said."""
        dropped = [(r, self.given.pop(r)) for r in rolls if r in self.given]
        if dropped:
            self.say("  not needed, left out: " + ", ".join(
                f"{r.why} {r.n}d{r.sides} ({' '.join(map(str, g))})" for r, g in dropped),
                "dim")

    def end(self) -> None:
        """The action and its windows are over: what was typed for the rest is dropped."""
        self.drop(self.rolls)
        if self.typed is not None:  # its first roll never came as foreseen
            self.say(f"  not needed, left out: {self.typed}", "dim")
            self.typed = None
        self.rolls = []
        self.started = True
