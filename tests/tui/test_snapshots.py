"""Snapshots of the full screen (issue 26, item 7): ruined_street's first decision at
80x24 and 120x40 in each ruleset, driven by Textual's pilot, the screen's text kept in
tests/tui/snapshots/ and compared line by line, so a change of the layout shows in
review as a change of these files. Plain text rather than pytest-textual-snapshot's SVGs:
no new dependency, and a diff a reader can follow.

After an intended change of the screen, write them again and read the diff:
    PYTHONPATH=. python tests/tui/test_snapshots.py
"""

from __future__ import annotations

import asyncio
import difflib
import os
import sys
import tempfile
from pathlib import Path

import pytest

from wasteland.cli.play import begin
from wasteland.tui.app import PlayApp
from wasteland.tui.game import ScreenGame
from wasteland.tui.screentext import screen_text

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
CASES = [(ruleset, size) for ruleset in ("pnp", "simple", "f2d20")
         for size in ((80, 24), (120, 40))]


def snapshot_name(ruleset: str, size: tuple[int, int]) -> str:
    return f"ruined_street-{ruleset}-{size[0]}x{size[1]}.txt"


def screen(ruleset: str, size: tuple[int, int]) -> str:
    """The screen at the player's first decision, seed 3. The save is named relative to
    the current folder, so the log's first note reads the same on every machine."""
    b = begin("play", {"ruleset": ruleset, "scenario": "ruined_street", "side": "0",
                       "seed": 3, "ai": None}, None)
    app = PlayApp(ScreenGame(b, Path("save.json")))
    out: list[str] = []

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            # let the first layout, the NPCs' turns and the log's scroll to its end settle:
            # until the screen reads the same twice running (a loaded machine needs more
            # rounds than an idle one)
            last = None
            for _ in range(40):
                await pilot.pause()
                await pilot.wait_for_scheduled_animations()
                now = screen_text(app)
                if now == last:
                    break
                last = now
            out.append(now)
    asyncio.run(main())
    return out[0] + "\n"


@pytest.mark.parametrize("ruleset, size", CASES)
def test_the_screen_matches_its_snapshot(tmp_path, ruleset, size):
    want_file = SNAPSHOTS / snapshot_name(ruleset, size)
    got = screen(ruleset, size)
    want = want_file.read_text(encoding="utf-8")
    if got != want:
        (tmp_path / want_file.name).write_text(got, encoding="utf-8")
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            str(want_file), "this run"))
        pytest.fail(f"the screen changed (if intended, run python {__file__}):\n{diff}")


def test_every_snapshot_file_is_a_case():
    """A snapshot left behind by a removed case would never be compared."""
    assert sorted(p.name for p in SNAPSHOTS.glob("*.txt")) == sorted(
        snapshot_name(r, s) for r, s in CASES)


def main() -> int:
    """Write every snapshot again, each from a new temporary folder (where its save
    goes, as a test's goes to its own tmp_path)."""
    SNAPSHOTS.mkdir(exist_ok=True)
    here = Path.cwd()
    for ruleset, size in CASES:
        with tempfile.TemporaryDirectory() as folder:
            os.chdir(folder)
            try:
                text = screen(ruleset, size)
            finally:
                os.chdir(here)
        target = SNAPSHOTS / snapshot_name(ruleset, size)
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
