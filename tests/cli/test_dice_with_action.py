"""An action typed with its dice (issue 41, item 2): "attack X / 544 / 22" at a party
decision of `gm --physical-dice` answers the action's first dice prompt with the groups
after its words, in each ruleset; a miss leaves the rest out, a bad group is asked again
alone, a ';' line's dice go with its last action, dice for an action that rolls nothing
are left out and said, '/' without physical dice is refused, and a save replays it."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup
from wasteland.rules import saves

SCORPION = "young_radscorpion_0"
ATTACK = f"attack {SCORPION}"


def gm(tmp_path: Path, ruleset: str, answers: list[str], physical: bool = True,
       name: str = "gm.json") -> str:
    con = Console(file=io.StringIO(), width=400)
    start_gm(GameSetup(ruleset, "duel", "0", 4, save_to=tmp_path / name, physical_dice=physical),
             con, iter(answers))
    return con.file.getvalue()


def dice(tmp_path: Path, name: str = "gm.json") -> list[str]:
    return [h for h in saves.load(tmp_path / name).history if h.startswith("@dice ted")]


def test_pnp_action_and_its_dice_on_one_line(tmp_path):
    out = gm(tmp_path, "pnp", ["3 3 3", f"{ATTACK} / 544 / 2 2", "quit"])
    assert ("(or all: 3d6 / 2d6)\n> 544 / 2 2 (typed with the action)\n"
            "ted attacks young_radscorpion_0 with 10mm pistol: 3d6 (5+4+4)") in out
    assert "  damage: 2d6 (2+2) from your line" in out
    assert out.count("Roll 3d6 for ted (attack)") == 1 and "Roll 2d6 for ted" not in out
    assert dice(tmp_path)[1:] == ["@dice ted 3d6 5 4 4 (attack)", "@dice ted 2d6 2 2 (damage)"]


def test_simple_action_and_its_dice_on_one_line(tmp_path):
    out = gm(tmp_path, "simple", ["3", "end", "", "", f"{ATTACK} / 9 9 / 00 / 5 3", "4 4",
                                  "quit"])
    assert "> 9 9 / 00 / 5 3 (typed with the action)" in out
    assert "  critical: 1d100 (100) from your line" in out
    assert "takes 4d6 (5+3+4+4) = 16" in out
    assert "@dice ted 2d10 9 9 (attacks young_radscorpion_0 with 10mm pistol)" in dice(tmp_path)


def test_2d20_action_and_its_dice_on_one_line(tmp_path):
    out = gm(tmp_path, "f2d20", [f"{ATTACK} / 3 3 / 5 / 7 / 1 2 b e e 1", "quit"])
    assert "  hit location: 1d20 (7) from your line" in out
    assert "  combat dice: 6d6 (1+2+3+5+5+1) from your line" in out
    assert "Roll 1d20" not in out and "Roll 6d6" not in out
    assert "@dice ted 6d6 1 2 3 5 5 1 (combat dice)" in dice(tmp_path)


def test_a_miss_drops_the_rest_with_the_note(tmp_path):
    out = gm(tmp_path, "pnp", ["3 3 3", f"{ATTACK} / 1 1 2 / 2 2", "", "quit"])
    assert ", miss" in out and "  not needed, left out: damage 2d6 (2 2)" in out
    assert not any(h.startswith("@dice ted 2d6") for h in dice(tmp_path))


def test_a_bad_group_is_asked_again_alone(tmp_path):
    out = gm(tmp_path, "pnp", ["3 3 3", f"{ATTACK} / 5 4 / 2 2", "544", "quit"])
    assert "attack (3d6): need 3 whole numbers from 1 to 6" in out
    assert "Roll 3d6 for ted (attack): type 3 numbers from 1 to 6\n> 544" in out
    assert "  damage: 2d6 (2+2) from your line" in out
    out = gm(tmp_path, "pnp", ["3 3 3", f"{ATTACK} / 5 4 4 / 9 2", "3 1", "quit"],
             name="b.json")
    assert "damage (2d6) not kept: need 2 whole numbers from 1 to 6" in out
    assert "Roll 2d6 for ted (damage): type 2 numbers from 1 to 6\n> 3 1" in out


def test_a_semicolon_line_gives_its_dice_to_its_last_action(tmp_path):
    out = gm(tmp_path, "pnp", ["3 3 3", f"move toward {SCORPION}; {ATTACK} / 544 / 22",
                               "quit"])
    assert "moves" in out.split("> 544 / 22 (typed with the action)")[0].split("> move")[1]
    assert "  damage: 2d6 (2+2) from your line" in out
    assert dice(tmp_path)[1:] == ["@dice ted 3d6 5 4 4 (attack)", "@dice ted 2d6 2 2 (damage)"]


def test_dice_where_they_cannot_go(tmp_path):
    out = gm(tmp_path, "pnp", ["3 3 3", "end / 5 4", "", "quit"])
    assert "> end / 5 4\n  end rolls no dice: 5 4 left out" in out
    out = gm(tmp_path, "pnp", ["3 3 3", f"{ATTACK} / 544; end", "quit"], name="c.json")
    assert "dice go after the last action of a line" in out
    out = gm(tmp_path, "pnp", [f"{ATTACK} / 544 / 22", "quit"], physical=False, name="d.json")
    assert "'/' types an action's dice, with --physical-dice only" in out
    assert "young_radscorpion_0 takes" not in out


def test_a_save_of_such_a_session_replays_exactly(tmp_path):
    answers = ["3 3 3", f"{ATTACK} / 544 / 22", "", f"{ATTACK} / 4 4 5 / 3 3", "quit"]
    out = gm(tmp_path, "pnp", answers)
    b = saves.load(tmp_path / "gm.json")
    assert dice(tmp_path)[1:5] == [
        "@dice ted 3d6 5 4 4 (attack)", "@dice ted 2d6 2 2 (damage)",
        "@dice ted 3d6 4 4 5 (attack)", "@dice ted 2d6 3 3 (damage)"]
    hp = b.by_id(SCORPION).hp
    assert f"(HP {hp}/28)" in out.split("saved to")[0]
    con = Console(file=io.StringIO(), width=400)
    start_gm(GameSetup(resume=tmp_path / "gm.json"), con, iter(["quit"]))
    again = saves.load(tmp_path / "gm.json")
    assert again.history == b.history and again.by_id(SCORPION).hp == hp


def test_dice_typed_for_a_roll_with_nothing_after_it():
    from wasteland.cli.dice_prompts import RollAsk, ask_line

    said: list[str] = []
    lines = iter(["2 2 2"])
    faces, later = ask_line(lambda t, s: said.append(t), lambda: next(lines),
                            RollAsk("ted", 6, 3, "attack"), [], typed="5 4 4")
    assert (faces, later) == ([5, 4, 4], []) and "> 5 4 4 (typed with the action)" in said
    faces, _ = ask_line(lambda t, s: said.append(t), lambda: next(lines),
                        RollAsk("ted", 6, 3, "attack"), [], typed="5 4 4 / 2 2")
    assert faces == [2, 2, 2] and "2 groups typed; this roll takes at most 1: 3d6" in said[-2]


def test_dice_whose_first_roll_never_came_are_said_left_out():
    from wasteland.cli.dice_ahead import DiceLine, Roll

    said: list[str] = []
    line = DiceLine(lambda t, s: said.append(t), lambda: None, ["ted"], [Roll(0, 6, 3, "attack")],
                    0, typed="544 / 22")
    line.end()
    assert said == ["  not needed, left out: 544 / 22"]
