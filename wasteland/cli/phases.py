"""Simple's phase headers in the line games: "-- move phase: lowest sequence first" as a
phase begins, told among the log's lines where it begins (the full-screen game's turn
line names the phase too). The engine logs no event for a phase (a save's log is checked
line by line against a replay, so old saves would stop loading if it began to), so the
headers are worked out from the phase before and after each action, and placed: a phase
of the round that ended before that round's "-- Round N" line, a phase of the round under
way before the turn that opens it. A phase nobody could act in is said too, so that no
phase goes by unseen."""

from __future__ import annotations

from wasteland.rules.battle import Battle
from wasteland.rules.events import RoundStarted, TurnStarted
from wasteland.rules.protocol import Ruleset

PHASES = ("move", "charge", "action")  # a round's phases, in order (seed 001)
ORDER = {"move": "lowest sequence first", "charge": "highest sequence first",
         "action": "highest sequence first"}
NOBODY = {"move": "nobody can move", "charge": "nobody can charge",
          "action": "nobody can act"}


def phase_of(b: Battle, rs: Ruleset) -> tuple[int, int] | None:
    """(round, phase index) now, or None under a ruleset without phases."""
    if not rs.tactics.phases or b.slot not in PHASES:
        return None
    return b.round, PHASES.index(b.slot)


def header(phase: int, passed: bool = False) -> str:
    name = PHASES[phase]
    return f"-- {name} phase: {NOBODY[name] if passed else ORDER[name]}"


def headers_since(b: Battle, rs: Ruleset, before: tuple[int, int] | None, first: int
                  ) -> dict[int, list[str]]:
    """The headers of the phases begun since ``before`` (the phase when the log was
    ``first`` events long), by the log index they are told before (len(log): after the
    last)."""
    now = phase_of(b, rs)
    if before is None or now is None or b.over or now <= before:
        return {}
    log = b.log
    rounds = [i for i in range(first, len(log)) if isinstance(log[i], RoundStarted)]
    turns = [i for i in range(first, len(log)) if isinstance(log[i], TurnStarted)]
    out: dict[int, list[str]] = {}
    r, p = before
    for _ in range(3 * (now[0] - before[0] + 1)):  # bounded: at most every phase between
        r, p = (r + 1, 0) if p == len(PHASES) - 1 else (r, p + 1)
        if r < now[0]:  # the round that ended: before the next round's line
            at = rounds[0] if rounds else len(log)
        else:  # the round under way: before the turn that opens its phase
            at = turns[-1] if turns and (not rounds or turns[-1] > rounds[-1]) else len(log)
        out.setdefault(at, []).append(header(p, passed=(r, p) != now))
        if (r, p) == now:
            break
    return out
