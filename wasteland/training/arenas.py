"""Procedurally generated arenas, so a policy learns its creatures' tactics rather than one
map (issue 10); the built-in maps and the held-out ones (training/heldout/) are its tests.

    rng = numpy.random.default_rng(seed)
    scenario = random_arena(rng, FAMILIES["radscorpions"], FOES)

An arena is an ordinary Scenario: a walled map of random size with rooms, wall runs and
pillars, cover of every grade, sometimes high ground and patches of darkness or smoke,
under varied light. A side named "Creatures" starts at one end, "Foes" at the other, in
random order and at a random end, every start on plain floor and every open square
reachable from every other. Numbers are drawn so the sides are roughly even by a
strength table fitted to packet-vs-packet fights (see STRENGTH), so a learner meets easy,
hard and close fights rather than mostly hopeless ones.

Measure the packet against itself over random arenas:

    python -m wasteland.training.arenas --fights 400
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from wasteland.bestiary.models import Scenario
from wasteland.limits import MAX_MAP_CELLS
from wasteland.rules.actions import MAX_COMBATANTS
from wasteland.rules.errors import WastelandError

CREATURES_SIDE = "Creatures"
FOES_SIDE = "Foes"
FAMILIES: dict[str, tuple[str, ...]] = {
    "radscorpions": ("radscorpion", "young_radscorpion", "giant_radscorpion"),
    "super_mutants": ("super_mutant", "super_mutant_brute"),
    "robots": ("protectron", "mr_handy", "sentry_bot"),
}
FOES: tuple[str, ...] = ("vault_dweller", "wastelander", "brawler", "raider")

WIDTH = (10, 24)  # inclusive; the largest arena, 24x14, is the largest built-in map
HEIGHT = (6, 14)
MAX_ROUNDS = 30
LIGHTING = ("clear", "obscured", "heavily_obscured", "unseen")
# mostly lit: in the dark every shot is long odds and fights stall into draws
LIGHTING_P = (0.55, 0.25, 0.15, 0.05)

# terrain x cover -> map character; full cover is a solid object, so it has no terrain
_PLAIN, _HIGH, _DARK, _SMOKE = 0, 1, 2, 3
_GLYPH = ((".", ",", "=", "B"), ("^", "r", "h", "B"), ("%", "*", "d", "B"), ("~", "s", "m", "B"))
LEGEND: dict[str, Any] = {
    ".": "floor", "#": "wall", ",": "light_cover", "=": "heavy_cover", "B": "full_cover",
    "^": "high_ground", "%": "darkness", "~": "smoke",
    "r": ["high_ground", "light_cover"], "h": ["high_ground", "heavy_cover"],
    "*": ["darkness", "light_cover"], "d": ["darkness", "heavy_cover"],
    "s": ["smoke", "light_cover"], "m": ["smoke", "heavy_cover"],
}

# Fighting strength of one combatant under a ruleset, on a scale where a side's strength
# is the sum of its members' and P(side A wins) ~ A / (A + B). Fitted by logistic
# regression to packet-vs-packet fights in unbalanced random arenas (1-3 a side). The
# rulesets disagree a lot (a wastelander's rifle is deadly in PnP and weak against
# carapace in 2d20), hence one table per ruleset; a creature missing here counts as 1.
STRENGTH: dict[str, dict[str, float]] = {
    "pnp": {"brawler": 52.0, "feral_ghoul": 2.2, "giant_radscorpion": 41.0, "glowing_one": 7.1,
            "mr_handy": 6.7, "protectron": 2.5, "radscorpion": 6.2, "raider": 1.0,
            "sentry_bot": 6.9, "super_mutant": 8.9, "super_mutant_brute": 11.0,
            "vault_dweller": 7.8, "wastelander": 26.0, "young_radscorpion": 9.1},
    "f2d20": {"brawler": 20.0, "feral_ghoul": 1.2, "giant_radscorpion": 96.0, "glowing_one": 4.9,
              "mr_handy": 2.5, "protectron": 0.55, "radscorpion": 6.5, "raider": 1.0,
              "sentry_bot": 9.7, "super_mutant": 2.4, "super_mutant_brute": 16.0,
              "vault_dweller": 2.6, "wastelander": 2.9, "young_radscorpion": 3.8},
}
# the rulesets the "mean" balance averages over: the tables fitted when training began (the
# ones above, taken before any derived table joins), so that a ruleset added later does not
# change the arenas existing training configs draw
MEAN_OVER: tuple[str, ...] = tuple(STRENGTH)
# Simple: not fitted yet; the mean of the two fitted tables, which keeps packet-vs-packet
# arenas within 20-80% for every family (tests/training/test_arenas.py)
STRENGTH["simple"] = {k: round(math.sqrt(STRENGTH["pnp"][k] * STRENGTH["f2d20"][k]), 2)
                      for k in STRENGTH["pnp"]}
# how far from even a fight may be drawn, as log(creatures / foes) strength: at 1.0 the
# predicted win rate ranges over 27-73%
SPREAD = 1.0
_TRIES = 24  # candidate line-ups drawn per arena; the one nearest the drawn odds is kept


class ArenaError(WastelandError, ValueError):
    """Arguments random_arena cannot build an arena from; the message is one line."""


def strength(creature: str, ruleset: str | None = None) -> float:
    """One combatant's strength in ``ruleset``, or the geometric mean over the rulesets."""
    if ruleset is not None:
        return STRENGTH.get(ruleset, {}).get(creature, 1.0)
    return math.exp(sum(math.log(STRENGTH[r].get(creature, 1.0)) for r in MEAN_OVER)
                    / len(MEAN_OVER))


