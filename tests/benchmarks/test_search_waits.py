"""benchmarks/search.py's wait a GM sees (issue 40, item 7): the seat side's thinking
between two decisions of the other side, summed over the stretch."""

from __future__ import annotations

import pytest

from .kit import bench_module


def test_a_wait_sums_the_stretch_between_two_party_decisions() -> None:
    w = bench_module("search").Waits()
    w.think(0.5)
    w.think(0.25)
    w.party()
    w.party()  # a party decision with nobody thinking before it is no wait
    w.think(2.0)
    assert w.all() == [0.75, 2.0]


@pytest.mark.parametrize("play", ["play", "play_suite"])
def test_every_decision_of_the_agent_falls_in_one_wait(play) -> None:
    search = bench_module("search")
    args = (("duel", "pnp", 1, "search:rollouts=4,candidates=2", 3) if play == "play" else
            ("radscorpions_duel_pnp", "search:rollouts=4,candidates=2", 3))
    won, lost, times, _turn_max, waits, spent, thought = getattr(search, play)(args)
    assert times and waits and spent > 0
    assert sum(waits) == pytest.approx(sum(times)) == pytest.approx(thought)
    assert 1 < len(waits) < len(times)  # a turn of several decisions is one wait


def test_search_alternated_times_each_agent_on_the_same_seeds(capsys) -> None:
    alt = bench_module("search_alternated")
    assert alt.main(["radscorpions_duel_pnp", "--agents",
                     "search:rollouts=4,candidates=2,search:rollouts=4,candidates=2,turn=1",
                     "-n", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    fights = [line for line in out if line.startswith("fight ")]
    assert [line.split(":")[0] for line in fights] == [
        "fight 0 search", "fight 0 search", "fight 1 search", "fight 1 search"]
    summary = [line for line in out if "s a decision" in line]
    assert [line.split(": won")[0] for line in summary] == [
        "search:rollouts=4,candidates=2", "search:rollouts=4,candidates=2,turn=1"]


def test_search_alternated_pairs_the_wins_on_the_seeds(capsys) -> None:
    alt = bench_module("search_alternated")
    # the same agent twice: every fight the same, so the paired difference is exactly 0
    assert alt.main(["radscorpions_duel_pnp", "--agents", "packet,packet", "-n", "3"]) == 0
    out = capsys.readouterr().out
    assert "packet less packet: +0.0% [+0.0%, +0.0%] over 3 fights" in out


@pytest.mark.parametrize("argv, fragment", [
    (["nosuchseat", "--agents", "packet,packet"], "unknown seat 'nosuchseat'"),
    (["radscorpions_duel_pnp", "--agents", "packet,bogus"], "--agents bogus: unknown agent"),
    (["radscorpions_duel_pnp", "--agents", "packet"], "two or more agents"),
])
def test_search_alternated_refuses_bad_input_in_one_line(capsys, argv, fragment) -> None:
    with pytest.raises(SystemExit) as err:
        bench_module("search_alternated").main(argv)
    assert err.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert fragment in lines[-1] and "Traceback" not in "".join(lines)


@pytest.mark.parametrize("seed", [2, 3])
def test_a_mirror_fight_takes_its_side_from_its_seed(seed, monkeypatch) -> None:
    """search.py plays a mirror seat as benchmark_table's `run` and training/seats.py's
    `mirror` do: side 0 on even seeds, 1 on odd ones, whatever --first-seed is."""
    from wasteland.training import seats

    search = bench_module("search")
    sides: list[int] = []

    def fake_fight(scenario, ruleset, sd, side, kinds, me, opp, **kw):
        sides.append(side)
        return side

    monkeypatch.setattr(seats, "fight", fake_fight)
    won = search.play_suite(("super_mutants_mirror_pnp", "packet", seed))[0]
    assert sides == [seed % 2] and won == 1
