"""Benchmark scripts that take positional arguments answer bad ones in one line."""

from __future__ import annotations

import json

import pytest

from .kit import bench_module


def test_search_table_writes_a_row_per_seat_and_refuses_other_files(tmp_path, capsys) -> None:
    mod = bench_module("search_table")
    run = {"agent": "deadly", "rows": [{
        "seat": "radscorpions_duel_pnp", "fights": 200, "packet": 0.5, "agent": 0.6,
        "diff": 0.1, "lo": 0.02, "hi": 0.18, "mean_s": 0.03, "p99_s": 0.1, "bar": True}]}
    good = tmp_path / "run.json"
    good.write_text(json.dumps(run))
    assert mod.main([str(good)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == ("| radscorpions_duel_pnp | deadly | 200 | 50% | 60% | +10 [+2, +18] | "
                       "0.030 | 0.100 | - | met |")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rows": [{"fights": 1}]}))
    for path in (bad, tmp_path / "missing.json"):
        assert mod.main([str(path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("search_table: not a benchmarks/search.py")


def test_creature_seat_refuses_a_step_count_out_of_range(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        bench_module("creature_seat").main(["duel", "pnp", "0"])
    assert e.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(
        "error: steps: 1 to 100,000,000, got 0")