def _counts(value: Any, what: str) -> tuple[int, int]:
    ok = (isinstance(value, (tuple, list)) and len(value) == 2
          and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value)
          and 1 <= value[0] <= value[1])
    if not ok:
        raise ArenaError(f"random_arena: {what} must be (low, high) whole numbers with "
                         f"1 <= low <= high, got {value!r}")
    return int(value[0]), int(value[1])


def _kinds(value: Any, what: str) -> list[str]:
    from wasteland.bestiary.loader import default_bestiary

    if isinstance(value, str) or not value:
        raise ArenaError(f"random_arena: {what} must be a non-empty list of creature ids, "
                         f"got {value!r}")
    known = default_bestiary().creatures
    for k in value:
        if k not in known:
            raise ArenaError(f"random_arena: {what}: unknown creature {k!r}; known: "
                             f"{', '.join(sorted(known))}")
    return list(value)


def random_arena(rng: np.random.Generator, creatures: Sequence[str], foes: Sequence[str], *,
                 creature_count: tuple[int, int] = (1, 3), foe_count: tuple[int, int] = (1, 3),
                 name: str = "arena", ruleset: str | None = None) -> Scenario:
    """A random arena: creatures drawn from ``creatures`` (side "Creatures") against foes
    drawn from ``foes`` (side "Foes"), ``creature_count`` and ``foe_count`` (inclusive
    ranges) of each (never more than MAX_COMBATANTS together), numbers picked so the
    sides are roughly even by ``ruleset``'s strength table (None: both rulesets' mean).
    Draws only from ``rng``, so the same generator
    state gives the same arena.

    Pass the ruleset the arena will be fought under: the rulesets rate combatants so
    differently that the mean table leaves PnP arenas leaning to the foes and 2d20 ones
    to the creatures (packet against packet, creatures win about 30% and 60%; with the
    ruleset's own table about 40-53% under both)."""
    if not isinstance(rng, np.random.Generator):
        raise ArenaError(f"random_arena: rng must be a numpy.random.Generator, got "
                         f"{type(rng).__name__}")
    c_lo, c_hi = _counts(creature_count, "creature_count")
    f_lo, f_hi = _counts(foe_count, "foe_count")
    if c_lo + f_lo > MAX_COMBATANTS:
        raise ArenaError(f"random_arena: at least {c_lo} creatures and {f_lo} foes is more "
                         f"than {MAX_COMBATANTS} combatants, the most a battle holds")
    if not isinstance(name, str) or not name:
        raise ArenaError(f"random_arena: name must be a non-empty string, got {name!r}")
    if ruleset is not None and ruleset not in STRENGTH:
        raise ArenaError(f"random_arena: unknown ruleset {ruleset!r}; available: "
                         f"{', '.join(STRENGTH)}")
    mine, theirs = _line_up(rng, _kinds(creatures, "creatures"), _kinds(foes, "foes"),
                            (c_lo, c_hi), (f_lo, f_hi), ruleset)
    return _arena(rng, mine, theirs, name)


