"""The round robin: its schedule, its games (the simulation's fights), the same results
for any number of processes, and the cache that fights only what it lacks."""

from __future__ import annotations

from collections import Counter

import pytest

from wasteland.arena.cache import ResultCache, default_path
from wasteland.arena.fingerprint import agent_hash, policy_files
from wasteland.arena.games import GameResult
from wasteland.arena.tournament import schedule
from wasteland.rules.errors import WastelandError
from wasteland.rules.rulesets import get_ruleset
from wasteland.sim.fight import fight
from wasteland.sim.spec import SimSpec

from .kit import played, small


def test_every_pair_plays_both_sides_on_the_same_seeds():
    f = small("random,scripted,packet", n=2, seed=7, rulesets="pnp,f2d20",
              scenarios="duel,vault_corridor")
    plan = schedule(f)
    # 3 pairs x 2 side orders x 2 scenarios x 2 rulesets x 2 seeds
    assert len(plan) == 3 * 2 * 2 * 2 * 2
    assert len(set(plan)) == len(plan)
    seeds_of = {}
    for sides, sc, r, s in plan:
        seeds_of.setdefault((sides, sc, r), set()).add(s)
    assert set(seeds_of) == {(sides, sc, r) for sides in [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2),
                                                           (2, 1)]
                             for sc in (0, 1) for r in ("pnp", "f2d20")}
    assert all(s == {7, 8} for s in seeds_of.values())


def test_a_game_is_the_fight_the_simulation_fights():
    f = small("random,packet", n=4, seed=3)
    t = played(f)
    rs = get_ruleset("pnp")
    assert len(t.games) == 8 and t.fought == 8
    for g in t.games:
        kinds = tuple(f.entrants[i].kind for i in g.sides)
        rec = fight(rs, SimSpec("pnp", f.scenarios[g.scenario], kinds, 0), g.seed)
        assert (g.winner, g.rounds) == (rec.winner, rec.rounds)


def test_one_and_two_processes_give_the_same_games(tmp_path):
    f = small("random,scripted,packet", n=4, seed=11)
    one = played(f, jobs=1)
    two = played(f, jobs=2)
    assert two.games == one.games
    # not all one outcome: the comparison has something to tell apart
    assert len(Counter(g.winner for g in one.games)) > 1


def test_the_cache_fights_only_the_new_agents_games(tmp_path):
    cache = tmp_path / "c.sqlite"
    first = played(small("random,packet", n=3), cache)
    assert first.fought == 6
    again = played(small("random,packet", n=3), cache)
    assert again.fought == 0 and again.games == first.games
    # scripted is new: its pairings with random and packet, both side orders, 3 seeds
    more = played(small("random,packet,scripted", n=3), cache)
    assert more.fought == 2 * 2 * 3
    assert [g for g in more.games if 2 not in g.sides] == first.games
    # one more seed: one game per pairing and side order
    assert played(small("random,packet,scripted", n=4), cache).fought == 6


def test_the_cache_holds_results_by_key_and_draws(tmp_path):
    c = ResultCache(tmp_path / "x" / "c.sqlite", make_folder=True)
    c.put([("a", GameResult(None, 20)), ("b", GameResult(1, 3))])
    c.close()
    c = ResultCache(tmp_path / "x" / "c.sqlite")
    assert c.get(["a", "b", "zz"]) == {"a": GameResult(None, 20), "b": GameResult(1, 3)}
    c.close()


def test_a_file_that_is_not_a_cache_is_one_line(tmp_path):
    bad = tmp_path / "c.sqlite"
    bad.write_text("not a database, just text " * 100)
    with pytest.raises(WastelandError, match="not a usable arena cache"):
        ResultCache(bad)
    with pytest.raises(WastelandError, match="a directory"):
        ResultCache(tmp_path)


