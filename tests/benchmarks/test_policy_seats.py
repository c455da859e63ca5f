"""benchmarks/policy_seats.py's --first-seed: a checkpoint is picked on seeds apart from
the acceptance seeds 0..999, and benchmark_table refuses such a sweep (its rows and the
packet's must be seeds 0..N-1)."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from wasteland.agents.policy import PolicyAgent, load_policy
from wasteland.training.seats import seat

from .kit import bench_module as _module


def test_a_sweep_from_another_first_seed_plays_those_seeds() -> None:
    ps = _module("policy_seats")
    pol = load_policy("radscorpion_simple")
    with ProcessPoolExecutor(1) as pool:
        res = ps.sweep("radscorpion_simple", 3, 1, pool, "suite", first=500)
    assert res["first_seed"] == 500
    (sc, side), *_ = ps.suite_seats(pol.kinds, pol.ruleset)["seat"]
    row = res["seat"][0]
    assert row["scenario"] == sc.id
    for who, maker in (("policy", lambda k: PolicyAgent(pol, k)), ("packet", "packet")):
        want = seat(maker, sc, pol.ruleset, sorted(pol.kinds), seat_side=side, fights=3,
                    first_seed=500)
        got = row[who]
        assert (got["wins"], got["losses"], got["draws"]) == (want.wins, want.losses,
                                                              want.draws)


def test_the_table_refuses_a_sweep_not_from_seed_0(tmp_path: Path, monkeypatch) -> None:
    bt = _module("benchmark_table")
    sweep = tmp_path / "sweep.txt"
    sweep.write_text(json.dumps({"policy": "radscorpion_simple", "ruleset": "simple",
                                 "fights": 3, "first_seed": 500, "seat": [], "unseen": [],
                                 "mirror": []}) + "\n")
    policy = Path(__file__).resolve().parents[2] / "wasteland/policies/radscorpion_simple.json"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match="played from seed 500"):
        bt.main(["import", str(sweep), "--policy", str(policy),
                 "--results", str(tmp_path / "r.json")])
    assert not (tmp_path / "r.json").exists()


def test_five_points_ahead_counts_in_whole_fights() -> None:
    """594 against 544 wins of 1,000 is 5 points exactly (the seat test's bar), though
    0.594 - 0.544 is a hair under 0.05 in floating point."""
    assert 0.594 - 0.544 < 0.05  # why the test counts fights, not rates
    ps = _module("policy_seats")
    assert ps.five_points_ahead(594, 1000, 544, 1000)
    assert not ps.five_points_ahead(593, 1000, 544, 1000)
    assert ps.five_points_ahead(11, 20, 10, 20)


@pytest.mark.parametrize("args", [["--first-seed", "-1"], ["--first-seed", str(2**31)],
                                  ["-n", "0"], ["-n", "10000000"], ["--jobs", "0"]])
def test_out_of_range_numbers_are_one_line_errors(args: list[str], capsys) -> None:
    ps = _module("policy_seats")
    with pytest.raises(SystemExit) as e:
        ps.main(["radscorpion_simple", *args])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert ": error: --" in err[-1] and "Traceback" not in "".join(err)


@pytest.mark.parametrize("name, fragment", [
    ("no_such_policy", "unknown policy 'no_such_policy'; shipped policies:"),
    ("gone/radscorpion_f2d20.json", "no manifest gone/radscorpion_f2d20.json"),
])
def test_a_policy_that_cannot_be_read_is_one_line_before_any_fight(name: str, fragment: str,
                                                                     tmp_path, monkeypatch,
                                                                     capsys) -> None:
    monkeypatch.chdir(tmp_path)
    ps = _module("policy_seats")
    with pytest.raises(SystemExit) as e:
        ps.main(["radscorpion_simple", name, "-n", "1", "--jobs", "1"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert fragment in err[-1] and "Traceback" not in "".join(err), err
