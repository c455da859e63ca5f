"""Moving on hexes under Simple (seed 001, Move Phase and Charge Phase), and the overwatch
cones that interrupt a move (Action Phase)."""

from __future__ import annotations

from collections import deque
from typing import Final

from wasteland.rules import goto
from wasteland.rules.battle import ACTIVE, Battle, Combatant, Reaction
from wasteland.rules.events import Event, Moved, ReactionOffered
from wasteland.rules.grid import NO_CAP, Grid
from wasteland.rules.hexes import UNREACHABLE, Hexes, hexes_for

from .attack import can_attack
from .stats import charge_hexes


def next_step(b: Battle, h: Hexes, c: Combatant, mode: str, target: int, left: int = 99,
              taken: int = 0) -> int | None:
    """One hex of a move: toward ``target`` (a cell) by walking distance, stopping next to
    it; away from it, to a hex farther off; to ``target`` itself for a move to a chosen
    hex. Ties: the nearer (farther) by straight distance, then the lower index."""
    occ = b.occupied
    here = c.pos
    if mode == "square":  # a goto: around the others, as the ruleset's destinations counted
        if b.grid.rough:  # climbing and swimming: the walk the capped reach found
            caps = b.grid.move_cap
            _, first = goto.reach_capped(here, left, h.neighbors.__getitem__,
                                         lambda i: i not in occ, lambda i: caps[i] - taken)
            return first.get(target)
        return goto.next_step(here, target, h.neighbors, occ)
    if mode == "away":
        d0 = h.dist(here, target)
        # the farthest by (straight distance, walking distance), then the lower index:
        # compared number by number (a tuple a neighbour was made and compared generically)
        best: int | None = None
        bd, bw = d0, 0
        walk = h.walk_distances(target)
        for n in h.neighbors[here]:
            if n in occ:
                continue
            dn, wn = h.dist(n, target), walk[n]
            if dn > bd or (dn == bd and (wn > bw or (wn == bw and best is not None
                                                     and n < best))):
                best, bd, bw = n, dn, wn
        return best if best is not None and bd > d0 else None
    if mode == "toward" and h.dist(here, target) <= 1:
        return None
    walk = h.walk_distances(target)
    # the nearest by (walking distance, straight distance, index), number by number
    best = None
    bw, bd, bn = walk[here], h.dist(here, target), here
    for n in h.neighbors[here]:
        if n in occ and n != target:
            continue
        if n == target and mode == "toward":
            continue
        wn = walk[n]
        if wn > bw:
            continue
        dn = h.dist(n, target)
        if wn < bw or dn < bd or (dn == bd and n < bn):
            best, bw, bd, bn = n, wn, dn, n
    return best


def can_step(b: Battle, h: Hexes, here: int, mode: str, target: int) -> bool:
    """Whether ``next_step`` finds a hex (legality asks this for every combatant at every
    move decision, so it stops at the first): toward, a free neighbour nearer on foot
    (not from next to the target); away, a free neighbour farther off."""
    occ = b.occupied
    if mode == "away":
        d0 = h.dist(here, target)
        for n in h.neighbors[here]:
            if n not in occ and h.dist(n, target) > d0:
                return True
        return False
    d0 = h.dist(here, target)
    if d0 <= 1:
        return False
    walk = h.walk_distances(target)
    w0 = walk[here]
    for n in h.neighbors[here]:
        if n in occ or n == target:
            continue
        wn = walk[n]  # next_step's order: walking distance, straight distance, index
        if wn < w0 or (wn == w0 and ((dn := h.dist(n, target)) < d0
                                      or (dn == d0 and n < here))):
            return True
    return False


def triggers(b: Battle, h: Hexes, c: Combatant, cell: int) -> list[Combatant]:
    """Overwatchers whose cone the mover just entered (each fires once, seed 001)."""
    out = []
    for e in b.combatants:
        ow = e.cond.get("overwatch")
        if (ow and e.side != c.side and e.status == ACTIVE and ow[0] == b.round - 1
                and cell in h.cone(e.pos, int(ow[1]), int(ow[2]))
                and can_attack(b, e, c, e.active_weapon)):
            out.append(e)
    return out


def walk(b: Battle, c: Combatant, mode: str, target: int, hexes: int, intent: str,
         events: list[Event]) -> None:
    """Move up to ``hexes`` hexes, pausing (``b.pending_move``) when it enters an
    overwatch cone so the overwatcher may fire first."""
    # a move that starts in water or on a climb is a swim or a climb (reading)
    b.pending_move = [c.slot, mode, target, min(hexes, b.grid.move_cap[c.pos]), c.pos, 0,
                      intent]
    resume(b, events)


