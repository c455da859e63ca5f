"""Moving to a chosen square: `goto X Y`, for people at the table (a player who wants to
stop short, a GM who mirrors on the map what the players did).

The action table the envs speak keeps its relative moves (toward / away from a
combatant); `goto` is notation only: saves, replays and the log carry the square. Each
ruleset says which squares its current decision can reach (``destinations``) through the
same walk its other moves take, so a goto is legal exactly when the ruleset would let the
combatant end its move there. Agents never choose it, but its walks are on hot paths
(Simple's moves step with ``next_step``; a move the fog turns into a goto, every few env
turns, asks ``reach``), so it is compiled with the engine (wasteland/_compiled.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Final

from .actions import GOTO as KIND
from .actions import SPRINT, Action
from .errors import IllegalActionError


def goto(x: int, y: int, sprint: bool = False) -> Action:
    """A goto of square (x, y); ``sprint``: at a sprint (2d20's major-action move, Simple's
    run), whatever the distance, as a `sprint toward` played on stale knowledge costs."""
    return Action(KIND, None, f"{x} {y}" + (f" {SPRINT}" if sprint else ""))


def xy(a: Action) -> tuple[int, int]:
    """The square a goto names, as (x, y)."""
    w = (a.option or "").split()
    return int(w[0]), int(w[1])


def sprinting(a: Action) -> bool:
    """Whether a goto is made at a sprint (`goto X Y sprint`)."""
    return (a.option or "").endswith(SPRINT)


def square(a: Action, width: int, height: int) -> int:
    """The square index a goto names; IllegalActionError when it is off the map."""
    x, y = xy(a)
    if not (0 <= x < width and 0 <= y < height):
        raise IllegalActionError(f"square ({x}, {y}) is off the map "
                                 f"(0..{width - 1}, 0..{height - 1})")
    return y * width + x


# ``reach``'s last question and answer (map's lists, start, steps, occupied squares, the
# answer), kept as one tuple so that a thread reading it sees one question's whole: a move
# the fog turns into a goto asks it three times of one board (the goto's end, the rules'
# check of the goto, the walk), some 90,000 instructions each on Simple's hexes
_Asked = tuple[list[tuple[int, ...]] | None, int, int, frozenset[int], dict[int, int]]
_LAST: Final[list[_Asked]] = [(None, -1, -1, frozenset(), {})]


def reach(start: int, steps: int, neighbours: list[tuple[int, ...]],
          occupied: dict[int, int]) -> dict[int, int]:
    """Squares reachable from ``start`` in at most ``steps`` steps through squares nobody
    stands on (``occupied``: the battle's square -> slot), ``neighbours[i]`` the squares
    one step from i in the map's own order (the start itself excluded): square -> steps
    taken, a dict of the caller's own. Breadth first, so the same map always gives the
    same paths. The map's lists and the occupancy, not two callables: compiled, a call of
    either was a Python call a square (a stale move's destinations, every few env turns,
    walk a few dozen)."""
    kept, at, far, taken, answer = _LAST[0]
    if kept is neighbours and at == start and far == steps and taken == occupied.keys():
        return dict(answer)
    seen = {start: 0}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        d = seen[cur]
        if d >= steps:
            continue
        for n in neighbours[cur]:
            if n not in seen and n not in occupied:
                seen[n] = d + 1
                todo.append(n)
    del seen[start]
    _LAST[0] = (neighbours, start, steps, frozenset(occupied), seen)
    return dict(seen)


def reach_capped(start: int, steps: int, neighbours: Callable[[int], Sequence[int]],
                 free: Callable[[int], bool], cap: Callable[[int], int]
                 ) -> tuple[dict[int, int], dict[int, int]]:
    """``reach`` where a move that starts on or enters square ``i`` covers at most
    ``cap(i)`` squares in all (Simple's climbing and swimming): square -> steps taken, and
    square -> the first step of such a walk there. Breadth first in the map's neighbour
    order; of two walks reaching a square in as many steps, the one with more left."""
    limit = min(steps, cap(start))
    out: dict[int, int] = {}
    first: dict[int, int] = {}
    frontier: dict[int, tuple[int, int]] = {start: (limit, -1)}
    for k in range(1, limit + 1):
        nxt: dict[int, tuple[int, int]] = {}
        for cur, (lim, f) in frontier.items():
            if k > lim:
                continue
            for n in neighbours(cur):
                if n == start or not free(n):
                    continue
                lim2 = min(lim, cap(n))
                if k > lim2:
                    continue
                old = nxt.get(n)
                if old is None or lim2 > old[0]:
                    nxt[n] = (lim2, n if f < 0 else f)
        for n, (_lim, f) in nxt.items():
            if n not in out:
                out[n] = k
                first[n] = f
        frontier = nxt
    return out, first


def next_step(start: int, goal: int, neighbours: list[tuple[int, ...]],
              occupied: dict[int, int]) -> int | None:
    """The first square of a shortest path from ``start`` to ``goal`` through squares
    nobody stands on (as ``reach``; None when there is none): searched from the goal back,
    so the step taken is one whose distance to the goal is one less, the first such in
    the map's neighbour order."""
    if start == goal:
        return None
    return step_on(distances(start, goal, neighbours, occupied), start, goal, neighbours,
                   occupied)


def distances(start: int, goal: int, neighbours: list[tuple[int, ...]],
              occupied: dict[int, int]) -> dict[int, int]:
    """Steps to ``goal`` from the squares a search from it back reaches before ``start``
    (``start`` included when there is a way): what ``next_step`` walks by. A walk can keep
    it for all its steps while nobody else moves: every square it asks about on the way is
    nearer the goal than the one before, and a square's distance here depends only on the
    squares still nearer, which the walk has not entered."""
    dist = {goal: 0}
    todo = deque([goal])
    while todo and start not in dist:
        cur = todo.popleft()
        for n in neighbours[cur]:
            if n not in dist and (n == start or n not in occupied):
                dist[n] = dist[cur] + 1
                todo.append(n)
    return dist


def step_on(dist: dict[int, int], start: int, goal: int, neighbours: list[tuple[int, ...]],
            occupied: dict[int, int]) -> int | None:
    """``next_step`` from ``start`` by the ``distances`` of a walk to ``goal``."""
    if start == goal or start not in dist:
        return None
    want = dist[start] - 1
    for n in neighbours[start]:
        if dist.get(n) == want and (n == goal or n not in occupied):
            return n
    return None


def not_reachable(a: Action, x: int, y: int, reachable: dict[int, int], why: str
                  ) -> IllegalActionError:
    """The one-line refusal of a goto to a square the decision cannot reach."""
    del a
    if not reachable:
        return IllegalActionError(f"no move to a square now ({why})")
    return IllegalActionError(f"square ({x}, {y}) cannot be reached now ({why}); "
                              f"{len(reachable)} squares can")
