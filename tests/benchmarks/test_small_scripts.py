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


def test_env_alternated_summarises_medians_and_ratios_and_refuses_a_non_checkout(
        tmp_path, capsys) -> None:
    mod = bench_module("env_alternated")
    lines = mod.summary({"base": [100.0, 120.0, 110.0], "main": [110.0, 126.0, 99.0]})
    assert lines[0] == "base: median 110  min 100  max 120 turns/s (3 runs)"
    assert lines[1] == "main: median 110  min 99  max 126 turns/s (3 runs)"
    # round by round: 1.10, 1.05, 0.90
    assert lines[2] == "main / base: median 1.050  range 0.900-1.100"
    with pytest.raises(SystemExit) as e:
        mod.main([str(tmp_path), str(tmp_path)])
    assert e.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(
        "not a Wasteland checkout (no benchmarks/env_throughput.py)")


def test_env_counts_reads_cachegrinds_summary_and_refuses_bad_counts(capsys) -> None:
    mod = bench_module("env_counts")
    summary = ("==7== I   refs:      6,163,696,319\n==7== I1  misses:       47,589,511\n"
               "==7== LLi misses:           42,000\n==7== D   refs:      2,635,679,254  "
               "(1,765,457,279 rd   + 870,221,975 wr)\n==7== D1  misses:      150,738,566  "
               "(  107,989,467 rd   +  42,749,099 wr)\n")
    full = mod.parse(summary)
    assert full == {"instructions": 6_163_696_319, "I1 misses": 47_589_511,
                    "D1 misses": 150_738_566}
    warm = {"instructions": 5_042_634_747, "I1 misses": 29_520_690, "D1 misses": 133_633_331}
    got = mod.per_turn(full, warm, 6000)
    assert round(got["instructions"]) == 186_844 and round(got["I1 misses"]) == 3_011
    with pytest.raises(ValueError, match="no D1 misses"):
        mod.parse(summary.replace("D1  misses", "D1 missed"))
    with pytest.raises(SystemExit) as e:
        mod.main(["--turns", "0"])
    assert e.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(
        "turns: 1 to 1,000,000; warm: 0 to 1,000,000")
