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
    assert err[-1].endswith("--values: logistic, learned, learned@FOLDER or full, got 'oracle'")


def test_full_playouts_on_the_same_dice_agree_with_the_truth_every_time(monkeypatch,
                                                                          capsys) -> None:
    mod = bench_module("search_regret")
    monkeypatch.setattr(mod, "OTHER_DICE", 0)  # the truth's own seeds: the same numbers
    assert mod.main(["--seat", SEAT, "--states", "3", "--rollouts", "3",
                     "--values", "full", "--agents", ""]) == 0
    out = capsys.readouterr().out
    got = re.search(r"full playouts on other dice pick the same best in (\d+)/3 "
                    r"\((\d+)/(\d+) of those \*\)", out)
    assert got is not None, out
    assert got.group(1) == "3" and got.group(2) == got.group(3)


def test_a_value_file_from_a_folder_judges_the_cut(tmp_path, capsys) -> None:
    import shutil
    from importlib import resources

    shipped = resources.files("wasteland.values")
    for name in ("f2d20.npz", "f2d20.json"):
        shutil.copyfile(str(shipped / name), tmp_path / name)
    mod = bench_module("search_regret")
    assert mod.main(["--seat", SEAT, "--states", "1", "--rollouts", "2",
                     "--values", f"learned@{tmp_path}", "--agents", ""]) == 0
    out = capsys.readouterr().out
    assert f"learned@{tmp_path} value, picks the same best in" in out


def test_a_folder_without_a_value_file_is_refused_in_one_line(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        bench_module("search_regret").main(["--seat", SEAT, "--values",
                                            f"learned@{tmp_path}"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "--values: learned value f2d20: no value file" in err[-1]
