"""The turn-order line over the panels (a virtual tabletop's combat tracker, in one row):
the round, who decides now and in which slot, and who acts next in this round (or phase),
read from the battle's order and turn."""

from __future__ import annotations

from wasteland.rules.battle import ACTIVE, Battle
from wasteland.rules.events import round_name
from wasteland.rules.protocol import Ruleset


def upcoming(b: Battle, rs: Ruleset) -> tuple[list[int], str]:
    """The slots still to act after the turn's holder, in order, and what comes after
    them ("round N+1", or Simple's next phase). Simple's move phase runs from the lowest
    sequence up, that is down its order (seed 001); every other order runs forward."""
    n = len(b.order)
    if b.over or not 0 <= b.turn < n:
        return [], ""
    phase = b.slot if rs.tactics.phases else ""
    if phase == "move":
        rest = b.order[:b.turn][::-1]
        then = "charge phase"
    else:
        rest = b.order[b.turn + 1:]
        then = {"charge": "action phase"}.get(phase, f"round {b.round + 1}")
    return [s for s in rest if b.combatants[s].status == ACTIVE], then


def turn_line(b: Battle, rs: Ruleset, width: int = 0) -> str:
    """One line: "Round 2 (move phase): ted decides (move) | next: raider_0, kat, then
    charge phase" (or "| next: round 3" when nobody else is left to act in it). A
    reaction names whose turn it interrupts. Within ``width`` columns (0: no limit) the
    names that do not fit are counted, not cut: "next: raider_0, kat, 3 more, then
    round 2"."""
    if b.over:
        w = b.winner
        return f"{round_name(b.round)}: over, " + (
            "a draw." if w is None else f"{b.side_names[w]} won.")
    dec = rs.decider(b)
    what = f"reaction: {dec.reaction.replace('_', ' ')}" if dec.reaction else dec.slot
    phase = f" ({b.slot} phase)" if rs.tactics.phases else ""
    line = f"{round_name(b.round)}{phase}: {b.ids[dec.combatant]} decides ({what})"
    if 0 <= b.turn < len(b.order) and b.order[b.turn] != dec.combatant:
        line += f" in {b.ids[b.order[b.turn]]}'s turn"
    rest, then = upcoming(b, rs)
    ids = [b.ids[s] for s in rest]
    out = line
    for k in range(len(ids), -1, -1):  # as many of the names as fit, whole
        parts = ids[:k] + ([f"{len(ids) - k} more"] if k < len(ids) else [])
        names = ", ".join(parts)
        if names and then:
            names += f", then {then}"
        out = f"{line} | next: {names or then}"
        if not width or len(out) <= width:
            return out
    return out if len(out) <= width else line
