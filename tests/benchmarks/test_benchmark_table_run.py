"""benchmarks/benchmark_table.py run: --seats picks seats, and each seat's row is saved as
soon as it is played, merged with the rows already in the results file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .kit import bench_module


def _run(bt, results: Path, *extra: str) -> None:
    bt.main(["run", "radscorpions", "simple", "--agents", "random", "-n", "2", "--jobs", "1",
             "--results", str(results), *extra])


def test_seats_are_played_one_by_one_and_merged(tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    seats = [s[1].id for s in bt.seats_of("radscorpions", "simple")]
    first, second = seats[0], seats[1]
    results = tmp_path / "r.json"
    _run(bt, results, "--seats", first)
    rows = json.loads(results.read_text())["rows"]
    assert [(r["agent"], r["seat"], r["fights"]) for r in rows] == [("random", first, 2)]
    _run(bt, results, "--seats", second)
    rows = json.loads(results.read_text())["rows"]
    assert sorted(r["seat"] for r in rows) == sorted([first, second])
    # the same seat again replaces its row, it does not add a second one
    _run(bt, results, "--seats", f"{first},{second}")
    rows = json.loads(results.read_text())["rows"]
    assert sorted(r["seat"] for r in rows) == sorted([first, second])


@pytest.mark.parametrize("seats", ["no_such_seat", ",", "radscorpions_duel_simple,nope"])
def test_an_unknown_seat_is_a_one_line_error(tmp_path: Path, seats: str) -> None:
    bt = bench_module("benchmark_table")
    results = tmp_path / "r.json"
    with pytest.raises(SystemExit) as e:
        _run(bt, results, "--seats", seats)
    msg = str(e.value)
    assert "--seats: unknown seat" in msg and "radscorpions_duel_simple" in msg
    assert "\n" not in msg
    assert not results.exists()