def resume(b: Battle, events: list[Event]) -> None:
    pm = b.pending_move
    assert pm is not None
    slot, mode_, target_, left_, start, taken_, intent = pm
    # the pending move's fields as typed numbers once: read as they are (Any), each step's
    # sums, comparisons and min() went through the generic object protocol
    mode = str(mode_)
    target, left, taken = int(target_), int(left_), int(taken_)
    c = b.combatants[slot]
    h = hexes_for(b.grid)
    b.pending_move = None
    caps = b.grid.move_cap
    # a goto on open ground keeps goto's distances for the whole walk (goto.distances says
    # why they hold while only the walker moves); next_step would search again each hex
    to_square = mode == "square" and not b.grid.rough
    dist: dict[int, int] | None = None
    while c.status == ACTIVE and left > 0:
        if to_square:
            if dist is None:
                dist = goto.distances(c.pos, target, h.neighbors, b.occupied)
            nxt = goto.step_on(dist, c.pos, target, h.neighbors, b.occupied)
        else:
            nxt = next_step(b, h, c, mode, target, left, taken)
        # entering water or a climb makes the whole move a swim (2) or a climb (1)
        if nxt is None or taken + 1 > caps[nxt]:
            break
        b.set_pos(c, nxt)
        cap = caps[nxt] - taken - 1
        left = left - 1 if left - 1 < cap else cap
        taken += 1
        fire = triggers(b, h, c, nxt)
        if fire:
            for e in fire:
                b.reactions.append(Reaction(e.slot, "overwatch", c.slot))
                b.emit(events, ReactionOffered(e.id, "overwatch", c.id))
            b.pending_move = [slot, mode, target, left, start, taken, intent]
            return
    g = b.grid
    b.emit(events, Moved(c.id, str(intent), g.xy(int(start)), g.xy(c.pos), int(taken)))


COVER_STEPS: Final = "simple_cover_steps"  # cover_steps' key in ``Grid.caches``


def cover_steps(g: Grid, h: Hexes) -> list[int]:
    """Steps on foot from each hex to the nearest passable hex with cover, around walls
    but through everyone (UNREACHABLE where there is none): a map's own, kept with
    it. Nobody standing in the way makes a walk shorter, so no free cover hex is nearer."""
    got: list[int] | None = g.caches.get(COVER_STEPS)
    if got is None:
        got = [UNREACHABLE] * h.n_cells
        queue = deque(p for p in range(h.n_cells) if g.cover[p] and h.passable[p])
        for p in queue:
            got[p] = 0
        while queue:
            p = queue.popleft()
            d = got[p] + 1
            for n in h.neighbors[p]:  # neighbours are passable, and each other's
                if got[n] > d:
                    got[n] = d
                    queue.append(n)
        g.caches[COVER_STEPS] = got
    return got


def nearest_cover(b: Battle, c: Combatant, hexes: int) -> int | None:
    """The nearest free hex with cover within ``hexes`` steps (walls block), if any."""
    h = hexes_for(b.grid)
    g = b.grid
    # asked at every move decision; out of cover's reach even with nobody in the way, the
    # walk below cannot find any (from a hex with cover, the nearest other one is walked)
    if not g.rough and not g.cover[c.pos] and cover_steps(g, h)[c.pos] > hexes:
        return None
    if g.rough:  # climbing and swimming: the nearest the capped walks reach
        occ = b.occupied
        reach = goto.reach_capped(c.pos, hexes, h.neighbors.__getitem__,
                                  lambda i: i not in occ, g.move_cap.__getitem__)[0]
        covered = [p for p in reach if g.cover[p]]
        return min(covered, key=lambda p: (reach[p], p)) if covered else None
    # hexes met, as a list of flags: a dict of them was most of this walk's cost
    seen = [False] * h.n_cells
    seen[c.pos] = True
    occ = b.occupied
    frontier = [c.pos]
    found: list[int] = []
    for _ in range(hexes):
        nxt = []
        for p in frontier:
            for n in h.neighbors[p]:
                if seen[n] or n in occ:
                    continue
                seen[n] = True
                nxt.append(n)
                if g.cover[n]:
                    found.append(n)
        if found:
            return min(found)
        frontier = nxt
    return None


def charge_path(b: Battle, c: Combatant, t: Combatant) -> tuple[int, ...] | None:
    """A charge (seed 001, Charge Phase): 1 to 4 free hexes in a straight line from where
    it stands (2 on two crippled legs: Crippled Effects), ending next to ``t``; the shortest
    such line, then the lowest end hex."""
    h = hexes_for(b.grid)
    if h.dist(c.pos, t.pos) <= 1:
        return None  # reading: a charge closes in; one already engaged strikes in its action
    caps = b.grid.move_cap
    if caps[c.pos] < NO_CAP:
        return None  # nor from the water or a climb: it runs on open ground
    best: tuple[int, ...] | None = None
    reach = charge_hexes(c)
    for d in range(6):
        ray = h.ray(c.pos, d, reach)
        for k, cell in enumerate(ray):
            if cell in b.occupied or caps[cell] < NO_CAP:  # reading: not through water
                break
            if h.dist(cell, t.pos) == 1:
                path = ray[:k + 1]
                if best is None or (len(path), path[-1]) < (len(best), best[-1]):
                    best = path
                break
    return best
