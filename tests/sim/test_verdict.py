"""The verdict's thresholds at their boundaries: each bound is inclusive, and the smallest
step past it moves the encounter one rung (or more) towards deadly."""

from __future__ import annotations

import pytest

from wasteland.sim.verdict import RUNGS, VERDICTS, summary_line, verdict

EPS = 1e-9


def test_the_rungs_are_as_documented():
    assert VERDICTS == ("trivial", "easy", "medium", "hard", "deadly")
    assert [(r.name, r.min_win, r.max_down, r.max_lethal) for r in RUNGS] == [
        ("trivial", 0.98, 0.05, 0.01),
        ("easy", 0.95, 0.25, 0.03),
        ("medium", 0.85, 1.0, 0.10),
        ("hard", 0.60, 1.0, 0.30),
    ]


@pytest.mark.parametrize(("win", "down", "lethal", "expected"), [
    # on each bound: still that rung
    (0.98, 0.05, 0.01, "trivial"),
    (0.95, 0.25, 0.03, "easy"),
    (0.85, 1.0, 0.10, "medium"),
    (0.60, 1.0, 0.30, "hard"),
    # just past one bound of trivial
    (0.98 - EPS, 0.0, 0.0, "easy"),
    (1.0, 0.05 + EPS, 0.0, "easy"),
    (1.0, 0.0, 0.01 + EPS, "easy"),
    # of easy
    (0.95 - EPS, 0.0, 0.0, "medium"),
    (1.0, 0.25 + EPS, 0.0, "medium"),
    (1.0, 0.0, 0.03 + EPS, "medium"),
    # of medium
    (0.85 - EPS, 0.0, 0.0, "hard"),
    (1.0, 1.0, 0.10 + EPS, "hard"),
    # of hard
    (0.60 - EPS, 0.0, 0.0, "deadly"),
    (1.0, 0.0, 0.30 + EPS, "deadly"),
    (0.0, 1.0, 1.0, "deadly"),
    (1.0, 0.0, 0.0, "trivial"),
])
def test_verdict_at_the_boundaries(win, down, lethal, expected):
    assert verdict(win, down, lethal) == expected


def test_summary_line_reads_at_the_table():
    line = summary_line("hard", 0.71, (0.68, 0.74), 0.2, 0.8, 0.22, 5.0)
    assert line == ("hard: the party wins 71% [68-74] and loses 20%, someone goes down in 80% "
                    "of fights, someone dies in 22%, ~5 rounds")
