"""What is legal for a combatant judged on what it knows, and how an action taken on stale
knowledge resolves (issue 42; the reading is in docs/rules/sight.md).

The observation (encoding.py) shows an enemy out of the decider's sight where the decider
last saw it, and one never seen as only "there". ``legal_ids`` computes the ruleset's
legal actions on the board as the decider believes it to be: every enemy it does not see
now (by the encoder's rule: its own eyes, or its side's with ``side_sight``) is taken off
the board, then put back on the square where the decider last saw it if that square is not
in sight now and nobody stands there; an enemy never seen, or whose remembered square is
in view and empty now, stays off. The only actions aimed at such an enemy that stay legal
are moves toward or away from it (a fighter attacks what it sees). ``resolve`` turns the
action chosen into the one the true battle plays: a move aimed at a hidden enemy becomes a
`goto` of the square the same move ends on in the belief, at the same pace.

When the decider sees every standing enemy (most decisions) the belief is the battle
itself and ``legal_ids`` is ``R.legal_ids(b)`` after one pass over the combatants. The
battle is put back exactly after each look (squares, statuses, the occupancy in its
order); its dice are never read.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

from wasteland.rules import goto
from wasteland.rules.actions import ACTION_TABLE, Action
from wasteland.rules.battle import ACTIVE, Battle, Combatant
from wasteland.rules.fork import fork
from wasteland.rules.protocol import Ruleset

from .memory import Memory, Sighting

# a status no rule counts as standing: an enemy taken off the board for one look
NOT_THERE: Final = "not_there"
# the actions that may aim at an enemy out of sight: toward or away from where it is thought
MOVES: Final = frozenset({"move", "sprint", "step"})
# the actions whose outcome depends on where the others stand (a ruleset's ``refusable``
# kinds are among them; PnP's and Simple's "cover" walks to the nearest free cover, which
# someone unseen may stand on or block the way to)
PLACED: Final = MOVES | {"charge", "disarm", "cover"}


def _eyes(b: Battle, me: int, side_sight: bool) -> list[Any]:
    """The sight rows that count as the decider's eyes (as Encoder._side_sees)."""
    cs = b.combatants
    sight = b.grid.sight
    if not side_sight:
        return [sight[cs[me].pos]]
    side = cs[me].side
    return [sight[a.pos] for a in cs if a.side == side and (a.status == ACTIVE or a.slot == me)]


def hidden(b: Battle, me: int, side_sight: bool = False) -> list[Combatant]:
    """The standing enemies of combatant ``me`` it does not see now."""
    cs = b.combatants
    side = cs[me].side
    if not side_sight:
        row = b.grid.sight[cs[me].pos]
        return [o for o in cs if o.side != side and o.status == ACTIVE and not row[o.pos]]
    eyes = _eyes(b, me, True)
    return [o for o in cs if o.side != side and o.status == ACTIVE
            and not any(e[o.pos] for e in eyes)]


def _remembered_crippled(rec: Sighting) -> dict[str, int]:
    """The crippled limbs a sighting shows (encoding's STATE_FEATURES 1..3: head, and arms
    and legs at 0.5 each)."""
    st = rec.state
    out = {"head": 1 if st[1] else 0, "arm": round(float(st[2]) * 2),
           "leg": round(float(st[3]) * 2)}
    return {k: v for k, v in out.items() if v}


@contextmanager
def belief(b: Battle, me: int, side_sight: bool = False,
           unseen: list[Combatant] | None = None, *, memory: Memory | None
           ) -> Iterator[list[Combatant]]:
    """Within the block the battle is the board as combatant ``me`` believes it: each enemy
    it does not see is off the board or on the square ``memory`` (memory.py; None: nothing
    remembered) has it on (see the module), showing the crippled limbs it was seen with.
    Yields the enemies so placed. Everything is put back on leaving, whatever the block
    raised."""
    if unseen is None:
        unseen = hidden(b, me, side_sight)
    undo = _enter(b, me, side_sight, unseen, memory)
    try:
        yield undo[2]
    finally:
        _leave(b, undo)


Undo = tuple[dict[int, int], list[tuple[Combatant, int, str, dict[str, int]]], list[Combatant]]


def _enter(b: Battle, me: int, side_sight: bool, unseen: list[Combatant],
           memory: Memory | None) -> Undo:
    """Make the battle the believed board (``belief``); what ``_leave`` needs to undo it.
    Left half done by an error, ``_leave`` still puts everything back."""
    occ = b.occupied
    undo: Undo = (dict(occ), [(o, o.pos, o.status, o.crippled) for o in unseen], [])
    try:
        for o in unseen:
            o.status = NOT_THERE
            if occ.get(o.pos) == o.slot:
                del occ[o.pos]
        row = memory.seen_by(me) if memory is not None else None
        if row:
            eyes = _eyes(b, me, side_sight)
            for o in unseen:
                rec = row[o.slot] if o.slot < len(row) else None
                if rec is None:
                    continue
                q = rec.square
                if q in occ or any(e[q] for e in eyes):
                    continue
                o.status = ACTIVE
                o.pos = q
                occ[q] = o.slot
                st = rec.state
                if st[1] or st[2] or st[3]:
                    o.crippled = _remembered_crippled(rec)
                elif o.crippled:
                    o.crippled = {}
                undo[2].append(o)
    except BaseException:
        _leave(b, undo)
        raise
    return undo


