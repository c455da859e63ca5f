"""`odds` in play and gm: the chances from the current moment in one line, and the game
plays on exactly as if nobody had asked."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from test_gm import driver  # the scripted GM: Enter, dice of 3s, the first attack

from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.rules import saves

ODDS = re.compile(r"^odds: your side wins (\d+)% \[(\d+)-(\d+)\] over (\d+) fights from here "
                  r"\(packet AI both sides\), someone dies in (\d+)%$")


@pytest.fixture(autouse=True)
def few_fights(monkeypatch):
    import wasteland.sim.odds as odds

    monkeypatch.setattr(odds, "MOST", 12)


def without_odds(out: str, folder: Path) -> list[str]:
    """The session's lines but the odds, with its save's folder named the same."""
    return [ln.replace(str(folder), "DIR") for ln in out.splitlines()
            if not ln.startswith(("odds: ", "> odds"))]


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_odds_in_play_leave_the_game_as_it_was(ruleset, tmp_path):
    def play(lines: list[str], name: str) -> tuple[list[str], dict]:
        (tmp_path / name).mkdir()
        path = tmp_path / name / "game.json"
        con = Console(file=io.StringIO(), width=120)
        start(GameSetup(ruleset, "ruined_street", "0", 5, save_to=path), con, iter(lines))
        out = con.file.getvalue()
        assert out.count("odds: ") == lines.count("odds")
        return without_odds(out, tmp_path / name), saves.to_dict(saves.load(path))

    moves = ["1"] * 400
    plain, plain_save = play(moves, "plain")
    asked, asked_save = play(moves[:3] + ["odds"] + moves[3:6] + ["odds"] + moves[6:], "asked")
    # the same log, the same dice, the same NPC decisions, the same end
    assert asked == plain
    assert asked_save["log"] == plain_save["log"] and asked_save["state"] == plain_save["state"]
    assert asked_save["session"]["agents"] == plain_save["session"]["agents"]


def test_odds_in_gm_with_physical_dice_ask_for_no_dice_and_change_nothing(tmp_path):
    """The GM's dice hook is not the copies': a simulation that asked for table dice would
    eat the script's lines and the session would go another way."""
    def run(script: list[str], name: str) -> tuple[list[str], list[str]]:
        (tmp_path / name).mkdir()
        path = tmp_path / name / "gm.json"
        con = Console(file=io.StringIO(), width=200)
        start_gm(GameSetup("pnp", "duel", "0", 4, save_to=path, physical_dice=True), con,
                 driver(con, script))
        out = con.file.getvalue()
        lines = [ln for ln in out.splitlines() if ln.startswith("odds: ")]
        assert len(lines) == script.count("odds")
        for ln in lines:
            m = ODDS.match(ln)
            assert m, ln
            assert int(m.group(4)) == 12 and int(m.group(2)) <= int(m.group(1)) <= int(m.group(3))
        return without_odds(out, tmp_path / name), saves.load(path).history

    plain, plain_history = run(["2", "3 3 3"], "plain")
    asked, asked_history = run(["odds", "2", "3 3 3", "odds"], "asked")
    assert asked == plain
    assert asked_history == plain_history


def test_odds_count_from_the_current_moment():
    """A side that has already won every exchange: the odds see the battle as it stands,
    not as it began."""
    from wasteland.bestiary.loader import load_scenario
    from wasteland.rules.battle import DEAD
    from wasteland.rules.rulesets import get_ruleset
    from wasteland.sim.odds import live_odds

    b = get_ruleset("pnp").new_battle(load_scenario("ruined_street"), 1)
    for c in b.combatants:
        if c.side == 1 and c.id != "raider_0":
            c.hp = 0
            b.fall(c, DEAD)
    fresh = live_odds(get_ruleset("pnp").new_battle(load_scenario("ruined_street"), 1), 0,
                      most=12)
    late = live_odds(b, 0, most=12)
    assert late.tally.outcomes["win"] == 12 and late.tally.n == 12
    assert late.line().startswith("odds: your side wins 100% [")
    assert fresh.tally.n == 12


def test_the_budget_stops_the_fights(monkeypatch):
    from wasteland.bestiary.loader import load_scenario
    from wasteland.rules.rulesets import get_ruleset
    from wasteland.sim.odds import live_odds

    b = get_ruleset("pnp").new_battle(load_scenario("ruined_street"), 1)
    o = live_odds(b, 0, budget=0.0, most=400)
    assert o.tally.n == 1  # at least one fight, then the budget is spent
    o2 = live_odds(b, 0, budget=0.0, most=400, jobs=2)
    assert o2.tally.n >= 1 and o2.tally.outcomes == o.tally.outcomes if o2.tally.n == 1 else True


def test_help_names_odds(tmp_path):
    con = Console(file=io.StringIO(), width=200)
    start(GameSetup("pnp", "duel", "0", 1, save_to=tmp_path / "a.json"), con,
          iter(["help", "quit"]))
    assert "odds (your side's chances" in con.file.getvalue()
    assert Path(tmp_path / "a.json").exists()
