"""The end-of-fight summary, for the plain-line game (cli/game.py) and the full-screen
one (tui/summary.py): for each combatant the damage it dealt and took (the engine's own
counts of HP lost), its critical hits and the foes it killed or knocked down (read from
the log), and the rounds.

Events of going down name only who fell; the one credited is the attacker of the last
attack roll (or 2d20 test, or Simple check) since the turn began, so a fall to bleeding
or burning at the start of a turn is nobody's.

The table is grouped by side (a heading line each) rather than given a side column, and
every column is as wide as its longest entry: no name is cut at 80 columns."""

from __future__ import annotations

from dataclasses import dataclass

from wasteland.rules.battle import Battle
from wasteland.rules.events import (
    AttackRolled,
    CombatDiceRolled,
    Downed,
    Note,
    RoundStarted,
    SkillChecked,
    TestRolled,
    TurnStarted,
)

COLUMNS = ("dealt", "taken", "crits", "kills", "downs")
_STATE = {"active": "standing", "unconscious": "down", "dead": "dead"}


@dataclass
class Tally:
    dealt: int = 0
    taken: int = 0
    crits: int = 0
    kills: int = 0
    downs: int = 0


def tally(b: Battle) -> dict[str, Tally]:
    """Each combatant's tally, by id, in slot order."""
    out = {cid: Tally() for cid in b.ids}
    by: str | None = None
    for e in b.log:
        if isinstance(e, (TurnStarted, RoundStarted)):
            by = None
        elif isinstance(e, AttackRolled):
            by = e.attacker
            if e.crit:
                out[by].crits += 1
        elif isinstance(e, TestRolled):
            by = e.name
        elif isinstance(e, SkillChecked):
            by = e.name
            if e.crit == "critical":
                out[by].crits += 1
        elif isinstance(e, CombatDiceRolled) and "critical hit" in e.note and by in out:
            out[by].crits += 1  # 2d20: a hit that dealt 5 or more to one location
        elif (isinstance(e, Note) and e.message.startswith("falls prone and is dying")
              and by in out and by != e.name):
            out[by].downs += 1  # 2d20: a character at 0 HP is dying, not dead
        elif isinstance(e, Downed) and by in out and by != e.name:
            if e.status == "dead":
                out[by].kills += 1
            else:
                out[by].downs += 1
    for c in b.combatants:
        out[c.id].dealt, out[c.id].taken = c.damage_dealt, c.damage_taken
    return out


def result_line(b: Battle) -> str:
    """"Raiders won after 3 rounds." (or a draw)."""
    w = b.winner
    head = "Draw" if w is None else f"{b.side_names[w]} won"
    return f"{head} after {b.round} round{'s' if b.round != 1 else ''}."


def table_lines(b: Battle) -> list[str]:
    """The table: a header, then each side's name and its combatants under it."""
    t = tally(b)
    idw = max(len(cid) for cid in b.ids) + 2  # the ids are indented under their side
    lines = [f"{'':<{idw}}" + "".join(f" {h:>5}" for h in COLUMNS) + "  HP at the end"]
    for si, name in enumerate(b.side_names):
        members = [c for c in b.combatants if c.side == si]
        if not members:
            continue
        lines.append(name + (" (won)" if b.winner == si else ""))
        for c in members:
            k = t[c.id]
            nums = (k.dealt, k.taken, k.crits, k.kills, k.downs)
            lines.append(f"  {c.id:<{idw - 2}}" + "".join(f" {n:>5}" for n in nums)
                         + f"  {c.hp}/{c.max_hp} {_STATE.get(c.status, c.status)}")
    return lines


def summary_lines(b: Battle) -> list[str]:
    """The summary: who won, the rounds, a blank line, the table."""
    return [result_line(b), "", *table_lines(b)]
