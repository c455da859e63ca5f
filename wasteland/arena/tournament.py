"""The round robin: every pair of agents, in both side orders, on every scenario and
ruleset, on the same seeds; the games the cache lacks are fought, in the runner's order,
so the results do not depend on the processes or the backend that fought them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from wasteland.sim.runner import Backend, run

from .cache import ResultCache
from .field import Field
from .fingerprint import engine_hash, game_key
from .games import ArenaSpec, Game, GameResult, play_game


@dataclass(frozen=True, slots=True)
class Played:
    """One game's result as the tables read it: entrant indices in side order."""

    sides: tuple[int, int]
    scenario: int
    ruleset: str
    seed: int
    winner: int | None
    rounds: int


@dataclass
class Tournament:
    field: Field
    games: list[Played]  # in schedule order (the ratings read them in this order)
    fought: int  # games fought in this run; the rest came from the cache
    interrupted: bool = False


def schedule(f: Field) -> list[tuple[tuple[int, int], int, str, int]]:
    """(entrants in side order, scenario, ruleset, seed) of every game: seed outermost, so
    that the ratings, which read games in this order, see every pairing early and late."""
    pairs = list(combinations(range(len(f.entrants)), 2))
    return [(sides, sc, r, f.seed + i)
            for i in range(f.n) for r in f.rulesets for sc in range(len(f.scenarios))
            if f.fights(sc, r) for a, b in pairs for sides in ((a, b), (b, a))]


def play(f: Field, cache: ResultCache, jobs: int = 1, backend: Backend | None = None,
         on_game: Callable[[int, int], None] | None = None) -> Tournament:
    """Every game of ``f``'s schedule, from ``cache`` or fought (and then cached).
    ``on_game(done, to_fight)`` follows the fighting. A Ctrl-C keeps what was fought:
    it is cached, and the tournament comes back marked interrupted."""
    engine = engine_hash()
    plan = schedule(f)
    keys = [game_key(engine, (f.entrants[a].hash, f.entrants[b].hash), f.scenario_hashes[sc], r, s)
            for (a, b), sc, r, s in plan]
    known = cache.get(keys)
    todo: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        if k not in known:
            todo.setdefault(plan[i][2], []).append(i)
    total = sum(len(v) for v in todo.values())
    done = 0
    interrupted = False
    try:
        for ruleset, idx in todo.items():
            spec = ArenaSpec(ruleset, f.scenarios, tuple(
                Game(plan[i][1], (f.entrants[plan[i][0][0]].kind, f.entrants[plan[i][0][1]].kind),
                     plan[i][3]) for i in idx))
            fresh: list[tuple[str, GameResult]] = []
            try:
                for i, res in zip(idx, run(spec, play_game, 0, len(idx), jobs, backend)):
                    known[keys[i]] = res
                    fresh.append((keys[i], res))
                    done += 1
                    if on_game is not None:
                        on_game(done, total)
                    if len(fresh) >= 200:
                        cache.put(fresh)
                        fresh = []
            finally:
                cache.put(fresh)
    except KeyboardInterrupt:
        interrupted = True
    games = [Played(sides, sc, r, s, known[k].winner, known[k].rounds)
             for (sides, sc, r, s), k in zip(plan, keys) if k in known]
    return Tournament(f, games, done, interrupted)
