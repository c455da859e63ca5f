"""Adding a combatant to a fight already under way (a GM's newcomer)."""

from __future__ import annotations

from wasteland.bestiary.loader import Bestiary, default_bestiary
from wasteland.rules.actions import MAX_COMBATANTS
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError
from wasteland.rules.events import Event
from wasteland.rules.rulesets import get_ruleset


def join(b: Battle, creature: str, at: tuple[int, int], side: int | str,
         cid: str | None = None, bestiary: Bestiary | None = None) -> list[Event]:
    """Put ``creature`` on square ``at`` for ``side`` (index or name); it acts after
    everyone already in the fight. Recorded so that a save loads back with it."""
    bestiary = bestiary or default_bestiary()
    if isinstance(side, str):
        names = [n.lower() for n in b.side_names]
        if side.isdigit():
            side = int(side)
        elif side.lower() in names:
            side = names.index(side.lower())
        else:
            raise WastelandError(f"unknown side {side!r}; sides: "
                                 + ", ".join(f"{i} {n}" for i, n in enumerate(b.side_names)))
    if not 0 <= side < len(b.side_names):
        raise WastelandError(f"side {side} out of range; sides: "
                             + ", ".join(f"{i} {n}" for i, n in enumerate(b.side_names)))
    if len(b.combatants) >= MAX_COMBATANTS:
        raise WastelandError(f"the fight already has {MAX_COMBATANTS} combatants, the most "
                             f"the action table can name")
    g = b.grid
    x, y = at
    if not (0 <= x < g.width and 0 <= y < g.height):
        raise WastelandError(f"square ({x}, {y}) is off the {g.width}x{g.height} map")
    pos = g.index(x, y)
    if not g.passable[pos]:
        raise WastelandError(f"square ({x}, {y}) is a wall")
    if pos in b.occupied:
        raise WastelandError(f"square ({x}, {y}) is taken by {b.ids[b.occupied[pos]]}")
    if cid is None:
        n = sum(1 for c in b.combatants if c.creature.id == creature)
        cid = f"{creature}_{n}"
        while cid in b.ids:
            n += 1
            cid = f"{creature}_{n}"
    elif cid in b.ids:
        raise WastelandError(f"combatant id {cid!r} is already in the fight")
    rs = get_ruleset(b.ruleset)
    c = rs.make_combatant(bestiary, creature, len(b.combatants), cid, side, pos)
    b.add(c)
    b.add_joined({"creature": creature, "at": [x, y], "side": side, "id": cid})
    b.moves.append(join_entry(cid, creature, x, y, side))
    return rs.join(b, c)


def join_entry(cid: str, creature: str, x: int, y: int, side: int) -> str:
    """The history line of a newcomer: "@join raider_0 raider 10 3 1" (id, creature, x, y,
    side), replayed where it happened."""
    return f"@join {cid} {creature} {x} {y} {side}"