def _line_up(rng: np.random.Generator, creatures: list[str], foes: list[str],
             c_range: tuple[int, int], f_range: tuple[int, int],
             ruleset: str | None) -> tuple[list[str], list[str]]:
    """The two sides' creature ids: of several random line-ups, the one whose strength
    ratio is nearest a ratio drawn around even, so most fights are close but not all."""
    cs = np.array([strength(k, ruleset) for k in creatures])
    fs = np.array([strength(k, ruleset) for k in foes])
    want = rng.uniform(-SPREAD, SPREAD)
    best: tuple[float, list[int], list[int]] | None = None
    for _ in range(_TRIES):
        na = int(rng.integers(c_range[0], min(c_range[1], MAX_COMBATANTS - f_range[0]) + 1))
        a = rng.integers(0, len(creatures), na)
        # wide ranges (one to eight a side) share the battle's combatants: the foes get
        # what the creatures left; within the cap the draws are the same as before
        nb = int(rng.integers(f_range[0], min(f_range[1], MAX_COMBATANTS - na) + 1))
        b = rng.integers(0, len(foes), nb)
        gap = abs(math.log(cs[a].sum() / fs[b].sum()) - want)
        if best is None or gap < best[0]:
            best = (gap, a.tolist(), b.tolist())
    assert best is not None
    return [creatures[i] for i in best[1]], [foes[i] for i in best[2]]


class _Map:
    """The arena while it is drawn: flat per-square lists, index ``y * w + x``."""

    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        n = w * h
        self.wall = [x in (0, w - 1) or y in (0, h - 1) for y in range(h) for x in range(w)]
        self.terrain = [_PLAIN] * n
        self.cover = [0] * n
        self.steps = _steps(w, h)

    def connected(self) -> bool:
        """Whether every open square can be walked to from every other (diagonal steps
        included, as the grid walks), so no combatant is shut in and no zone is cut off."""
        wall = self.wall
        start = next(i for i, v in enumerate(wall) if not v)
        seen = bytearray(len(wall))
        seen[start] = 1
        todo = [start]
        reached = 1
        while todo:
            i = todo.pop()
            for j in self.steps[i]:
                if not seen[j] and not wall[j]:
                    seen[j] = 1
                    reached += 1
                    todo.append(j)
        return reached == wall.count(False)

    def build(self, squares: list[int]) -> None:
        """Wall in ``squares``, unless that would shut part of the map off."""
        fresh = [i for i in squares if not self.wall[i]]
        for i in fresh:
            self.wall[i] = True
        if not self.connected():
            for i in fresh:
                self.wall[i] = False

    def rows(self) -> list[str]:
        w = self.w
        return ["".join("#" if self.wall[i] else _GLYPH[self.terrain[i]][self.cover[i]]
                        for i in range(y * w, y * w + w)) for y in range(self.h)]


@cache
def _steps(w: int, h: int) -> list[tuple[int, ...]]:
    """Each square's neighbours, diagonals included (a few hundred map sizes at most)."""
    return [tuple((y + dy) * w + x + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                  if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h)
            for y in range(h) for x in range(w)]


def _int(rng: np.random.Generator, lo: int, hi: int) -> int:
    """A whole number from lo to hi inclusive (lo when the range is empty)."""
    return lo if hi <= lo else int(rng.integers(lo, hi + 1))


