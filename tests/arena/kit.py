"""Helpers of the arena tests: a small tournament on the duel, played in this process."""

from __future__ import annotations

from pathlib import Path

from wasteland.arena.cache import ResultCache
from wasteland.arena.field import Field, make_field
from wasteland.arena.tournament import Tournament, play


def small(agents: str = "random,packet", n: int = 3, seed: int = 0, rulesets: str = "pnp",
          scenarios: str = "duel") -> Field:
    return make_field(agents, scenarios, rulesets, n, seed)


def played(field: Field, cache: Path | None = None, jobs: int = 1, backend=None) -> Tournament:
    store = ResultCache(cache)
    try:
        return play(field, store, jobs, backend)
    finally:
        store.close()
