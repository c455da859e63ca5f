"""`wasteland gm` driven by piped input: party actions, NPC proposals accepted or
overridden, physical dice, undo, newcomers, save and resume (issue 4)."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from menus import last_menu
from rich.console import Console

from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup
from wasteland.rules import saves

ROLL = re.compile(r"Roll (\d+)d(\d+) for (\S+)")


def driver(con: Console, script: list[str]) -> Iterator[str]:
    """Answers what the session asks: the scripted lines first (a roll asked before one
    of them, as the party's initiative is, gets 3s); then a roll of 3s for every die asked
    for, Enter for every NPC proposal, and for the party the first attack on the menu
    (else its first entry)."""
    for line in script:
        while True:
            out = [ln for ln in con.file.getvalue().splitlines() if ln.strip()]
            m = ROLL.search(out[-1]) if out else None
            if not m:
                break
            yield " ".join([str(min(3, int(m.group(2))))] * int(m.group(1)))
        yield line
    for _ in range(3000):
        lines = [ln for ln in con.file.getvalue().splitlines() if ln.strip()]
        m = ROLL.search(lines[-1])
        if m:
            yield " ".join([str(min(3, int(m.group(2))))] * int(m.group(1)))
            continue
        if "proposes:" in lines[-1] or (len(lines) > 1 and "proposes:" in lines[-2]):
            yield ""
            continue
        items = last_menu("\n".join(lines))
        yield next((n for n, text in items if text.startswith("attack ")), "1")


def run(tmp_path: Path, ruleset: str, script: list[str], physical: bool = False,
        resume: Path | None = None) -> str:
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup(ruleset, "duel", "0", 4, resume=resume, save_to=tmp_path / "gm.json",
                       physical_dice=physical), con, driver(con, script))
    return con.file.getvalue()


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20", "simple"])
def test_a_session_with_physical_dice_and_undo_reaches_the_end(ruleset, tmp_path):
    out = run(tmp_path, ruleset, ["help", "2", "undo"], physical=True)
    assert "Commands: help, look, undo" in out
    assert "undone: ted: " in out
    assert "Roll " in out and "for ted" in out  # the party member's dice were asked for
    assert "for young_radscorpion_0" not in out.split("Roll ")[-1]  # NPCs roll their own
    assert out.rstrip().endswith(("won.", "Draw."))


def test_physical_dice_faces_are_the_ones_used(tmp_path):
    out = run(tmp_path, "pnp", [], physical=True)
    attacks = [ln for ln in out.splitlines() if ln.startswith("ted attacks")]
    assert attacks and all("3d6 (3+3+3)" in ln for ln in attacks)


def test_bad_dice_and_bad_actions_get_one_line_and_the_session_goes_on(tmp_path):
    out = run(tmp_path, "pnp", ["fly", "add raider 0 0 1", "add raider 5 2 Radscorpion"])
    assert "'fly' is not a legal action now; legal:" in out
    assert "square (0, 0) is a wall" in out
    assert "raider_0 rolls initiative" in out
    assert out.rstrip().endswith(("won.", "Draw."))


def test_a_huge_line_is_echoed_cut_and_answered_in_one_line(tmp_path):
    """Issue 23: gm echoed a 5 MB line back whole (twice: the echo and the error)."""
    huge = "x" * 5_000_000
    out = run(tmp_path, "pnp", [huge, "9" * 5000])
    assert len(out) < 200_000
    assert "x" * 121 not in out
    assert "(5,000,000 characters)" in out and "is not a legal action now" in out
    assert "(5,000 characters)" in out  # a 5,000-digit action number is not int()ed
    assert out.rstrip().endswith(("won.", "Draw."))


def test_override_replaces_the_npcs_choice(tmp_path):
    # ted ends his turn; the radscorpion proposes to close in; the GM makes it end instead
    con = Console(file=io.StringIO(), width=200)
    lines = iter(["1", "end", "quit"])
    start_gm(GameSetup("pnp", "duel", "0", 4, save_to=tmp_path / "gm.json"), con, lines)
    out = con.file.getvalue()
    assert "young_radscorpion_0 proposes:" in out
    b = saves.load(tmp_path / "gm.json")
    assert b.history[-1] == "young_radscorpion_0: end"


def test_quit_saves_and_resume_is_the_same_state(tmp_path):
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup("f2d20", "duel", "0", 4, save_to=tmp_path / "gm.json"), con,
             iter(["2", "", "quit"]))
    saved = saves.load(tmp_path / "gm.json")
    out = run(tmp_path, "f2d20", [], resume=tmp_path / "gm.json")
    assert out.rstrip().endswith(("won.", "Draw."))
    assert saved.history and not saved.over


def test_the_command_reads_piped_input(tmp_path):
    p = subprocess.run([sys.executable, "-m", "wasteland.cli.main", "gm", "--scenario", "duel",
                        "--save-to", str(tmp_path / "gm.json"), "--party", "Vault"],
                       input="look\nquit\n", capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "Duel (pnp)" in p.stdout and "Traceback" not in p.stderr
