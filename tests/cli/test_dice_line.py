"""One line a roll (issue 41, item 2): the first prompt of an attack lists its later
rolls, every die of it may be typed on that line ("5 4 4 / 2 2"), a part that does not
read is asked again alone, dice for a roll that is not needed are left out, the ways a GM
reads dice (345, 0 on a d10, 00 on a d100) are taken, a save replays such a session, and
a 2d20 NPC's boosts go with its proposal."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from menus import last_menu
from rich.console import Console

from wasteland.cli.dice_prompts import parse_faces
from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup
from wasteland.cli.prompt import ChoiceError, match
from wasteland.rules import saves
from wasteland.rules.actions import Action

SCORPION = "young_radscorpion_0"


def gm(tmp_path: Path, ruleset: str, answers: list[str], seed: int = 4,
       name: str = "gm.json") -> str:
    con = Console(file=io.StringIO(), width=400)
    start_gm(GameSetup(ruleset, "duel", "0", seed, save_to=tmp_path / name, physical_dice=True),
             con, iter(answers))
    return con.file.getvalue()


def test_pnp_attack_and_damage_on_one_line(tmp_path):
    out = gm(tmp_path, "pnp", ["3 3 3", f"attack {SCORPION}", "5 4 4 / 2 2", "quit"])
    assert ("  then: 2d6 (damage) if it hits (roll them with it and type each after a /)\n"
            "  to hit young_radscorpion_0: 3d6 +2 PER +2 skill against Defense 14: 10 or more "
            "on the dice\n"
            "Roll 3d6 for ted (attack): type 3 numbers from 1 to 6 (or all: 3d6 / 2d6)") in out
    assert "  damage: 2d6 (2+2) from your line" in out
    assert "Roll 2d6 for ted (damage)" not in out  # not asked again
    assert f"{SCORPION} takes 2d6 (2+2) = 4 - PDT 2 = 2 physical damage (HP 26/28)" in out
    history = saves.load(tmp_path / "gm.json").history
    assert "@dice ted 2d6 2 2 (damage)" in history


def test_a_miss_leaves_the_damage_dice_out(tmp_path):
    out = gm(tmp_path, "pnp", ["3 3 3", f"attack {SCORPION}", "1 1 2 / 2 2", "", "quit"])
    assert ", miss" in out
    assert "  not needed, left out: damage 2d6 (2 2)" in out
    assert not any(h.startswith("@dice ted 2d6") for h in saves.load(tmp_path / "gm.json").history)


def test_a_bad_part_is_asked_again_alone(tmp_path):
    # the damage part does not read: the attack is taken, the damage asked when it comes
    out = gm(tmp_path, "pnp", ["3 3 3", f"attack {SCORPION}", "5 4 4 / 9 2", "3 1", "quit"])
    assert "damage (2d6) not kept: need 2 whole numbers from 1 to 6" in out
    assert out.count("Roll 3d6 for ted (attack)") == 1
    assert "Roll 2d6 for ted (damage): type 2 numbers from 1 to 6\n> 3 1" in out
    # the attack part does not read: asked alone (run together, 544), the damage kept
    out = gm(tmp_path, "pnp", ["3 3 3", f"attack {SCORPION}", "5 4 / 2 2", "544", "quit"],
             name="again.json")
    assert "attack (3d6): need 3 whole numbers from 1 to 6" in out
    assert "the 1 later group kept" in out
    assert "Roll 3d6 for ted (attack): type 3 numbers from 1 to 6\n> 544" in out
    assert "3d6 (5+4+4)" in out and "  damage: 2d6 (2+2) from your line" in out


def test_simple_attack_critical_and_damage_on_one_line(tmp_path):
    # 00 on the d100 is 100, a critical: its doubled damage takes the two typed dice and
    # asks for the two more only
    answers = ["3", "end", "", "", f"attack {SCORPION}", "9 9 / 00 / 5 3", "4 4", "quit"]
    out = gm(tmp_path, "simple", answers)
    assert re.search(r"  then: 1d100 \(critical\)( if it hits)?; 2d6 \(damage\)", out)
    assert ("Roll 2d10 for ted (attacks young_radscorpion_0 with 10mm pistol): type 2 "
            "numbers from 1 to 10 (or all: 2d10 / 1d100 / 2d6)") in out
    assert "  critical: 1d100 (100) from your line" in out
    assert "  damage: 4d6, 2 of them from your line (5+3)" in out
    assert "Roll 2d6 for ted (damage): type 2 numbers from 1 to 6\n> 4 4" in out
    assert "takes 4d6 (5+3+4+4) = 16" in out


def test_0_at_a_d10_prompt_is_a_10(tmp_path):
    out = gm(tmp_path, "simple", ["0", "quit"])
    assert "sequence d10 (10) +6 = 16" in out


def test_2d20_attack_location_and_combat_dice_on_one_line(tmp_path):
    out = gm(tmp_path, "f2d20", [f"attack {SCORPION}", "3 3 / 5 / 7 / 1 2 b e e 1", "quit"])
    assert ("  then: 1d20 (aim reroll) if a d20 fails; 1d20 (hit location) if it hits; 6d6 "
            "(combat dice) if it hits (roll them with it and type each after a /)") in out
    assert ("type 2 numbers from 1 to 20 (or all: 2d20 / 1d20 / "
            "1d20 / 6d6)") in out
    assert "  hit location: 1d20 (7) from your line" in out
    assert "  combat dice: 6d6 (1+2+3+5+5+1) from your line" in out
    assert "6 CD (1, 2, blank, 1+effect, 1+effect, 1)" in out
    assert "  not needed, left out: aim reroll 1d20 (5)" in out  # no d20 failed
    assert "Roll 1d20" not in out and "Roll 6d6" not in out


def test_a_save_of_a_session_typed_by_lines_replays_it(tmp_path):
    answers = ["3 3 3", f"attack {SCORPION}", "5 4 4 / 2 2", "", f"attack {SCORPION}",
               "4 4 5 / 3 3 / 1 1", "4 4 5 / 3 3", "quit"]
    out = gm(tmp_path, "pnp", answers)
    assert "3 groups typed; this roll takes at most 2: 3d6 / 2d6" in out
    b = saves.load(tmp_path / "gm.json")  # checked by a replay of its history
    assert [h for h in b.history if h.startswith("@dice ted")][:4] == [
        "@dice ted 3d6 3 3 3 (initiative)", "@dice ted 3d6 5 4 4 (attack)",
        "@dice ted 2d6 2 2 (damage)", "@dice ted 3d6 4 4 5 (attack)"]
    hp = b.by_id(SCORPION).hp
    assert f"(HP {hp}/28)" in out.split("saved to")[0]
    con = Console(file=io.StringIO(), width=400)
    start_gm(GameSetup(resume=tmp_path / "gm.json"), con, iter(["quit"]))
    assert saves.load(tmp_path / "gm.json").history == b.history
    assert saves.load(tmp_path / "gm.json").by_id(SCORPION).hp == hp


def test_undo_at_the_line_takes_the_action_back(tmp_path):
    out = gm(tmp_path, "pnp", ["3 3 3", f"attack {SCORPION}", "undo", "end", "quit"])
    assert "undone: ted: attack young_radscorpion_0 (not taken); ted decides again" in out
    assert "@dice ted 3d6" not in " ".join(saves.load(tmp_path / "gm.json").history[1:])


def table(con: Console, answers: int, undo_after: str | None = None) -> Iterator[str]:
    """Fair dice (fixed seed), every proposal accepted, the party's first attack; one
    undo right after ``undo_after`` is first said."""
    rng = random.Random(5)
    undone = False
    for _ in range(answers):
        text = con.file.getvalue()
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if undo_after and not undone and undo_after in text:
            undone = True
            yield "undo"
            continue
        m = re.match(r"Roll (\d+)d(\d+) for ", lines[-1])
        if m:
            yield " ".join(str(rng.randint(1, int(m.group(2)))) for _ in range(int(m.group(1))))
        elif "proposes:" in lines[-1]:
            yield ""
        else:
            yield next((n for n, t in last_menu("\n".join(lines)) if t.startswith("attack ")), "1")
    yield "quit"


def test_2d20_npc_boosts_go_with_its_proposal(tmp_path):
    con = Console(file=io.StringIO(), width=400)
    start_gm(GameSetup("f2d20", "duel", "0", 5, save_to=tmp_path / "b.json", physical_dice=True),
             con, table(con, 40))
    out = con.file.getvalue()
    taken = [ln for ln in out.splitlines()
             if re.match(rf"  {SCORPION}: \d more combat dic?e? ", ln)]
    assert taken and all(re.search(r"\(adds \d combat dice? for \d AP", ln) for ln in taken)
    assert not re.search(r"proposes: \d more combat", out)
    # undo takes the boost back, and its window is then proposed on its own
    con = Console(file=io.StringIO(), width=400)
    start_gm(GameSetup("f2d20", "duel", "0", 5, save_to=tmp_path / "u.json", physical_dice=True),
             con, table(con, 40, undo_after=taken[0]))
    out = con.file.getvalue()
    assert re.search(rf"undone: {SCORPION}: \d more combat", out)
    assert re.search(rf"{SCORPION} proposes: \d more combat dic?e? - Enter accepts", out)


@pytest.mark.parametrize("typed, sides, n, why, faces", [
    ("345", 6, 3, "attack", [3, 4, 5]),
    ("3 4,5", 6, 3, "attack", [3, 4, 5]),
    ("0", 10, 1, "sequence", [10]),
    ("20", 10, 2, "damage", [2, 10]),
    ("10 5", 10, 2, "damage", [10, 5]),
    ("00", 100, 1, "critical", [100]),
    ("100", 100, 1, "critical", [100]),
    ("12be", 6, 4, "combat dice", [1, 2, 3, 5]),
    ("17", 20, 1, "hit location", [17]),
])
def test_the_ways_a_gm_reads_dice(typed, sides, n, why, faces):
    assert parse_faces(typed, sides, n, why) == faces


@pytest.mark.parametrize("typed, sides, n, why, says", [
    ("34", 6, 3, "attack", "need 3 whole numbers from 1 to 6, e.g. 4 4 4 or 444"),
    ("0", 6, 1, "attack", "need 1 whole number from 1 to 6"),
    ("0", 100, 1, "critical", "need 1 whole number from 1 to 100 (00 reads as 100)"),
    ("11", 20, 2, "attack", "need 2 whole numbers from 1 to 20, e.g. 4 4"),
    ("7 x", 10, 2, "damage", "from 1 to 10 (0 reads as 10), e.g. 4 4 or 44"),
    ("1 2 z", 6, 3, "combat dice", "need 3 combat dice faces, 1, 2, b (blank) or e"),
    ("9" * 40, 6, 1, "damage", "need 1 whole number from 1 to 6"),
])
def test_garbage_is_refused_in_one_line_naming_what_is_accepted(typed, sides, n, why, says):
    with pytest.raises(ValueError) as e:
        parse_faces(typed, sides, n, why)
    assert says in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("typed", ["²", "3²4", "+²"])
def test_digits_that_are_not_ascii_are_refused_in_one_line(typed):
    # "²".isdigit() holds but int() refuses it: it must read as a bad answer, not crash
    with pytest.raises(ValueError) as e:
        parse_faces(typed, 6, 3, "attack")
    assert str(e.value).startswith("need 3 whole numbers") and "\n" not in str(e.value)
    with pytest.raises(ChoiceError):
        match(typed, [Action("end"), Action("rally")], ["end", "rally"])
