"""Movement on the square grid and the reactions it provokes (seed 000: Small Action
"moving up to the character's speed", Free Actions: attack of opportunity on movement,
readied actions, 5-ft step)."""

from __future__ import annotations

from typing import Final

from wasteland.rules import goto
from wasteland.rules.battle import ACTIVE, Battle, Combatant, Reaction
from wasteland.rules.events import Event, Moved, ReactionOffered

from .combat import can_attack
from .stats import speed

SQUARE_MODES: Final = ("cover", "to")


def step_toward(b: Battle, c: Combatant, goal: int) -> int | None:
    """The free neighbouring square that most shortens the walk to ``goal``."""
    field = b.grid.walk_distances(goal)
    best, best_d = None, field[c.pos]
    occ = b.occupied
    for n in b.grid.neighbors[c.pos]:
        if n not in occ and field[n] < best_d:
            best, best_d = n, field[n]
    return best


def step_away(b: Battle, c: Combatant, threat: int) -> int | None:
    field = b.grid.walk_distances(threat)
    best, best_d = None, field[c.pos]
    occ = b.occupied
    for n in b.grid.neighbors[c.pos]:
        if n not in occ and field[n] > best_d:
            best, best_d = n, field[n]
    return best


def nearest_cover(b: Battle, c: Combatant, sp: int | None = None) -> int | None:
    """The closest free cover square within this turn's Speed, if any."""
    if sp is None:
        sp = speed(c)
    occ = b.occupied
    for dd, cell in b.grid.cover_by_distance(c.pos):
        if dd > sp:
            return None
        if cell not in occ:
            return cell
    return None



def _aoo_candidates(b: Battle, c: Combatant, done: list[int]) -> list[Combatant]:
    """Enemies who could take an attack of opportunity on ``c`` during this walk: standing,
    wielding a melee weapon, free action unused, not already offered one."""
    side = c.side
    return [e for e in b.combatants
            if e.side != side and e.status == ACTIVE and not e.free_used
            and not e.arm(e.active_weapon).ranged and e.slot not in done]


def threats_on_leaving(b: Battle, c: Combatant) -> list[Combatant]:
    """The enemies whose attack of opportunity a walk out of ``c``'s square provokes
    (the first step of any move): those ``walk`` would pause for there."""
    g = b.grid
    x, y = g.xs[c.pos], g.ys[c.pos]
    return [e for e in _aoo_candidates(b, c, [])
            if abs(g.xs[e.pos] - x) <= 1 and abs(g.ys[e.pos] - y) <= 1
            and can_attack(b, e, c, e.active_weapon)]


def walk(b: Battle, c: Combatant, mode: str, target: int, steps: int, events: list[Event],
         moved: int = 0, start: int | None = None, done: list[int] | None = None) -> None:
    # params: the engine's hot path; moved, start and done resume a paused walk
    """Walk up to ``steps`` squares. Leaving a square next to an armed melee enemy pauses the
    walk (saved in ``b.pending_move``) while that enemy is offered an attack of opportunity."""
    g = b.grid
    start = c.pos if start is None else start
    done = [] if done is None else done
    # "cover" and "to" (a chosen square) walk to a square, the others to or from someone
    t = b.combatants[target] if mode not in SQUARE_MODES else None
    goal = t.pos if t is not None else target
    slope = g.uphill if mode == "away" else g.downhill
    stop_next_to = mode == "toward"
    cands = _aoo_candidates(b, c, done)
    occ = b.occupied
    step_bits = g._step_bits
    xs, ys = g.xs, g.ys
    gx, gy = xs[goal], ys[goal]
    cur = c.pos
    dist: dict[int, int] | None = None  # a walk to a square: goto's distances, once a walk
    while steps > 0:
        if stop_next_to and abs(xs[cur] - gx) <= 1 and abs(ys[cur] - gy) <= 1:
            break
        if cur == goal:
            break
        best = -1
        if mode == "to":  # around the others on the way, as destinations() counted it
            if dist is None:  # nobody moves during the walk (it pauses for any answer)
                dist = goto.distances(cur, goal, g.step_cells, occ)
            nxt = goto.step_on(dist, cur, goal, g.step_cells, occ)
            best = -1 if nxt is None else nxt
        else:
            # walking distances of neighbours differ by at most one, so every square on
            # the slope is equally good: take the first free one, in neighbour order
            dirs = slope[cur][goal]
            if dirs:
                for n, bit in step_bits[cur]:
                    if bit & dirs and n not in occ:
                        best = n
                        break
        if best < 0:
            break
        if cands:
            cx, cy = xs[cur], ys[cur]
            near = [e for e in cands if abs(xs[e.pos] - cx) <= 1 and abs(ys[e.pos] - cy) <= 1]
            if near:
                b.set_pos(c, cur)
                threats = [e for e in near if can_attack(b, e, c, e.active_weapon)]
                if threats:
                    for e in threats:
                        done.append(e.slot)
                        cands.remove(e)
                        b.reactions.append(Reaction(e.slot, "opportunity", c.slot))
                        if not b.quiet:
                            b.emit(events, ReactionOffered(e.id, "attack_of_opportunity", c.id))
                    b.pending_move = [c.slot, mode, target, steps, moved, start, done]
                    return
        cur = best
        steps -= 1
        moved += 1
    if cur != c.pos:
        b.set_pos(c, cur)
    b.pending_move = None
    if not b.quiet:
        intent = {"toward": "moves toward", "away": "moves away from", "cover": "takes cover",
                  "to": "moves"}[mode]
        if t is not None:
            intent += f" {t.id}"
        b.emit(events, Moved(c.id, intent, g.xy(start), g.xy(cur), moved))
    if moved:
        after_move(b, c, events)


def after_move(b: Battle, c: Combatant, events: list[Event]) -> None:
    """Offer readied enemies their attack and adjacent allies their 5-ft step."""
    g = b.grid
    xs, ys = g.xs, g.ys
    cx, cy = xs[c.pos], ys[c.pos]
    side = c.side
    for o in b.combatants:
        if o.status != ACTIVE or o.free_used or o is c:
            continue
        if o.side != side:
            if o.readied and can_attack(b, o, c, o.active_weapon):
                b.reactions.append(Reaction(o.slot, "readied", c.slot))
                if not b.quiet:
                    b.emit(events, ReactionOffered(o.id, "readied_attack", c.id))
            elif o.cond and o.cond.get("ready") and g.los(o.pos, c.pos):
                b.reactions.append(Reaction(o.slot, "prepared", c.slot))
                if not b.quiet:
                    b.emit(events, ReactionOffered(o.id, "readied_action", c.id))
        elif abs(xs[o.pos] - cx) <= 1 and abs(ys[o.pos] - cy) <= 1 and speed(o) > 0:
            b.reactions.append(Reaction(o.slot, "step", c.slot))
            if not b.quiet:
                b.emit(events, ReactionOffered(o.id, "5ft_step", c.id))


def resume(b: Battle, events: list[Event]) -> None:
    pm = b.pending_move
    if pm is None:
        return
    slot, mode, target, steps, moved, start, done = pm
    c = b.combatants[slot]
    b.pending_move = None
    if c.status != ACTIVE or (mode not in SQUARE_MODES and b.combatants[target].status != ACTIVE):
        return
    walk(b, c, mode, target, steps, events, moved, start, done)
