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
import re
import sys
import tempfile
from pathlib import Path

import pytest

from wasteland.cli.play import begin
from wasteland.tui.app import PlayApp
from wasteland.tui.game import ScreenGame
from wasteland.tui.log import LogPanel
from wasteland.tui.screentext import screen_text
from wasteland.tui.turns import upcoming

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
CASES = [(ruleset, size) for ruleset in ("pnp", "simple", "f2d20")
         for size in ((80, 24), (120, 40))]


def snapshot_name(ruleset: str, size: tuple[int, int]) -> str:
    return f"ruined_street-{ruleset}-{size[0]}x{size[1]}.txt"


PANELS = ("order", "map", "log", "status", "actions", "explain", "hint")
# what test_no_name_is_cut reads: (case) -> (the names in the status panel, every id
# and weapon name, each panel's text, who acts next and what comes after them)
_PANELS: dict[tuple[str, tuple[int, int]],
              tuple[list[str], list[str], dict[str, str], tuple[list[str], str]]] = {}


def panels(app: PlayApp, text: str) -> dict[str, str]:
    """Each panel's part of the screen, its rows joined by a space (so a line wrapped
    between two words reads as one; a name folded or cut does not)."""
    rows = text.split("\n")
    out = {}
    for name in PANELS:
        r = app.query_one(f"#{name}").content_region
        out[name] = " ".join(row[r.x:r.x + r.width] for row in rows[r.y:r.y + r.height])
    return out


def screen(ruleset: str, size: tuple[int, int]) -> str:
    """The screen at the player's first decision, seed 3. The save is named relative to
    the current folder, so the log's first note reads the same on every machine."""
    b = begin("play", {"ruleset": ruleset, "scenario": "ruined_street", "side": "0",
                       "seed": 3, "ai": None}, None)
    app = PlayApp(ScreenGame(b, Path("save.json")))
    out: list[str] = []
    names = list(b.ids) + sorted({w.name for c in b.combatants for w in c.weapons})
    listed = list(b.ids) + [c.weapon.name for c in b.combatants]

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            # let the first layout, the NPCs' turns and the log's scroll to its end settle:
            # until the screen reads the same three times running with the log at its
            # end, where the game scrolls it after each redraw (a loaded machine needs
            # more rounds than an idle one). The log is scrolled to its end here as well,
            # as the game does, since on a loaded machine its size may be updated after
            # the game's own scroll.
            last, same = None, 0
            log = app.query_one(LogPanel)
            for _ in range(200):
                await pilot.pause()
                await pilot.wait_for_scheduled_animations()
                log.scroll_end(animate=False)
                await pilot.pause()
                now = screen_text(app)
                same = same + 1 if now == last else 0
                if same >= 2 and log.scroll_y >= log.max_scroll_y:
                    break
                last = now
            out.append(now)
            rest, then = upcoming(app.battle, app.game.rs)
            _PANELS[(ruleset, size)] = (listed, names, panels(app, now),
                                        ([b.ids[s] for s in rest], then))
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


def cut_names(text: str, names: list[str]) -> list[str]:
    """The names ``text`` shows cut: once every whole name is taken out, what is left of
    a name's beginning (four characters or more) that stops inside one of its words
    ("young_radscorpio", "grenade launch") or ends in an ellipsis ("hunting …")."""
    rest = text
    for n in sorted(names, key=len, reverse=True):
        rest = re.sub(rf"(?<!\w){re.escape(n)}(?!\w)", " ", rest)
    found = []
    for n in names:
        for k in range(4, len(n)):
            head = re.escape(n[:k])
            inside = n[k - 1].isalnum() and (n[k].isalnum() or n[k] == "_")
            if inside and re.search(rf"(?<!\w){head}(?!{re.escape(n[k])})", rest):
                found.append(n[:k])
            elif re.search(rf"(?<!\w){head}\s*(…|\.\.\.)", rest):
                found.append(n[:k] + "…")
    return found


def test_cut_names_finds_the_cuts_of_issue_41():
    names = ["young_radscorpion_0", "grenade launcher", "hunting rifle", "10mm pistol", "kat"]
    assert cut_names("  1 young_radscorpio", names) == ["young_radscorpio"]
    assert "grenade launch" in cut_names("brute 60/60 grenade launch 1/1+3", names)
    assert "hunting …" in cut_names("drifter 32/32 hunting …", names)
    assert "10mm pis" in cut_names("val 30/30  10mm pis…", names)
    # whole, or wrapped between two words (a panel's rows are joined by a space)
    assert cut_names("young_radscorpion_0's turn; grenade   launcher; hunting rifle 5/5 "
                     "kat (small)", names) == []


@pytest.mark.parametrize("ruleset, size", CASES)
def test_no_name_is_cut(ruleset, size):
    """Issue 41: at 80x24 and 120x40 every combatant's id and every weapon's name that
    a panel shows is shown whole (the columns give way, not the words)."""
    if (ruleset, size) not in _PANELS:  # this case's snapshot test did not run first
        screen(ruleset, size)
    listed, names, texts, (following, then) = _PANELS[(ruleset, size)]
    for panel, text in texts.items():
        assert cut_names(text, names) == [], f"{panel}: {text}"
    for name in listed:  # each combatant and the weapon in its hand, in the status panel
        assert re.search(rf"(?<!\w){re.escape(name)}(?!\w)", texts["status"]), name
    # the turn line says who acts next, each named whole or counted, then what follows
    order = texts["order"].rstrip()
    named = sum(bool(re.search(rf"(?<!\w){re.escape(i)}(?!\w)", order)) for i in following)
    more = re.search(r"(\d+) more", order)
    assert named + (int(more.group(1)) if more else 0) == len(following), order
    assert order.endswith(then), order


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
