"""Simple's `end` table rule (wasteland/cli/orders.py, phase_end): once a party member's
move-phase option is spent, its move phase ends without asking (what is left is `end` or
a free drop), unless the answer said `keep`; `set end ask` asks again; the `end` taken
is a move of the save's history like any other, so a save replays it."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from wasteland.cli.game import Game
from wasteland.cli.play import begin
from wasteland.rules import saves

SCORP = "young_radscorpion_0"


def _game(tmp_path: Path, lines: list[str], name: str = "g") -> tuple[Game, str]:
    """Simple duel, seed 3: ted (lower sequence) moves first."""
    b = begin("play", {"ruleset": "simple", "scenario": "duel", "side": "0", "seed": 3},
              None)
    con = Console(file=io.StringIO(), width=120)
    g = Game(b, con, iter([*lines, "quit"]), tmp_path / f"{name}.json")
    g.run()
    return g, con.file.getvalue()


def _mine(g: Game) -> list[str]:
    return [h.split(": ", 1)[1] for h in g.b.history if h.startswith("ted: ")]


def test_the_move_phase_ends_once_the_move_is_spent(tmp_path):
    g, out = _game(tmp_path, [f"move toward {SCORP}"])
    assert _mine(g) == [f"move toward {SCORP}", "end"]
    assert "ted: end (end auto: the move is spent; keep goes on)" in out
    assert out.count("ted decides (move)") == 1


def test_keep_asks_again_and_set_end_ask_asks_as_before(tmp_path):
    g, out = _game(tmp_path, [f"move toward {SCORP} keep", "prone"])
    assert _mine(g)[:2] == [f"move toward {SCORP}", "prone"]
    assert out.count("ted decides (move)") == 2
    g, out = _game(tmp_path, ["set end ask", f"move toward {SCORP}", "prone"], "ask")
    assert _mine(g)[:2] == [f"move toward {SCORP}", "prone"]
    assert "end auto" not in out and out.count("ted decides (move)") >= 2


def test_keep_is_refused_under_pnp_in_one_line(tmp_path):
    b = begin("play", {"ruleset": "pnp", "scenario": "duel", "side": "0", "seed": 3}, None)
    con = Console(file=io.StringIO(), width=120)
    g = Game(b, con, iter(["end keep", "quit"]), tmp_path / "p.json")
    g.run()
    assert "keep goes with 2d20 and Simple actions only (help for commands)" in (
        con.file.getvalue())
    assert not [h for h in g.b.history if h.startswith("ted: ")]


def test_a_save_replays_the_end_taken_and_keeps_a_keep(tmp_path):
    g, _ = _game(tmp_path, [f"move toward {SCORP}"])
    back = saves.load(g.save_path)
    assert back.history == g.b.history and "ted: end" in back.history
    assert back.state() == g.b.state()
    # a keep answered before quitting still holds when the game resumes: asked again
    g, _ = _game(tmp_path, [f"move toward {SCORP} keep"], "keep")
    con = Console(file=io.StringIO(), width=120)
    again = Game(begin("play", {}, g.save_path), con, iter(["prone", "quit"]), g.save_path)
    again.run()
    assert _mine(again)[:2] == [f"move toward {SCORP}", "prone"]
