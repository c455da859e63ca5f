"""Issue 13, fewer questions (wasteland/cli/orders.py), through piped input: an answer
carries its 2d20 follow-ups (+N d20s, aim first, keep the turn open), the table rules
answer the windows and the turn's end, everything taken for the player is logged with
why, and `set` changes the rules (kept in the save)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from wasteland.cli.game import Game
from wasteland.cli.orders import rules_of
from wasteland.cli.play import begin
from wasteland.rules import saves

SCORP = "young_radscorpion_0"


def _game(tmp_path: Path, lines: list[str], pool: int | None = 6, seed: int = 3
          ) -> tuple[Game, str]:
    """f2d20 duel (ted against a young radscorpion), the party's pool set to ``pool``
    (None: as the battle starts, empty; a save checks the pool against its history)."""
    b = begin("play", {"ruleset": "f2d20", "scenario": "duel", "side": "0", "seed": seed},
              None)
    if pool is not None:
        b.book.pools[0] = pool
    con = Console(file=io.StringIO(), width=120)
    g = Game(b, con, iter(lines), tmp_path / "g.json")
    g.run()
    return g, con.file.getvalue()


def _mine(g: Game) -> list[str]:
    return [h.split(": ", 1)[1] for h in g.b.history if h.startswith("ted: ")]


def test_an_attack_with_plus_n_buys_that_many_d20s_without_asking(tmp_path):
    g, out = _game(tmp_path, [f"attack {SCORP} +2"])
    assert _mine(g)[:3] == ["aim", f"attack {SCORP}", "buy 2"]
    assert "ted: buy 2 more d20s for 3 AP (+2 with the attack)" in out
    assert "decides (dice)" not in out
    # the menu's number takes the extras too
    g, out = _game(tmp_path, ["9 +1"])
    assert _mine(g)[:3] == ["aim", f"attack {SCORP}", "buy 1"]


def test_buy_auto_takes_the_ais_choice_and_buy_ask_asks(tmp_path):
    g, out = _game(tmp_path, [f"attack {SCORP}"])
    bought = _mine(g)[2]
    n = int(bought.split()[1])
    said = "no extra d20s" if n == 0 else f"buy {n} more d20"
    assert f"ted: {said}" in out and f"(buy auto: buys {n} extra d20" in out
    g, out = _game(tmp_path, ["set buy ask", f"attack {SCORP}", "buy 0"])
    assert "buy ask: an attack without +N asks" in out
    assert "ted decides (dice)" in out and _mine(g)[2] == "buy 0"


def test_the_boost_rule_answers_the_window_after_a_hit(tmp_path):
    # seed 3, +2 d20s: the aimed shot hits (checked by the boost lines below)
    g, out = _game(tmp_path, [f"attack {SCORP} +2"])
    assert "(boost auto: adds" in out
    g, out = _game(tmp_path, ["set boost none", f"attack {SCORP} +2"])
    assert "ted: no extra combat dice (boost none)" in out
    g, out = _game(tmp_path, ["set boost max", f"attack {SCORP} +2"])
    assert "(boost max)" in out and _mine(g)[3] != "boost 0"
    g, out = _game(tmp_path, ["set boost ask", f"attack {SCORP} +2", "boost 1"])
    assert "ted decides (boost)" in out and _mine(g)[3] == "boost 1"


def test_an_attack_aims_first_unless_noaim_or_the_aim_rule_says_no(tmp_path):
    g, out = _game(tmp_path, [f"attack {SCORP} +0"])
    assert _mine(g)[:2] == ["aim", f"attack {SCORP}"]
    assert "ted: aim (first, with the attack" in out
    assert f"ted: attack {SCORP} (aimed first, then the attack)" in out
    g, _ = _game(tmp_path, [f"attack {SCORP} +0 noaim"])
    assert _mine(g)[0] == f"attack {SCORP}"
    g, _ = _game(tmp_path, ["set aim no", f"attack {SCORP} +0"])
    assert _mine(g)[0] == f"attack {SCORP}"
    g, _ = _game(tmp_path, ["set aim no", f"aim attack {SCORP} +0"])
    assert _mine(g)[:2] == ["aim", f"attack {SCORP}"]


def test_the_turn_ends_once_the_major_action_is_spent_unless_keep(tmp_path):
    g, out = _game(tmp_path, ["defend"])
    assert _mine(g)[-1] == "end"
    assert "ted: end (end auto: the major action is spent; keep goes on)" in out
    g, _ = _game(tmp_path, ["prone", "defend"])  # a minor action first: the turn goes on
    assert _mine(g)[:3] == ["prone", "defend", "end"]
    g, out = _game(tmp_path, ["defend keep", "prone"])
    assert _mine(g)[:2] == ["defend", "prone"]
    assert out.count("ted decides (act)") >= 2
    g, out = _game(tmp_path, ["set end ask", "defend", "end"])
    assert "end auto" not in out and out.count("ted decides (act)") >= 2


def test_extras_that_do_not_fit_are_one_line_and_nothing_is_taken(tmp_path):
    g, out = _game(tmp_path, [f"attack {SCORP} +3"], pool=2)
    assert "+3 d20s cost 6 AP; the pool has 2 (help for commands)" in out
    assert not _mine(g)
    g, out = _game(tmp_path, [f"move toward {SCORP} +1"])
    assert f"+1 buys d20s for an attack; move toward {SCORP} is not one" in out
    assert not _mine(g)
    g, out = _game(tmp_path, ["set boost often", "set"])
    assert "set boost: one of auto, ask, max, none" in out
    assert "table rules (set NAME VALUE" in out and "boost auto" in out


def test_the_rules_are_kept_in_the_save_and_set_ask_asks_everything(tmp_path):
    g, out = _game(tmp_path, ["set ask", "quit"], pool=None)
    assert "table rules: buy ask, boost ask, aim no, end ask" in out
    b = saves.load(g.save_path)
    assert rules_of(b) == {"buy": "ask", "boost": "ask", "aim": "no", "end": "ask"}
    con = Console(file=io.StringIO(), width=120)
    Game(begin("play", {}, g.save_path), con, iter(["defend", "end"]), g.save_path).run()
    out = con.file.getvalue()
    assert "end auto" not in out and out.count("ted decides (act)") >= 2


def test_piped_input_is_asked_every_question_until_it_says_set_auto(tmp_path):
    """A script answers the questions the line game asked before the table rules (issue
    13: piped input behaves as before), so a new game from piped input starts under
    `set ask`; a resumed one keeps its save's rules, and `set auto` is one line away."""
    import subprocess
    import sys

    save = tmp_path / "piped.json"
    script = "set\nquit\n"
    args = [sys.executable, "-m", "wasteland.cli.main", "play", "--ruleset", "f2d20",
            "--scenario", "ruined_street", "--seed", "3", "--save-to", str(save)]
    out = subprocess.run(args, input=script, capture_output=True, text=True, timeout=120,
                         cwd=tmp_path).stdout
    assert "buy ask (an attack without +N asks" in " ".join(out.split())
    assert rules_of(saves.load(save)) == {"buy": "ask", "boost": "ask", "aim": "no",
                                          "end": "ask"}
    resumed = subprocess.run([*args[:4], "--resume", str(save)], input="set auto\nquit\n",
                             capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "table rules: all auto" in resumed.stdout, resumed.stdout[-400:] + resumed.stderr
    assert rules_of(saves.load(save))["buy"] == "auto"
