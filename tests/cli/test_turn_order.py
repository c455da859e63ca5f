"""The turn-order tracker (issue 26, item 1): every combatant's initiative or sequence
roll with its modifier, how ties were broken and with whom, the order, who acts now and
where a newcomer joins; printed before the first decision in gm and play and on `order`."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from wasteland.bestiary.loader import load_scenario
from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.textmap import render_text
from wasteland.rules.turnorder import order_lines

ROLL = {"pnp": r"initiative 3d6 \(\d\+\d\+\d\) [+-]\d+ = \d+",
        "simple": r"sequence d10 \(\d+\) [+-]\d+ = \d+",
        "f2d20": r"Initiative \d+"}


def gm(tmp_path: Path, ruleset: str, lines: list[str], physical: bool = False,
       scenario: str = "ruined_street", character: str | None = None) -> str:
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup(ruleset, scenario, "0", 4, save_to=tmp_path / "gm.json",
                       character=character, physical_dice=physical), con, iter(lines))
    return con.file.getvalue()


@pytest.mark.parametrize("ruleset", ["pnp", "simple", "f2d20"])
def test_gm_prints_every_roll_and_the_order_before_the_first_decision(tmp_path, ruleset):
    out = gm(tmp_path, ruleset, ["quit"])
    head = out.index("Turn order (")
    assert head < min(out.index(w) for w in (" proposes: ", " decides (") if w in out)
    table = out[head:].split("\n")[1:]
    rows = [ln for ln in table if re.match(r"\s+\d+\. ", ln)]
    assert len(rows) == 8  # 4 of the party, 4 raiders: ruined_street
    assert all(re.search(ROLL[ruleset], ln) for ln in rows)
    assert sum("acts now" in ln for ln in rows) == 1


def test_2d20_names_its_opening_turn_not_round_0(tmp_path):
    out = gm(tmp_path, "f2d20", ["quit"])
    assert "Opening turn (before round 1): " in out and "starts the fight" in out
    assert "Round 0" not in out
    rs = get_ruleset("f2d20")
    b = rs.new_battle(load_scenario("duel"), 4)
    assert "Opening turn (before round 1)" in render_text(b, rs)


def test_play_prints_the_order_before_round_1_too(tmp_path):
    con = Console(file=io.StringIO(), width=200)
    start(GameSetup("pnp", "duel", "0", 4, save_to=tmp_path / "p.json"), con, iter(["quit"]))
    out = con.file.getvalue()
    assert out.index("Turn order (") < out.index("ted decides")
    assert re.search(r"ted +Vault +initiative 3d6 \(\d\+\d\+\d\) \+2 = \d+", out)


def test_order_on_request_shows_who_acts_now(tmp_path):
    out = gm(tmp_path, "pnp", ["order", "quit"], scenario="duel")
    assert out.count("Turn order (") == 2
    after = out.split("> order")[1]
    now = [ln for ln in after.splitlines() if "acts now" in ln]
    assert len(now) == 1 and " ted " in now[0]  # ted decides first in this duel


def test_ties_are_named_with_whom_in_the_tracker_and_at_the_tie_prompt(tmp_path):
    # every party roll is 3 3 3: the four tie at the same total and roll again
    out = gm(tmp_path, "pnp", ["3 3 3"] * 4 + ["3 3 3", "3 3 3", "4 4 4", "5 5 5", "6 6 6",
                                               "2 2 2", "1 1 1", "quit"], physical=True)
    prompt = out.split("Roll 3d6 for kat (initiative tie)")[0].splitlines()[-1]
    assert prompt == ("  initiative tie: kat is tied with val and ted at 11; each of them "
                      "rolls 3d6, and the highest goes first among them")
    assert re.search(r"\bval +Party +initiative 3d6 \(3\+3\+3\) \+2 = 11; tied with "
                     r"[^;]*kat[^;]* at 11, broken by 3d6: ", out)


def test_initiative_prompts_say_the_modifier(tmp_path):
    out = gm(tmp_path, "pnp", ["quit"], physical=True)
    assert "initiative for kat: 3d6 +2 (its Initiative modifier); the highest total acts " \
           "first\nRoll 3d6 for kat (initiative)" in out


def test_2d20_asks_a_tie_break_d20_only_of_the_tied(tmp_path):
    out = gm(tmp_path, "f2d20", ["quit"], physical=True, scenario="duel")
    assert "initiative tie" not in out  # ted 13, the radscorpion 9: nothing to break
    (tmp_path / "x").mkdir()
    out = gm(tmp_path / "x", "f2d20", ["7", "12", "quit"], physical=True, scenario="duel",
             character="vault_dweller,vault_dweller")
    assert ("initiative tie: vault_dweller_0 is tied with vault_dweller_1 at 13; each of "
            "them rolls a d20\n") in out.replace(", and the highest goes first among them", "\n")
    assert "Roll 1d20 for vault_dweller_1 (initiative tie)" in out
    assert re.search(r"vault_dweller_1 +Vault +Initiative 13; tied with vault_dweller_0 at "
                     r"13, broken by d20: 12", out)


def test_a_newcomer_is_shown_where_it_joins(tmp_path):
    out = gm(tmp_path, "pnp", ["add raider 5 2 1", "quit"], scenario="duel")
    after = out.split("> add raider 5 2 1")[1]
    assert "Turn order (" in after
    rows = [ln for ln in after.splitlines() if re.match(r"\s+\d+\. ", ln)]
    assert "raider_0" in rows[-1] and rows[-1].endswith("just joined")


def test_the_tracker_reads_the_log_so_it_survives_a_resume(tmp_path):
    gm(tmp_path, "simple", ["quit"], scenario="duel")
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup(resume=tmp_path / "gm.json"), con, iter(["quit"]))
    out = con.file.getvalue()
    assert re.search(ROLL["simple"], out)
    from wasteland.rules import saves

    b = saves.load(tmp_path / "gm.json")
    assert any(re.search(ROLL["simple"], ln) for ln in order_lines(b))
