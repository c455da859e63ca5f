"""`wasteland play` driven by piped input (issue 4: solo play in the terminal)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from wasteland.cli.play import GameSetup, start
from wasteland.cli.prompt import ChoiceError, match
from wasteland.rules import saves
from wasteland.rules.actions import Action

LEGAL = [Action("end"), Action("attack", 1), Action("attack", 1, "head"), Action("attack2", 1),
         Action("move", 1, "toward")]
LABELS = ["end", "attack raider_0", "attack raider_0 head", "attack2 raider_0",
          "move toward raider_0"]


def test_numbers_and_unambiguous_prefixes_name_actions():
    assert match("2", LEGAL, LABELS) == Action("attack", 1)
    assert match("att rai he", LEGAL, LABELS) == Action("attack", 1, "head")
    assert match("attack raider_0", LEGAL, LABELS) == Action("attack", 1)
    assert match("mo t r", LEGAL, LABELS) == Action("move", 1, "toward")
    assert match("att r", LEGAL, LABELS) == Action("attack", 1)  # the plain attack, not attack2


@pytest.mark.parametrize("text, fragment", [
    ("9", "no action number 9; choose 1-5"),
    ("fly away", "not a legal action now; legal: end, attack raider_0"),
    ("", "empty input"),
])
def test_bad_choices_are_one_line(text, fragment):
    with pytest.raises(ChoiceError) as e:
        match(text, LEGAL, LABELS)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def _play(lines: list[str], tmp_path: Path, ruleset: str = "pnp", resume: Path | None = None
          ) -> str:
    con = Console(file=io.StringIO(), width=120)
    start(GameSetup(ruleset, "duel", "0", 3, resume=resume, save_to=tmp_path / "auto.json"), con,
          iter(lines))
    return con.file.getvalue()


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_a_scripted_game_reaches_the_end(ruleset, tmp_path):
    out = _play(["help", "nonsense"] + ["1"] * 400, tmp_path, ruleset)
    assert "Commands: help, look" in out
    assert "'nonsense' is not a legal action now" in out
    assert out.rstrip().endswith(("won.", "Draw."))


def test_quit_saves_and_resume_continues_the_same_battle(tmp_path):
    _play(["1", "quit"], tmp_path)
    path = tmp_path / "auto.json"
    b = saves.load(path)
    assert b.session["humans"] == [0] and b.session["command"] == "play" and not b.over
    out = _play(["1"] * 400, tmp_path, resume=path)
    assert out.rstrip().endswith(("won.", "Draw."))


def test_input_ending_saves_the_game(tmp_path):
    out = _play(["look"], tmp_path)
    assert "input ended." in out and (tmp_path / "auto.json").exists()


def test_choose_your_character_and_the_enemies(tmp_path):
    from wasteland.sim.encounter import encounter

    sc, me = encounter("duel", "Vault", "brawler,wastelander", "super_mutant,raider,raider")
    assert me == 0
    assert [p.creature for p in sc.sides[0].combatants] == ["brawler", "wastelander"]
    assert [p.creature for p in sc.sides[1].combatants] == ["super_mutant", "raider", "raider"]
    spots = [tuple(p.at) for s in sc.sides for p in s.combatants]
    assert len(set(spots)) == len(spots)
    con = Console(file=io.StringIO(), width=120)
    start(GameSetup("f2d20", "duel", "0", 3, save_to=tmp_path / "a.json", character="brawler",
                    enemies="raider,raider"), con, iter(["1"] * 400))
    out = con.file.getvalue()
    assert "brawler_0" in out and "raider_1" in out and out.rstrip().endswith(("won.", "Draw."))


def test_unknown_creature_for_the_encounter_is_one_line():
    from wasteland.bestiary.loader import BestiaryError
    from wasteland.sim.encounter import encounter

    with pytest.raises(BestiaryError, match="unknown creature 'deathclaw'; known: brawler"):
        encounter("duel", "0", "deathclaw", None)


def test_the_line_game_takes_a_decision_with_one_legal_action_without_asking(tmp_path):
    """Issue 13: the player is never asked a question whose only answer is forced (an
    `end` after the last action); the log says it was taken, and every prompt shown
    offers at least two actions. Under `set ask` (every table rule asks), since the
    default end rule takes most of those ends before they are forced."""
    con = Console(file=io.StringIO(), width=120)
    asked = []

    def answers():  # the second option every time: an attack or a move, then its end
        yield "set ask"
        for _ in range(2000):  # bounded: a refused answer must end the game, not loop
            asked.append(1)
            yield "2"

    start(GameSetup("f2d20", "ruined_street", "0", 1, save_to=tmp_path / "a.json"), con, answers())
    out = con.file.getvalue()
    forced = [line for line in out.splitlines() if line.endswith("(the only choice)")]
    assert forced and out.rstrip().endswith(("won.", "Draw."))
    blocks = out.split(" decides (")[1:]
    assert len(blocks) == len(asked) - 1 or len(blocks) == len(asked)
    for block in blocks:  # each prompt lists its options 1) and 2) at least
        menu = block.split("> ")[0]
        assert "1) " in menu and "2) " in menu, menu[:200]


def test_the_map_and_status_tell_the_fallen_from_the_dead(tmp_path):
    # issue 26: piped play drew an unconscious combatant as dead: an x on the map, and its
    # [unconscious] flag eaten as a markup tag
    from wasteland.cli.game import Game
    from wasteland.cli.play import begin
    from wasteland.rules.battle import DEAD, UNCONSCIOUS

    b = begin("play", {"scenario": "duel", "seed": 3}, None)
    ted, scorpion = b.combatants
    ted.status, ted.hp = UNCONSCIOUS, 0
    con = Console(file=io.StringIO(), width=120)
    Game(b, con, iter([]), tmp_path / "s.json").look()
    out = con.file.getvalue()
    tx, ty = b.grid.xy(ted.pos)
    rows = [ln.strip("│ ") for ln in out.splitlines()[1:1 + b.grid.height]]
    assert rows[ty][tx] == "_" and "[unconscious]" in out
    scorpion.status = DEAD
    con = Console(file=io.StringIO(), width=120)
    Game(b, con, iter([]), tmp_path / "s.json").look()
    out = con.file.getvalue()
    sx, sy = b.grid.xy(scorpion.pos)
    rows = [ln.strip("│ ") for ln in out.splitlines()[1:1 + b.grid.height]]
    assert rows[sy][sx] == "x" and "[dead" in out and "[unconscious]" in out


def test_enemies_chosen_on_the_command_line_name_their_side():
    # issue 26: --enemies super_mutant,raider still fought as "Radscorpions"
    from wasteland.sim.encounter import encounter, side_name

    sc, me = encounter("vault_corridor", "0", None, "super_mutant, 2 raider")
    assert [s.name for s in sc.sides] == ["Vault", "Super mutant and Raider"] and me == 0
    sc, _ = encounter("vault_corridor", "0", "brawler", "radscorpion")
    assert [s.name for s in sc.sides] == ["Vault", "Radscorpion"]
    assert side_name(["A", "B", "A", "C", "D"]) == "A, B and 2 more"
    assert side_name(["A", "B", "C"]) == "A, B and C"
