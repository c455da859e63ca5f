"""benchmarks/search_regret.py, cut down: decisions of a seat scored by full playouts and by
the cut with each value, and an agent's choices scored against them (issue 40's measure of
whether the cut picks the full playouts' best)."""

from __future__ import annotations

import re

import pytest

from .kit import bench_module

SEAT = "radscorpions_duel_f2d20"


def test_both_values_judge_the_cut_and_the_packet_gains_nothing_over_itself(capsys) -> None:
    mod = bench_module("search_regret")
    assert mod.main(["--seat", SEAT, "--states", "2", "--rollouts", "4",
                     "--values", "logistic,learned", "--agents", "packet"]) == 0
    out = capsys.readouterr().out
    assert f"{SEAT}: 2 decisions, 4 continuations a candidate" in out
    for value in ("logistic", "learned"):
        got = re.search(rf"the cut at 2 rounds, {value} value, picks the same best in "
                        rf"(\d+)/2 \((\d+)/(\d+) of those \*\)", out)
        assert got is not None, out
        assert int(got.group(1)) <= 2 and int(got.group(2)) <= int(got.group(3))
    # the packet of a decision's seed chose the candidate every other is measured against
    assert "packet: mean gain a decision +0.0000, switched 0/2, worse beyond 2 se 0" in out
    assert len(re.findall(r"\| cut \(learned\) ", out)) == 2


def test_an_unknown_value_is_refused_in_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        bench_module("search_regret").main(["--seat", SEAT, "--values", "oracle"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith("--values: logistic and/or learned, got 'oracle'")
