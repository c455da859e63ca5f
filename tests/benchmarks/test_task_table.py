"""docs/tasks.md (issue 42, item 4) is what `benchmarks/task_table.py write` makes from the
results files and the suite: every registered task with its baselines and intervals,
"not measured" where no row exists, and a command that measures a row again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wasteland.envs.tasks import tasks
from wasteland.rules.errors import WastelandError

from .kit import BENCH, bench_module

DOC = BENCH.parent / "docs" / "tasks.md"


@pytest.fixture(scope="module")
def tt():
    return bench_module("task_table")


def test_the_checked_in_page_is_what_the_command_writes(tt):
    assert DOC.read_text() == tt.render(), (
        "docs/tasks.md is stale: .venv/bin/python benchmarks/task_table.py write --out "
        "docs/tasks.md")


def test_every_task_has_its_section_and_the_rows_are_the_results_files(tt):
    text = DOC.read_text()
    for t in tasks():
        assert f"\n### `{t.id}`\n" in text
    rows = json.loads((BENCH.parent / "docs" / "benchmark-runs" / "radscorpions_pnp.json"
                       ).read_text())["rows"]
    hard = next(r for r in rows if (r["agent"], r["seat"]) == ("hard", "radscorpions_duel_pnp"))
    assert (hard["wins"], hard["fights"]) == (571, 1000)
    section = text.split("### `Wasteland/RadscorpionDuel-pnp-v0`")[1].split("###")[0]
    assert ("| hard (level, search) | 57.1 [54.0, 60.1] | 1,000 | `.venv/bin/python "
            "benchmarks/task_table.py measure Wasteland/RadscorpionDuel-pnp-v0 hard -n "
            "1000` |") in section
    assert "| packet, the suite's record | 49.6 [47.5, 51.8] | 2,000 |" in section
    shipped = next(r for r in rows if (r["agent"], r["seat"]) == ("ppo_warm_seats_shipped",
                                                                  "radscorpions_duel_pnp"))
    assert (shipped["wins"], shipped["fights"]) == (640, 1000)
    assert "| shipped policy (ppo_warm_seats_shipped) | 64.0 [61.0, 66.9] | 1,000 |" in section


def test_a_task_without_rows_says_not_measured(tt):
    task = next(t for t in tasks() if t.id == "Wasteland/RobotMirror-f2d20-v0")
    lines = tt.task_section(task, {})
    table = [ln for ln in lines if ln.startswith("| ") and "suite's record" not in ln][1:]
    assert len(table) == 6 and all("| not measured |" in ln for ln in table), table


def test_measure_plays_a_task_seat_and_refuses_bad_names(tt):
    got = tt.measure("Wasteland/RadscorpionDuel-pnp-v0", "random", 2)
    assert got["fights"] == 2 and got["wins"] + got["losses"] + got["draws"] == 2
    with pytest.raises(WastelandError, match="unknown task 'Wasteland/Nope-v0'"):
        tt.measure("Wasteland/Nope-v0", "random", 2)
    with pytest.raises(WastelandError, match="was trained for f2d20, not pnp"):
        tt.measure("Wasteland/RadscorpionDuel-pnp-v0", "policy:radscorpion_f2d20", 2)
    with pytest.raises(WastelandError, match="-n must be 1 to"):
        tt.measure("Wasteland/RadscorpionDuel-pnp-v0", "random", 0)


def test_the_page_is_linked(tt):
    assert "docs/tasks.md" in (BENCH.parent / "README.md").read_text()
    assert Path(DOC).is_file()