def _leave(b: Battle, undo: Undo) -> None:
    """Put back what ``_enter`` changed: squares, statuses, limbs, the occupancy in its
    order."""
    kept, saved, _ = undo
    for o, pos, status, crippled in saved:
        o.pos, o.status, o.crippled = pos, status, crippled
    occ = b.occupied
    occ.clear()
    occ.update(kept)


def legal_ids(R: Ruleset, b: Battle, me: int, side_sight: bool = False,
              unseen: list[Combatant] | None = None, *, memory: Memory | None) -> list[int]:
    """The table ids legal for combatant ``me`` (the decider) on the board it believes in
    (its ``memory``): ``R.legal_ids(b)`` when it sees every standing enemy."""
    if unseen is None:
        unseen = hidden(b, me, side_sight)
    if not unseen:
        return R.legal_ids(b)
    undo = _enter(b, me, side_sight, unseen, memory)
    try:
        ids = R.legal_ids(b)
    finally:
        _leave(b, undo)
    gone = {o.slot for o in unseen}
    table = ACTION_TABLE
    return [i for i in ids if table[i].target not in gone or table[i].kind in MOVES]


def resolve(R: Ruleset, b: Battle, me: int, idx: int, side_sight: bool = False, *,
            memory: Memory | None) -> Action | None:
    """The action the true battle plays for table id ``idx``, chosen by the decider ``me``
    from ``legal_ids``: the same action, or for a move aimed at an enemy it does not see a
    `goto` of the square that move ends on in its belief (``stale_move``). None: the true
    battle cannot play it (someone unseen in the way: ``REFUSABLE``); the decision
    stands, not lost."""
    a = ACTION_TABLE[idx]
    if a.kind not in PLACED:
        return a
    unseen = hidden(b, me, side_sight)
    if not unseen:
        return a
    if a.kind in MOVES and a.target in {o.slot for o in unseen}:
        return stale_move(R, b, me, a, side_sight, unseen, memory=memory)
    T = R.tactics
    if a.kind not in T.refusable:
        return a
    if a.kind in MOVES and a.target is not None:  # where the move would end, if anywhere
        cs = b.combatants
        end = T.move_end(b, cs[me], cs[a.target], a.kind, a.option or "toward")
        return None if end is None else a
    return a if idx in R.legal_ids(b) else None


def believed_end(R: Ruleset, b: Battle, me: int, a: Action, side_sight: bool = False, *,
                 memory: Memory | None) -> int:
    """The square action ``a`` (a move) of combatant ``me`` ends on in its belief, by the
    ruleset's own movement with nobody answering the move (``Tactics.move_end``: 2d20's
    zone move, PnP's walk and 5-ft step, Simple's walk), worked out on the believed board
    and put back. Where the ruleset cannot say so: the rules' move on a fork of the
    believed battle."""
    cs = b.combatants
    c = cs[me]
    with belief(b, me, side_sight, memory=memory):
        t = cs[a.target] if a.target is not None else c
        got = R.tactics.move_end(b, c, t, a.kind, a.option or "toward")
        if got is not None:
            return got
        f = fork(b, 0)  # no memory goes with it: the belief is on its board
    for o in f.combatants:  # nobody answers the move: where it ends is all we ask
        if o.slot != me:
            o.free_used, o.readied = True, False
            o.cond.pop("overwatch", None)
            o.cond.pop("ready", None)
    R.apply(f, a, check=False)
    return f.combatants[me].pos


def stale_move(R: Ruleset, b: Battle, me: int, a: Action, side_sight: bool = False,
               unseen: list[Combatant] | None = None, *, memory: Memory | None
               ) -> Action | None:
    """A move, sprint (Simple: run) or 5-ft step aimed at an enemy ``me`` does not see, as
    the true battle plays it: a `goto` of the square it ends on in the belief, at the same
    pace (`goto X Y sprint` for a sprint). Where that square cannot be reached at that pace
    now (someone unseen stands on it or in the way), the reachable square nearest to it,
    if one is nearer than where ``me`` stands; else None (refused)."""
    end = believed_end(R, b, me, a, side_sight, memory=memory)
    here = b.combatants[me].pos
    if end == here:
        return None
    sprint = a.kind == "sprint"
    fn = getattr(R, "destinations", None)
    can: dict[int, int] = dict(fn(b, sprint)) if fn is not None else {}
    T = R.tactics
    cap = T.pace_limit(b.combatants[me], sprint)  # a walk reaches less than a run
    if cap is not None:
        can = {s: n for s, n in can.items() if n <= cap}
    if end not in can:
        field = T.walk_distances(b, end)
        near = [s for s in can if field[s] < field[here]]
        if not near:
            return None
        end = min(near, key=lambda s: (field[s], can[s], s))
    g = b.grid
    return goto.goto(g.xs[end], g.ys[end], sprint)


def mask(R: Ruleset, b: Battle, me: int, side_sight: bool = False, *,
         memory: Memory | None) -> tuple[list[int], bool]:
    """``legal_ids`` and whether the decider has an enemy out of sight (then an action
    chosen from them goes through ``resolve``)."""
    unseen = hidden(b, me, side_sight)
    if not unseen:
        return R.legal_ids(b), False
    return legal_ids(R, b, me, side_sight, unseen, memory=memory), True
