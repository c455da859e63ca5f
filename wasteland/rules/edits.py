"""A GM's corrections to a fight, outside its rules: what happened at the table that the
engine did not play (a hit that was rolled by hand, a potion, a shove, someone who ran
off). Each is one line of the battle's history ("@gm hp ted -5"), so an undo, a save and
a replay carry it like any action; each is logged.

    hp NAME +N | -N                  heal or hurt, within 1..max HP (taking someone out of
                                     the fight is `remove`, so each ruleset's rules for
                                     going down are not bypassed by a number)
    place NAME X Y                   move to a free square, no reaction, no cost
    remove NAME [dead|unconscious]   out of the fight (default dead)
    condition NAME WHAT [off]        set or clear prone, bleeding, stunned, crouched (as
                                     the ruleset knows them) or `crippled PART`

A change that would leave the rules in a state they cannot continue from is refused in
one line: the one deciding now, or someone a pending reaction or attack is about, cannot
be removed until that decision is made.
"""

from __future__ import annotations

from typing import Any

from .battle import ACTIVE, DEAD, UNCONSCIOUS, Battle, Combatant
from .errors import WastelandError
from .events import Event, Note
from .protocol import Ruleset

USAGE = ("hp NAME +N|-N, place NAME X Y, remove NAME [dead|unconscious], "
         "condition NAME WHAT [off]")
WORDS = ("hp", "place", "remove", "condition")


class EditError(WastelandError):
    """A GM edit that names no one, or that the fight cannot take now; one line."""


def _conditions(ruleset: str) -> dict[str, tuple[str, Any]]:
    """The conditions a GM may set under ``ruleset``: name -> (key in cond, value)."""
    if ruleset == "pnp":
        from .pnp.combat import BLEED_RATE

        return {"prone": ("prone", True), "bleeding": ("bleeding", BLEED_RATE)}
    if ruleset == "f2d20":
        return {"prone": ("prone", True), "stunned": ("stunned", True)}
    if ruleset == "simple":
        from .simple.stats import CROUCH, PRONE

        return {"prone": ("stance", PRONE), "crouched": ("stance", CROUCH),
                "bleeding": ("bleeding", True)}
    return {}


def _who(b: Battle, name: str) -> Combatant:
    for c in b.combatants:
        if c.id == name:
            return c
    raise EditError(f"no combatant {name!r}; combatants: {', '.join(b.ids)}")


def _busy(b: Battle, rs: Ruleset, c: Combatant) -> str | None:
    """Why ``c`` cannot leave the fight now, if it cannot."""
    dec = rs.decider(b)
    if dec.combatant == c.slot:
        return f"{c.id} is deciding now; end or finish its decision first"
    if dec.subject == c.slot or any(r.subject == c.slot or r.reactor == c.slot
                                    for r in b.reactions):
        return f"a decision under way is about {c.id}; make it first"
    return None


def _end_if_decided(b: Battle, rs: Ruleset, events: list[Event]) -> None:
    # every ruleset ends a fight the same way once a side is left alone
    check = getattr(rs, "_check_end", None)
    if check is not None:
        check(b, events)


def apply_edit(b: Battle, rs: Ruleset, line: str) -> list[Event]:
    """Apply one edit line (without its "@gm " prefix), log it, and record it in the
    history; an edit that cannot be made raises EditError and changes nothing."""
    words = line.split()
    if not words or words[0] not in WORDS:
        raise EditError(f"not an edit: {line!r}; edits: {USAGE}")
    if b.over:
        raise EditError("the fight is over; nothing to edit")
    kind = words[0]
    if len(words) < 2:
        raise EditError(f"{kind} needs a combatant; usage: {USAGE}")
    c = _who(b, words[1])
    if c.status != ACTIVE:
        raise EditError(f"{c.id} is out of the fight ({c.status})")
    events: list[Event] = []
    if kind == "hp":
        text = _hp(c, words)
    elif kind == "place":
        text = _place(b, c, words)
    elif kind == "remove":
        text = _remove(b, rs, c, words)
    else:
        text = _condition(b, c, words)
    c.memo.clear()  # what the rules worked out about it may depend on what changed
    b.moves.append("@gm " + " ".join(words))
    b.emit(events, Note(c.id, f"(GM) {text}"))
    if kind == "remove":
        _end_if_decided(b, rs, events)
    return events