def _structures(rng: np.random.Generator, m: _Map, x0: int, x1: int) -> None:
    """Rooms, wall runs and pillars between columns x0 and x1 (inclusive), the middle that
    the start strips leave; one theme per map so arenas differ in kind, not only in
    detail."""
    w, h = m.w, m.h
    mid_w = x1 - x0 + 1
    if mid_w < 1:
        return
    theme = int(rng.integers(4))  # 0 open field, 1 pillars, 2 ruined walls, 3 rooms
    area = mid_w * (h - 2)
    count = (_int(rng, 0, 2), _int(rng, 2, 3 + area // 20), _int(rng, 2, 3 + area // 25),
             _int(rng, 1, 2 + area // 60))[theme]
    for _ in range(count):
        kind = theme if theme != 0 else 1
        if kind == 3 and rng.random() < 0.3:
            kind = 2  # a few loose walls between the rooms
        if kind == 1:
            size = 2 if rng.random() < 0.35 and mid_w >= 2 else 1
            x, y = _int(rng, x0, x1 - size + 1), _int(rng, 1, h - 1 - size)
            m.build([(y + dy) * w + x + dx for dy in range(size) for dx in range(size)])
        elif kind == 2:
            if rng.random() < 0.5:  # across the line of fire: vertical
                n = _int(rng, 2, max(2, (h - 2) * 2 // 3))
                x, y = _int(rng, x0, x1), _int(rng, 1, h - 1 - n)
                m.build([(y + k) * w + x for k in range(n)])
            else:
                n = _int(rng, 2, max(2, min(mid_w, 8)))
                x, y = _int(rng, x0, x1 - n + 1), _int(rng, 1, h - 2)
                m.build([y * w + x + k for k in range(n)])
        elif mid_w >= 4 and h >= 8:
            _room(rng, m, x0, x1)


def _room(rng: np.random.Generator, m: _Map, x0: int, x1: int) -> None:
    """A walled room with one to three doorways, one or two squares wide."""
    w, h = m.w, m.h
    rw = _int(rng, 4, min(9, x1 - x0 + 1))
    rh = _int(rng, 4, min(7, h - 2))
    x, y = _int(rng, x0, x1 - rw + 1), _int(rng, 1, h - 1 - rh)
    outline = ([(y * w + x + k) for k in range(rw)] + [((y + rh - 1) * w + x + k) for k in range(rw)]
               + [((y + k) * w + x) for k in range(1, rh - 1)]
               + [((y + k) * w + x + rw - 1) for k in range(1, rh - 1)])
    doors: set[int] = set()
    for _ in range(_int(rng, 1, 3)):
        side = int(rng.integers(4))
        span = rw - 2 if side < 2 else rh - 2  # the corners stay wall
        k = _int(rng, 1, span)
        wide = 2 if rng.random() < 0.4 and k < span else 1
        for d in range(wide):
            if side == 0:
                doors.add(y * w + x + k + d)
            elif side == 1:
                doors.add((y + rh - 1) * w + x + k + d)
            elif side == 2:
                doors.add((y + k + d) * w + x)
            else:
                doors.add((y + k + d) * w + x + rw - 1)
    m.build([i for i in outline if i not in doors])


def _patch(rng: np.random.Generator, m: _Map, max_w: int, max_h: int) -> list[int]:
    """The open squares of a random rectangle inside the border."""
    w, h = m.w, m.h
    pw, ph = _int(rng, 2, min(max_w, w - 2)), _int(rng, 2, min(max_h, h - 2))
    x, y = _int(rng, 1, w - 1 - pw), _int(rng, 1, h - 1 - ph)
    return [i for i in ((y + dy) * w + x + dx for dy in range(ph) for dx in range(pw))
            if not m.wall[i]]


def _dressing(rng: np.random.Generator, m: _Map) -> None:
    """Cover, high ground and patches of darkness or smoke, anywhere inside the border."""
    w, h = m.w, m.h
    if rng.random() < 0.3:
        for _ in range(_int(rng, 1, 2)):
            for i in _patch(rng, m, 5, 4):
                m.terrain[i] = _HIGH
    if rng.random() < 0.4:
        for _ in range(_int(rng, 1, 3)):
            kind = _DARK if rng.random() < 0.6 else _SMOKE
            for i in _patch(rng, m, 5, 4):
                m.terrain[i] = kind
    inside = (w - 2) * (h - 2)
    for _ in range(_int(rng, inside // 40, inside // 14)):
        grade = int(rng.choice(3, p=(0.45, 0.35, 0.2))) + 1
        n = _int(rng, 1, 3)
        across = rng.random() < 0.5
        x, y = _int(rng, 1, w - 2), _int(rng, 1, h - 2)
        for k in range(n):
            cx, cy = (x, y + k) if across else (x + k, y)
            i = cy * w + cx
            if cx < w - 1 and cy < h - 1 and not m.wall[i]:
                m.cover[i] = grade
                if grade == 3:
                    m.terrain[i] = _PLAIN


def _starts(rng: np.random.Generator, m: _Map, cols: range, n: int) -> list[tuple[int, int]]:
    """``n`` plain-floor squares in columns ``cols``; squares there are cleared of cover
    and patches, in random order, while too few are plain."""
    w, h = m.w, m.h
    strip = [y * w + x for y in range(1, h - 1) for x in cols]
    plain = [i for i in strip if not m.cover[i] and m.terrain[i] == _PLAIN]
    if len(plain) < n:
        for j in rng.permutation(len(strip)):
            i = strip[int(j)]
            if i not in plain:
                m.cover[i], m.terrain[i] = 0, _PLAIN
                plain.append(i)
                if len(plain) >= n:
                    break
    picked = rng.choice(len(plain), n, replace=False)
    return [(plain[int(j)] % w, plain[int(j)] // w) for j in picked]


def _arena(rng: np.random.Generator, mine: list[str], theirs: list[str], name: str) -> Scenario:
    w = _int(rng, *WIDTH)
    h = _int(rng, *HEIGHT)
    assert w * h <= MAX_MAP_CELLS  # the ranges above are chosen within the caps
    # start strips wide enough for twice the larger side, without reaching the middle
    need = max(len(mine), len(theirs))
    strip = 2 if w < 14 else 3
    while strip * (h - 2) < 2 * need and strip < (w - 2) // 2 - 1:
        strip += 1
    m = _Map(w, h)
    _structures(rng, m, strip + 1, w - 2 - strip)
    _dressing(rng, m)
    left, right = range(1, strip + 1), range(w - 1 - strip, w - 1)
    creatures_left = bool(rng.random() < 0.5)
    at_c = _starts(rng, m, left if creatures_left else right, len(mine))
    at_f = _starts(rng, m, right if creatures_left else left, len(theirs))
    counts: dict[str, int] = {}

    def side(side_name: str, kinds: list[str], at: list[tuple[int, int]]) -> dict[str, Any]:
        placed = []
        for k, xy in zip(kinds, at):
            n = counts.get(k, 0)
            counts[k] = n + 1
            placed.append({"creature": k, "at": xy, "id": f"{k}_{n}"})
        return {"name": side_name, "combatants": placed}

    sides = [side(CREATURES_SIDE, mine, at_c), side(FOES_SIDE, theirs, at_f)]
    if rng.random() < 0.5:
        sides.reverse()
    lighting = LIGHTING[int(rng.choice(len(LIGHTING), p=LIGHTING_P))]
    return Scenario.model_validate({
        "id": name, "name": f"Arena {w}x{h}",
        "description": (f"A generated {w}x{h} arena ({lighting} light): "
                        f"{', '.join(mine)} against {', '.join(theirs)}."),
        "map": "\n".join(m.rows()) + "\n", "legend": LEGEND, "lighting": lighting,
        "max_rounds": MAX_ROUNDS, "sides": sides})


def packet_fight(scenario: Scenario, ruleset: str, seed: int) -> str | None:
    """The side name that wins ``scenario`` under ``ruleset`` with the packet agent on
    every side, or None for a draw."""
    from wasteland.agents.loop import by_side, checked, play
    from wasteland.agents.make import make_agent
    from wasteland.rules.rulesets import get_ruleset

    rs = get_ruleset(ruleset)
    b = rs.new_battle(scenario, seed, keep_log=False)
    b.quiet = True  # nobody reads the events
    agents = [make_agent("packet", seed + i) for i in range(len(scenario.sides))]
    play(rs, b, by_side(b, agents), apply=checked(rs))
    return None if b.winner is None else b.side_names[b.winner]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Packet-vs-packet results over random arenas, "
                                            "per creature family and ruleset.")
    p.add_argument("--fights", type=int, default=400, help="arenas per family and ruleset")
    p.add_argument("--first-seed", type=int, default=0)
    p.add_argument("--balance", choices=["mean", "ruleset"], default="mean",
                   help="balance numbers by both rulesets' mean strength or by the fought one")
    a = p.parse_args(argv)
    from .stats import wilson

    for family, kinds in FAMILIES.items():
        for ruleset in STRENGTH:
            tally = {"wins": 0, "losses": 0, "draws": 0}
            for i in range(a.first_seed, a.first_seed + a.fights):
                rng = np.random.default_rng(i)
                sc = random_arena(rng, kinds, FOES, ruleset=ruleset if a.balance == "ruleset" else None)
                won = packet_fight(sc, ruleset, i)
                tally["draws" if won is None else "wins" if won == CREATURES_SIDE else "losses"] += 1
            lo, hi = wilson(tally["wins"], a.fights)
            print(f"{family:13} {ruleset:6} creatures win {tally['wins'] / a.fights:.1%} "
                  f"[{lo:.1%}, {hi:.1%}]  {tally}", flush=True)


if __name__ == "__main__":
    main()
