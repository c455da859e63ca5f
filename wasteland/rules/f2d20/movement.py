"""Movement under Fallout 2d20 (seed 002: Move, Sprint, Ready): a move crosses up to one
zone, a sprint two; the mover stops on a free square of the zone reached
(wasteland/rules/zones.py)."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from wasteland.rules.battle import ACTIVE, Battle, Combatant, Reaction
from wasteland.rules.events import Event, Moved, ReactionOffered
from wasteland.rules.zones import Zones, zones_for

from .attack import Attacks
from .book import book
from .reach import _enemy_reach, _holds_gun


def order_key(z: Zones, zone: int, cell: int, far: bool) -> int:
    """The key of ``Zones.orders`` for (zone, cell, far)."""
    return ((zone * z.grid.n_cells + cell) << 1) | far


def move_key(z: Zones, here: int, there: int) -> int:
    """The key of ``Zones.moves`` for a move from zone ``here`` about zone ``there``."""
    return here * z.count + there


def _by_distance(z: Zones, zone: int, cell: int, far: bool) -> tuple[int, ...]:
    """The squares of ``zone`` by walking distance to ``cell`` (nearest first, or farthest
    first), ties to the lower index; cached with the zones, which belong to one map."""
    cache = z.orders
    key = order_key(z, zone, cell, far)
    got = cache.get(key)
    if got is None:
        walk = z.grid.walk_distances(cell)
        cells = z.cells(zone)
        n = z.grid.n_cells
        # (walking distance, or its negative when far, then the square) packed in one int
        # where every index is below n: sorting by a tuple made one per square
        mult = -n if far else n
        got = cache[key] = tuple(sorted(cells, key=lambda s: mult * walk[s] + s))
    return got


def _toward_cell(b: Battle, z: Zones, c: Combatant, t: Combatant, zone: int,
                 reach: set[int] | None = None) -> int | None:
    """Where a move toward ``t`` ends in ``zone``: the free square nearest it; for one
    holding a gun, the nearest that is out of every enemy's reach (a gun in reach pays +2),
    when there is one. ``reach``: ``_enemy_reach``, when the caller has it already."""
    order = _by_distance(z, zone, t.pos, False)
    occ = b.occupied
    if _holds_gun(c):
        reach = _enemy_reach(b, c) if reach is None else reach
        for s in order:
            if s not in occ and s not in reach:
                return s
    return _first_free(order, occ)


def _zone_reached(z: Zones, here: int, there: int, toward: bool, zones_n: int) -> int:
    """The zone a move of ``zones_n`` zones toward (or away from) zone ``there`` ends in;
    cached with the zones, since it depends on the map only."""
    cache = z.reached
    key = (here, there, toward, zones_n)
    got = cache.get(key)
    if got is None:
        zone = here
        for _ in range(zones_n):
            if toward:
                nxt = z.next_zone_toward(zone, there)
                if nxt == zone:
                    break
                zone = nxt
            else:
                away = z.zones_away_from(zone, there)
                if not away:
                    break
                zone = away[0]
        got = cache[key] = zone
    return got


def _move_zones(z: Zones, here: int, there: int) -> tuple[int, int, int, int]:
    """The zones a move and a sprint toward, and a move and a sprint away from, zone
    ``there`` end in; cached with the zones (legal_ids reads the cache directly)."""
    got = (_zone_reached(z, here, there, True, 1), _zone_reached(z, here, there, True, 2),
           _zone_reached(z, here, there, False, 1), _zone_reached(z, here, there, False, 2))
    z.moves[move_key(z, here, there)] = got
    return got


def _ends(z: Zones, orders: dict[int, tuple[int, ...]], zone: int,
          here: int, tp: int, occ: dict[int, int], walk: list[int], mine: int, far: bool,
          reach: set[int] | None) -> bool:
    # params: the engine's hot path (move legality): plain values, no object per call
    """Whether a move toward (or, ``far``, away from) the square ``tp`` into ``zone`` ends
    anywhere: a free square there (``reach``: one out of it first, as ``_toward_cell``),
    which within the mover's own zone must be nearer to (farther from) ``tp``. The same
    squares as ``Movement._destination``, for legal_ids."""
    order = orders.get(order_key(z, zone, tp, far))
    if order is None:
        order = _by_distance(z, zone, tp, far)
    cell = None
    if reach is not None:
        for s in order:
            if s not in occ and s not in reach:
                cell = s
                break
    if cell is None:
        for s in order:
            if s not in occ:
                cell = s
                break
    if cell is None:
        return False
    if zone != here:
        return True
    return walk[cell] > walk[mine] if far else walk[cell] < walk[mine]


def _first_free(cells: tuple[int, ...], occupied: dict[int, int]) -> int | None:
    for s in cells:
        if s not in occupied:
            return s
    return None



@mypyc_attr(serializable=True)
class Movement(Attacks):
    """Movement, for F2d20 (a base class of it)."""

    # --- movement ------------------------------------------------------------------------
    def _destination(self, b: Battle, z: Zones, c: Combatant, t: Combatant, mode: str,
                     zones_n: int) -> int | None:
        """Where a move (1 zone) or sprint (2 zones) toward or away from ``t`` ends: the free
        square of the zone reached that is nearest to ``t`` (into reach when ``t`` is in the
        zone, unless the mover holds a gun: ``_toward_cell``) or, moving away, farthest
        from it - within its own zone when no zone lies farther off (a move is "up to one
        zone")."""
        here, there = z.zone_of[c.pos], z.zone_of[t.pos]
        toward = mode == "toward"
        if toward and b.grid.dist(c.pos, t.pos) <= 1:
            return None
        zone = _zone_reached(z, here, there, toward, zones_n)
        cell = (_toward_cell(b, z, c, t, zone) if toward
                else _first_free(_by_distance(z, zone, t.pos, True), b.occupied))
        if cell is not None and zone == here:  # within the zone: only if it gets nearer / farther
            walk = b.grid.walk_distances(t.pos)
            if (walk[cell] >= walk[c.pos]) if toward else (walk[cell] <= walk[c.pos]):
                return None
        return cell

    def _move(self, b: Battle, c: Combatant, t: Combatant, mode: str, zones_n: int,
              events: list[Event]) -> None:
        z = zones_for(b.grid)
        dest = self._destination(b, z, c, t, mode, zones_n)
        assert dest is not None
        self._arrive(b, c, dest, f"{'sprints' if zones_n == 2 else 'moves'} {mode} {t.id}",
                     events)

    def _arrive(self, b: Battle, c: Combatant, dest: int, intent: str, events: list[Event]
                ) -> None:
        """``c`` reaches ``dest`` by a move or sprint; readied enemies may answer."""
        z = zones_for(b.grid)
        start = c.pos
        b.set_pos(c, dest)
        c.cond.pop("burrowed", None)
        book(b).moved = True
        if not b.quiet:
            b.emit(events, Moved(c.id, intent, b.grid.xy(start),
                                 b.grid.xy(dest), b.grid.dist(start, dest),
                                 f" ({z.name(z.zone_of[start])} -> {z.name(z.zone_of[dest])})"))
        for s in book(b).base_order:  # readied enemies act, in initiative order (seed 002, Ready)
            o = b.combatants[s]
            if o.side == c.side or o.status != ACTIVE:
                continue
            if o.readied and self.can_attack(b, o, c, o.active_weapon):
                b.reactions.append(Reaction(o.slot, "readied", c.slot))
                b.emit(events, ReactionOffered(o.id, "readied_attack", c.id))
            elif o.cond.get("ready") == "defend" and self.can_attack(b, c, o, c.active_weapon):
                b.reactions.append(Reaction(o.slot, "ready_defend", c.slot))
                b.emit(events, ReactionOffered(o.id, "readied_defend", c.id))

