"""The league envs of one process share their idle single-agent envs (training/league_env.py,
``_IDLE``): an episode is fixed by the seed its env is reset with, so playing it in an
env another league env used before changes nothing, and a map and opponent kind met
again is not built again."""

from __future__ import annotations

import numpy as np
import pytest

from wasteland.training import league_env as L
from wasteland.training.config import load_config


def cfg(*more: str):
    return load_config("radscorpion_pnp", ["steps=1000", "n_envs=1", *more])


@pytest.fixture
def built(monkeypatch):
    """The single-agent envs the league envs build from here on, counted, with none idle."""
    made: list[object] = []
    base = L.SingleAgentEnv

    class Counted(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(L, "SingleAgentEnv", Counted)
    monkeypatch.setattr(L, "_IDLE", {})
    monkeypatch.setattr(L, "_POOLS", {})
    return made


def _episode(env, seed: int, rng: np.random.Generator) -> list[bytes]:
    """One episode of random legal play from ``reset(seed)``: what the learner saw and got."""
    obs, info = env.reset(seed=seed)
    out = [obs.tobytes(), repr(sorted(info.items())).encode()]
    while True:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, term, trunc, _ = env.step(int(rng.choice(legal)))
        out.append(obs.tobytes() + np.float32(reward).tobytes())
        if term or trunc:
            return out


def test_a_map_and_kind_met_again_takes_the_idle_env(built):
    c = cfg("arenas.share=0")  # the config's built-in maps only
    first, second = L.LeagueEnv(c), L.LeagueEnv(c)
    rng = np.random.default_rng(1)
    _episode(first, 11, rng)
    _episode(first, 12, rng)  # the first episode's env is idle now
    idle = [e for envs in L._IDLE[c.hash()].values() for e in envs]
    assert len(idle) == 1 and idle[0] is not first.env
    # the second league env loads its own copy of each built-in map, and still takes it
    taken = idle[0]
    assert first.scenarios[0] is not second.scenarios[0]
    for seed in range(20):
        before = len(built)
        second.reset(seed=seed)
        if second.env is taken:  # its map and kind: nothing built for it
            assert len(built) == before
            break
    else:
        pytest.fail("the idle env was never taken")


@pytest.mark.parametrize("share", [0, 1], ids=["built-in maps", "arenas"])
def test_an_episode_is_the_same_in_an_idle_env_as_in_a_new_one(built, monkeypatch, share):
    # a full pool of two arenas that never renews: the same maps for every episode below
    monkeypatch.setattr(L, "ARENA_POOL", 2)
    monkeypatch.setattr(L, "ARENA_RENEW", 0.0)
    c = cfg(f"arenas.share={share}")
    warm = L.LeagueEnv(c)
    for seed in range(6):
        _episode(warm, seed, np.random.default_rng(seed))
    L._IDLE.clear()
    n0 = len(built)
    fresh = [_episode(L.LeagueEnv(c), seed, np.random.default_rng(seed)) for seed in (30, 31)]
    assert len(built) - n0 >= 2  # nothing idle: each built its own
    other = L.LeagueEnv(c)
    for seed in range(40, 60):  # another league env plays, and leaves its envs idle
        _episode(other, seed, np.random.default_rng(seed))
    n = len(built)
    again = [_episode(L.LeagueEnv(c), seed, np.random.default_rng(seed)) for seed in (30, 31)]
    assert again == fresh
    assert len(built) < n + 2  # at least one played in an env the other one left idle


def test_the_idle_envs_of_replaced_arenas_are_let_go(built, monkeypatch):
    monkeypatch.setattr(L, "ARENA_POOL", 2)
    monkeypatch.setattr(L, "ARENA_RENEW", 1.0)  # a new arena at every draw
    c = cfg("arenas.share=1")
    env = L.LeagueEnv(c)
    for seed in range(30):
        _episode(env, seed, np.random.default_rng(seed))
    idle = L._IDLE[c.hash()]
    assert len(built) >= 25  # new maps: new envs
    # pruned past twice the pool: what is left is the live arenas' (and the last few)
    assert len(idle) <= 2 * L.ARENA_POOL + 2