def test_a_foreign_games_table_or_a_missing_folder_is_one_line(tmp_path):
    """Issue 23: SQLite with another games table raised sqlite3.OperationalError; a
    --cache in a folder that does not exist made the folder silently."""
    import sqlite3

    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE games (id INTEGER, name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(WastelandError, match=r"columns \(id INTEGER, name TEXT\), not an arena"):
        ResultCache(other)
    with pytest.raises(WastelandError, match="no folder"):
        ResultCache(tmp_path / "missing" / "c.sqlite")
    assert not (tmp_path / "missing").exists()
    # a row no run wrote (text where a number belongs) is not a result
    c = ResultCache(tmp_path / "c.sqlite")
    c.db.execute("INSERT INTO games VALUES ('k', 'x', 3), ('j', 1, 4)")
    assert c.get(["k", "j"]) == {"j": GameResult(1, 4)}
    c.close()


def test_the_default_cache_is_in_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_path() == tmp_path / "wasteland" / "arena.sqlite"


def test_a_policy_is_known_by_its_weights(tmp_path):
    npz, js = policy_files("super_mutant_pnp")
    assert npz.suffix == ".npz" and js.suffix == ".json"
    for f in (npz, js):
        (tmp_path / f.name).write_bytes(f.read_bytes())
    copy = "policy:" + str(tmp_path / npz.name)
    # the same weights under another path: the same games
    assert agent_hash(copy) == agent_hash("policy:super_mutant_pnp")
    weights = bytearray((tmp_path / npz.name).read_bytes())
    weights[-1] ^= 1
    (tmp_path / npz.name).write_bytes(bytes(weights))
    assert agent_hash(copy) != agent_hash("policy:super_mutant_pnp")
    # a family name stands for every ruleset's policy
    assert agent_hash("policy:super_mutant") != agent_hash("random")
    assert len({agent_hash(k) for k in ("random", "scripted", "packet")}) == 3


def test_another_scenario_or_engine_is_another_key():
    from wasteland.arena.fingerprint import game_key

    base = game_key("e", ("a", "b"), "s", "pnp", 1)
    others = [game_key("E", ("a", "b"), "s", "pnp", 1), game_key("e", ("b", "a"), "s", "pnp", 1),
              game_key("e", ("a", "b"), "t", "pnp", 1), game_key("e", ("a", "b"), "s", "f2d20", 1),
              game_key("e", ("a", "b"), "s", "pnp", 2)]
    assert base not in others and len(set(others)) == len(others)


def test_a_policy_plays_its_creatures_and_is_cached_by_its_weights(tmp_path):
    from tests.sim.kit import closet

    from .kit import played

    scenario = tmp_path / "closet.yaml"
    scenario.write_text(closet("super_mutant", "vault_dweller"))
    cache = tmp_path / "c.sqlite"
    f = small("packet,policy:super_mutant_pnp", n=2, rulesets="pnp", scenarios=str(scenario))
    first = played(f, cache)
    assert first.fought == 4 and len(first.games) == 4
    npz, js = policy_files("super_mutant_pnp")
    for p in (npz, js):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    moved = small(f"packet,policy:{tmp_path / npz.name}", n=2, rulesets="pnp",
                  scenarios=str(scenario))
    again = played(moved, cache)
    assert again.fought == 0 and again.games == first.games


def test_an_agent_made_to_check_its_name_is_closed(monkeypatch):
    import wasteland.agents.make as make_module
    from wasteland.arena.field import entrants

    closed = []
    real = make_module.make_agent

    class Holder:
        def __init__(self, name):
            self.name = name

        def close(self):
            closed.append(self.name)

    def make(name, seed=0):
        return Holder(name) if name.startswith("cmd:") else real(name, seed)

    monkeypatch.setattr(make_module, "make_agent", make)
    got = entrants("packet,cmd:./my_agent")
    assert [e.kind for e in got] == ["packet", "cmd:./my_agent"]
    assert closed == ["cmd:./my_agent"]
