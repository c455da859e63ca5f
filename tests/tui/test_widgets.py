"""The full-screen game's parts that need no screen: the map's marks for each condition,
the legend, the grouping and explanations of actions, the summary's tally."""

from __future__ import annotations

from pathlib import Path

import pytest

from wasteland.cli.play import GameSetup, begin, start
from wasteland.rules.actions import Action
from wasteland.rules.battle import DEAD, UNCONSCIOUS
from wasteland.rules.rulesets import get_ruleset
from wasteland.tui.choices import EXPLAIN, choices, group_of, grouped
from wasteland.tui.mapview import cell_of, condition, legend, render_map


def _battle(ruleset: str = "pnp", scenario: str = "vault_corridor"):
    b = begin("play", {"ruleset": ruleset, "scenario": scenario, "side": "0", "seed": 1}, None)
    return b, get_ruleset(ruleset)


def _mark(b, rs, c) -> tuple[str, str]:
    text = render_map(b, rs)
    col, row = cell_of(b, rs, c.pos)
    line_start = sum(len(line) + 1 for line in text.plain.split("\n")[:row])
    i = line_start + col
    styles = [str(s.style) for s in text.spans if s.start <= i < s.end]
    return text.plain[i], " ".join(styles)


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20", "simple"])
def test_conditions_are_told_apart_on_the_map(ruleset):
    b, rs = _battle(ruleset)
    a, k, s0, s1 = b.combatants
    assert _mark(b, rs, a)[0] == "0" and "green" in _mark(b, rs, a)[1]
    assert "red" in _mark(b, rs, s0)[1]  # the other side's colour
    k.crippled["leg"] = 1
    assert condition(k) == "crippled" and "underline" in _mark(b, rs, k)[1]
    s0.status, s0.hp, s0.cond["stable"] = UNCONSCIOUS, 0, True
    assert condition(s0) == "down" and _mark(b, rs, s0)[0] == "o"
    s1.status, s1.hp = UNCONSCIOUS, -3
    s1.cond["bleeding"] = True
    assert condition(s1) == "dying" and _mark(b, rs, s1)[0] == "+"
    a.status = DEAD
    assert condition(a) == "dead" and _mark(b, rs, a)[0] == "x" and "dim" in _mark(b, rs, a)[1]


def test_legend_names_the_marks_of_this_map_and_each_side():
    b, rs = _battle()
    text = legend(b, rs, 30).plain
    assert "01 Vault" in text and "23 Radscorpions" in text
    assert "= heavy cover" in text and "% full cover" not in text  # not on this map
    assert all(len(line) <= 30 for line in text.splitlines())
    zb, zrs = _battle("f2d20")
    from wasteland.rules.grid import COVER_NAMES
    from wasteland.rules.zones import zone_glyph, zones_for

    zones = zones_for(zb.grid)
    ztext = legend(zb, zrs, 30).plain.replace("\n", "  ")
    for z in range(zones.count):  # 2d20: each zone's letter with its cover
        assert f"{zone_glyph(z)} {COVER_NAMES[zones.cover(z)]}  " in ztext


def test_actions_are_grouped_and_explained():
    assert group_of(Action("move", 1, "toward")) == "move"
    assert group_of(Action("vats", 1, "head")) == "attack"
    assert group_of(Action("stimpak", 0)) == "items"
    assert group_of(Action("end")) == "other"
    b, rs = _battle()
    dec = rs.decider(b)
    cs = choices(b, rs, dec, rs.legal_actions(b))
    assert [g for g, _ in grouped(cs)] == [g for g in ("move", "attack", "items", "other")
                                          if any(c.group == g for c in cs)]
    assert all(c.explanation == EXPLAIN[c.action.kind] for c in cs)
    assert all(c.odds.startswith(tuple("0123456789")) and " ~" in c.odds
               for c in cs if c.action.kind == "attack")
    assert not any(c.odds for c in cs if c.group == "move")


def test_full_screen_is_asked_for_by_start_and_plain_otherwise(tmp_path, monkeypatch):
    import io

    from rich.console import Console

    import wasteland.tui.app as tui

    called: list[Path] = []
    monkeypatch.setattr(tui, "run_full_screen",
                        lambda b, path, resumed, first=None: called.append(path) or 0)
    con = Console(file=io.StringIO())
    assert start(GameSetup("pnp", "duel", "0", 3, save_to=tmp_path / "a.json"), con, iter([]),
                 full_screen=tui.run_full_screen) == 0
    assert called == [tmp_path / "a.json"] and con.file.getvalue() == ""
    start(GameSetup("pnp", "duel", "0", 3, save_to=tmp_path / "b.json"), con, iter([]))
    assert called == [tmp_path / "a.json"] and "decides" in con.file.getvalue()


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("stdin, stdout, plain, full", [
    (True, True, False, True),
    (True, True, True, False),  # --plain
    (False, True, False, False),  # piped input
    (True, False, False, False),  # output to a file or a pipe
])
def test_full_screen_only_for_a_person_at_the_terminal(monkeypatch, stdin, stdout, plain,
                                                        full):
    import sys

    from wasteland.cli.main import _full_screen

    monkeypatch.setattr(sys, "stdin", _Stream(stdin))
    monkeypatch.setattr(sys, "stdout", _Stream(stdout))
    assert _full_screen(plain) is full


def test_plain_flag_keeps_the_line_game(tmp_path):
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "wasteland.cli.main", "play", "--plain",
                        "--scenario", "duel", "--save-to", str(tmp_path / "s.json")],
                       input="help\nquit\n", capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = " ".join(p.stdout.split())  # the console wraps long lines at 80 columns
    assert "ted decides" in out and "Commands: help, look" in out
    assert "resume with: wasteland play --resume" in out
