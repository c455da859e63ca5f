"""The verdict a GM reads: trivial, easy, medium, hard or deadly, from the party's win
rate, the chance that someone goes down and the chance that the fight is lethal.

"Lethal" is a fight in which a party member dies or the party loses. Losing counts because
a party that loses lies at the enemies' mercy, and under PnP a character at 0 HP falls
unconscious rather than dying (docs/rules/pnp.md), so PnP fights would otherwise never
look lethal. The reasoning behind each rung is in docs/simulate.md.
"""

from __future__ import annotations

from typing import NamedTuple


class Rung(NamedTuple):
    name: str
    min_win: float  # the party wins at least this share of fights
    max_down: float  # someone goes down in at most this share
    max_lethal: float  # someone dies or the party loses in at most this share
    meaning: str


# from the easiest down; an encounter gets the first rung whose three bounds it meets
RUNGS = (
    Rung("trivial", 0.98, 0.05, 0.01, "a formality: nobody is hurt badly"),
    Rung("easy", 0.95, 0.25, 0.03, "the party wins; now and then someone goes down"),
    Rung("medium", 0.85, 1.0, 0.10, "a real fight: people go down, one in ten may be lethal"),
    Rung("hard", 0.60, 1.0, 0.30, "the party usually wins, but up to a third end lethally"),
)
DEADLY = Rung("deadly", 0.0, 1.0, 1.0, "the party loses, or someone dies, too often")
VERDICTS = (*(r.name for r in RUNGS), DEADLY.name)


def verdict(win: float, down: float, lethal: float) -> str:
    """The rung of an encounter the party wins ``win`` of the time, in which someone goes
    down ``down`` of the time and which is lethal ``lethal`` of the time (shares 0..1)."""
    for r in RUNGS:
        if win >= r.min_win and down <= r.max_down and lethal <= r.max_lethal:
            return r.name
    return DEADLY.name


def pct(x: float) -> str:
    return f"{100 * x:.0f}"


def summary_line(name: str, win: float, ci: tuple[float, float], loss: float, down: float,
                 died: float, rounds: float) -> str:
    """One line for the table: "hard: the party wins 71% [68-74] and loses 20%, someone
    goes down in 80% of fights, someone dies in 22%, ~5 rounds" (``rounds``: the median).
    The losses are said because a loss is lethal for the verdict even where nobody dies."""
    return (f"{name}: the party wins {pct(win)}% [{pct(ci[0])}-{pct(ci[1])}] and loses "
            f"{pct(loss)}%, someone goes down in {pct(down)}% of fights, someone dies in "
            f"{pct(died)}%, ~{rounds:.0f} rounds")