def _hp(c: Combatant, words: list[str]) -> str:
    if len(words) != 3 or words[2][:1] not in "+-" or not words[2][1:].isdigit():
        raise EditError("usage: hp NAME +N or hp NAME -N (e.g. hp ted -5)")
    n = int(words[2])
    new = min(c.max_hp, c.hp + n)
    if new < 1:
        raise EditError(f"{c.id} has {c.hp} HP: hp can take it to 1 at the least; "
                        f"`remove {c.id} dead` or `remove {c.id} unconscious` takes it out")
    before, c.hp = c.hp, new
    return f"HP {before} -> {new}/{c.max_hp}."


def _place(b: Battle, c: Combatant, words: list[str]) -> str:
    if len(words) != 4 or not (words[2].isdigit() and words[3].isdigit()):
        raise EditError("usage: place NAME X Y (e.g. place ted 3 4)")
    x, y = int(words[2]), int(words[3])
    g = b.grid
    if not (0 <= x < g.width and 0 <= y < g.height):
        raise EditError(f"square ({x}, {y}) is off the map (0..{g.width - 1}, 0..{g.height - 1})")
    to = g.index(x, y)
    if not g.passable[to]:
        raise EditError(f"square ({x}, {y}) is a wall")
    if to in b.occupied and b.occupied[to] != c.slot:
        raise EditError(f"square ({x}, {y}) is taken by {b.ids[b.occupied[to]]}")
    frm = c.pos
    del b.occupied[frm]
    b.occupied[to] = c.slot
    c.pos = to
    return f"placed: ({g.xs[frm]}, {g.ys[frm]}) -> ({x}, {y})."


def _remove(b: Battle, rs: Ruleset, c: Combatant, words: list[str]) -> str:
    status = words[2] if len(words) > 2 else DEAD
    if len(words) > 3 or status not in (DEAD, UNCONSCIOUS):
        raise EditError("usage: remove NAME [dead|unconscious]")
    why = _busy(b, rs, c)
    if why:
        raise EditError(why)
    b.fall(c, status)
    c.readied = False
    return f"out of the fight ({status})."


def _condition(b: Battle, c: Combatant, words: list[str]) -> str:
    known = _conditions(b.ruleset)
    off = words[-1] == "off"
    what = words[2:-1] if off else words[2:]
    if len(what) == 2 and what[0] == "crippled":
        part = what[1]
        parts = sorted(set(c.loc_counts) | {"head", "arm", "leg"})
        if part not in parts:
            raise EditError(f"{c.id} has no {part!r}; parts: {', '.join(parts)}")
        if off:
            c.crippled.pop(part, None)
            return f"{part} no longer crippled."
        most = c.loc_counts.get(part, 1)
        if c.crippled.get(part, 0) >= most:
            raise EditError(f"every {part} of {c.id} is crippled already")
        c.crippled[part] = c.crippled.get(part, 0) + 1
        return f"{part} crippled."
    names = ", ".join([*known, "crippled PART"])
    if len(what) != 1 or what[0] not in known:
        raise EditError(f"usage: condition NAME WHAT [off]; WHAT under {b.ruleset}: {names}")
    key, value = known[what[0]]
    if off:
        if c.cond.get(key) != value:
            raise EditError(f"{c.id} is not {what[0]}")
        if key == "stance":
            from .simple.stats import STAND

            c.cond[key] = STAND
        else:
            del c.cond[key]
        return f"no longer {what[0]}."
    c.cond[key] = value
    return f"now {what[0]}."
