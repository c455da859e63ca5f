"""Seed order and the number of processes: the same fights, the same numbers."""

from __future__ import annotations

import pytest

from wasteland.sim.runner import MAX_CHUNK, chunks, run_fights
from wasteland.sim.simulate import CHECK_EVERY, simulate

from .kit import spec


def test_chunks_cover_the_seeds_once_in_order():
    for seed, n, jobs in ((0, 24, 4), (10, 7, 2), (5, 1000, 2), (0, 1, 8)):
        tasks = chunks(seed, n, jobs)
        seeds = [s for start, count in tasks for s in range(start, start + count)]
        assert seeds == list(range(seed, seed + n))
        assert all(1 <= count <= MAX_CHUNK for _, count in tasks)


@pytest.mark.parametrize(("scenario", "ruleset", "n"), [("ruined_street", "pnp", 24),
                                                        ("desert_wash", "f2d20", 12)])
def test_one_two_and_four_processes_give_the_same_fights_and_numbers(scenario, ruleset, n):
    s = spec(scenario, ruleset)
    one = list(run_fights(s, 3, n, jobs=1))
    assert [r.seed for r in one] == list(range(3, 3 + n))
    reports = []
    for jobs in (1, 2, 4):
        if jobs > 1:
            assert list(run_fights(s, 3, n, jobs=jobs)) == one
        reports.append(simulate(s, n, 3, jobs).report())
    assert reports[0] == reports[1] == reports[2]
    assert reports[0]["fights"] == n and reports[0]["seeds"] == [3, 3 + n - 1]


def test_spawned_workers_fight_the_same_fights(monkeypatch):
    """Where fork is missing (macOS, Windows) the workers are spawned and get the spec
    pickled; the fights are the same."""
    import multiprocessing as mp

    import wasteland.sim.runner as runner

    s = spec("duel", "f2d20")
    here = list(run_fights(s, 0, 6, jobs=1))
    monkeypatch.setattr(runner, "_context", lambda: mp.get_context("spawn"))
    assert list(run_fights(s, 0, 6, jobs=2)) == here


@pytest.mark.parametrize(("ruleset", "expected"), [
    # issue 41: super mutants no longer give first aid (the bestiary's first_aid)
    ("pnp", ((20, 0, 0), 3, 0, 0, "easy", (10.1, 8.5, 32.8, 25.1, 2.25))),
    ("f2d20", ((14, 5, 1), 13, 13, 13, "deadly", (11.8, 10.0, 39.65, 43.35, 3.05))),
])
def test_twenty_fights_of_ruined_street_as_recorded(ruleset, expected):
    """Twenty packet fights, seeds 0..19: a regression record (a change here is a change
    in the engine or the packet, or in how fights are counted)."""
    rep = simulate(spec("ruined_street", ruleset), 20, 0, 1).report()
    counts = (tuple(rep["outcome"][k]["count"] for k in ("win", "loss", "draw")),
              rep["anyone_down"]["count"], rep["anyone_dies"]["count"], rep["lethal"]["count"],
              rep["verdict"])
    means = (rep["rounds"]["mean"], rep["rounds"]["median"], rep["party_hp_lost"]["mean"],
             rep["ammo_used_mean"], rep["stimpaks_used_mean"])
    assert counts == expected[:5]
    assert means == pytest.approx(expected[5])


def test_until_precision_stops_early_on_a_lopsided_fight():
    """The party against one young radscorpion wins every fight: 0 losses in n fights give
    a Wilson interval 1 - n / (n + z^2) wide, under 0.05 first at n = 73, so the run stops
    at the next check, fight 100 (for any number of processes)."""
    s = spec("ruined_street")
    from wasteland.sim.encounter import encounter

    sc, _ = encounter("ruined_street", "0", None, "young_radscorpion")
    s = type(s)("pnp", sc, s.agents, 0)
    for jobs in (1, 2):
        sim = simulate(s, 1000, 0, jobs, until_precision=0.05)
        assert sim.tally.n == 2 * CHECK_EVERY
        assert sim.precision_reached and sim.width <= 0.05
        assert sim.tally.outcomes["win"] == 100
    capped = simulate(s, 60, 0, 1, until_precision=0.01)
    assert capped.tally.n == 60 and capped.precision_reached is False
