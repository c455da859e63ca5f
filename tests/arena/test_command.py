"""`wasteland evaluate`: its JSON and tables, its PNGs, its cache, and a one-line error
for each mistake."""

from __future__ import annotations

import json

import pytest

from tests.sim.kit import cli

BASE = ("evaluate", "--scenarios", "duel", "--rulesets", "pnp", "--jobs", "1")


def test_json_report_and_the_cache_on_a_second_run(capsys, monkeypatch, tmp_path):
    args = (*BASE, "--agents", "random,packet", "-n", "3", "--seed", "4", "--json",
            "--cache", str(tmp_path / "c.sqlite"))
    code, out, err = cli(capsys, monkeypatch, *args)
    assert code == 0, err
    rep = json.loads(out)
    assert rep["agents"] == ["random", "packet"] and rep["seeds"] == [4, 6]
    assert rep["games"] == 6 and rep["fought"] == 6 and rep["cached"] == 0
    assert rep["pairs"][0]["games"] == 6
    assert rep["anchor"] == {"agent": "packet", "mu": 25.0}
    assert rep["cache"] == str(tmp_path / "c.sqlite")
    code, out, err = cli(capsys, monkeypatch, *args)
    again = json.loads(out)
    assert again["fought"] == 0 and again["cached"] == 6
    for r in (rep, again):
        for k in ("seconds", "fought", "cached"):
            r.pop(k)
    assert again == rep


def test_tables_and_plots(capsys, monkeypatch, tmp_path):
    plots = tmp_path / "plots"
    code, out, err = cli(capsys, monkeypatch, *BASE, "--agents", "random,scripted,packet", "-n", "2",
                         "--no-cache", "--plot", str(plots))
    assert code == 0, err
    assert "Ratings (openskill; packet anchored at 25)" in out
    assert "Head to head" in out and "duel" in out
    for name in ("win_matrix.png", "ratings.png", "by_scenario.png"):
        data = (plots / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
        assert f"plot: {plots / name}" in err


@pytest.mark.parametrize("args, says", [
    (("--agents", "random,nobody"), "unknown agent 'nobody'"),
    (("--agents", "random"), "--agents needs at least two agents"),
    (("--agents", "random,random"), "--agents names 'random' twice"),
    (("--agents", "random,packet", "--scenarios", "moon"), "unknown scenario 'moon'"),
    (("--agents", "random,packet", "--rulesets", "gurps"), "unknown ruleset 'gurps'"),
    (("--agents", "random,packet", "-n", "0"), "-n must be 1 to"),
    (("--agents", "random,packet", "--jobs", "0"), "--jobs must be at least 1"),
    (("--agents", "random,packet", "--backend", "spark"), "--backend must be one of"),
    (("--agents", "random,packet", "--cache", "c.sqlite", "--no-cache"), "--no-cache and --cache"),
])
def test_mistakes_are_one_line(capsys, monkeypatch, tmp_path, args, says):
    code, out, err = cli(capsys, monkeypatch, "evaluate", "-n", "1", "--no-cache", *args)
    assert code == 2
    assert err.startswith("error: ") and says in err
    assert err.count("\n") == 1 and out == ""


def test_a_plot_path_that_is_a_file_is_refused_before_any_game(capsys, monkeypatch, tmp_path):
    (tmp_path / "f").write_text("x")
    code, out, err = cli(capsys, monkeypatch, *BASE, "--agents", "random,packet",
                         "--plot", str(tmp_path / "f"), "--no-cache")
    assert code == 2 and "--plot" in err and "not a folder" in err


def test_a_plot_path_named_like_a_picture_is_refused_before_any_game(capsys, monkeypatch,
                                                                      tmp_path):
    # issue 26: --plot ev.png made a folder named ev.png
    code, out, err = cli(capsys, monkeypatch, *BASE, "--agents", "random,packet",
                         "--plot", str(tmp_path / "ev.png"), "--no-cache")
    assert code == 2 and err.count("\n") == 1 and "give a folder" in err
    assert f"(e.g. {tmp_path / 'ev'}/)" in err
    assert not (tmp_path / "ev.png").exists()
