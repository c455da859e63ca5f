"""Physical dice for every roll (issue 26, item 2): each prompt says first what the roll
is for (damage with its formula and DT/DR, crit damage, the hit-location table, 2d20's
combat dice typed by face), the hit is told as soon as its d20s are in, and `play` takes
--physical-dice too."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from menus import last_menu
from rich.console import Console

from wasteland.cli.dice_prompts import dice_prompt, parse_faces
from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.rules import saves
from wasteland.rules.events import CombatDiceRolled

ROLL = re.compile(r"^Roll (\d+)d(\d+) for (\S+) \((.*?)\)")


def table(con: Console, seed: int, answers: int, low: bool = False) -> Iterator[str]:
    """A table that rolls fair dice (a fixed seed; ``low``: every die a 3, which hits
    under 2d20), accepts every NPC proposal and has the party make the first attack on
    its menu (else its first choice); quits after ``answers`` lines."""
    rng = random.Random(seed)
    for _ in range(answers):
        lines = [ln for ln in con.file.getvalue().splitlines() if ln.strip()]
        m = ROLL.match(lines[-1]) if lines else None
        if m:
            yield " ".join(str(3 if low else rng.randint(1, int(m.group(2))))
                           for _ in range(int(m.group(1))))
            continue
        if any("proposes:" in ln for ln in lines[-2:]):
            yield ""
            continue
        items = last_menu("\n".join(lines))
        yield next((n for n, text in items if text.startswith("attack ")), "1")
    yield "quit"


def session(tmp_path: Path, ruleset: str, scenario: str = "ruined_street", seed: int = 4,
            answers: int = 250, low: bool = False) -> str:
    con = Console(file=io.StringIO(), width=400)
    start_gm(GameSetup(ruleset, scenario, "0", seed, save_to=tmp_path / "gm.json",
                       physical_dice=True), con, table(con, seed, answers, low))
    return con.file.getvalue()


@pytest.mark.parametrize("ruleset, kinds", [
    ("pnp", {"initiative", "attack", "damage"}),
    ("simple", {"sequence", "critical", "damage"}),
    ("f2d20", {"hit location", "combat dice"}),
])
def test_every_table_roll_says_first_what_it_is_for(tmp_path, ruleset, kinds):
    text = session(tmp_path, ruleset)
    first = min(text.index(w) for w in (" proposes: ", " decides (") if w in text)
    assert text.index("Turn order (") < first  # the order comes before round 1, too
    out = text.splitlines()
    asked = [(i, ROLL.match(ln)) for i, ln in enumerate(out) if ROLL.match(ln)]
    assert len(asked) > 20
    for i, m in asked:
        before = out[i - 1]
        if before.startswith("need "):  # asked again after a bad answer
            continue
        assert before.startswith("  ") and len(before) > 30, (m.group(0), before)
    assert kinds <= {m.group(4) for _, m in asked}  # damage and the like were asked


def test_pnp_damage_prompts_give_the_formula_and_the_threshold(tmp_path):
    out = session(tmp_path, "pnp")
    notes = [ln for ln in out.splitlines() if ln.startswith("  damage to ")]
    assert notes
    assert all(re.match(r"  damage to \w+( \(\w+\))?: \d+d\d+([+-]\d+)? \([^)]*\), "
                        r"(PDT|EDT)[^,]* \d+ applies", ln) for ln in notes), notes[:3]


def test_2d20_hit_is_told_before_its_location_and_the_table_is_read(tmp_path):
    out = session(tmp_path, "f2d20", "duel", 4, 80, low=True)
    at = out.index("Roll 1d20 for ted (hit location)")
    told = out[:at].splitlines()
    assert told[-1].startswith("  hit location on young_radscorpion_0 (the attack hit): d20, "
                               "1-3 head, 4-10 carapace, ")
    assert told[-2].startswith("ted attacks young_radscorpion_0 with 10mm pistol: 2d20 (")
    assert ": pass" in told[-2]


def test_2d20_combat_dice_are_typed_by_face_and_logged_by_meaning(tmp_path):
    assert parse_faces("1 2 b e", 6, 4, "combat dice") == [1, 2, 3, 5]
    assert parse_faces("effect, blank 0 -", 6, 4, "combat dice") == [5, 3, 3, 3]
    assert parse_faces("6 4", 6, 2, "combat dice") == [6, 4]  # a plain d6 as it fell
    with pytest.raises(ValueError, match=r"need 2 combat dice faces, 1, 2, b \(blank\) or e"):
        parse_faces("x 2", 6, 2, "combat dice")
    with pytest.raises(ValueError, match="need 1 whole number from 1 to 20"):
        parse_faces("e", 20, 1, "hit location")
    assert "b (blank) or e (effect)" in dice_prompt("ted", 6, 3, "combat dice")
    ev = CombatDiceRolled("rad", "head", [1, 2, 4, 6], 4, 1, [], 0, "physical DR", 4,
                          "physical", 4, 8)
    assert "4 CD (1, 2, blank, 1+effect) = 4, 1 effect" in ev.text()


def test_2d20_combat_dice_prompt_names_the_dice_and_the_dr(tmp_path):
    out = session(tmp_path, "f2d20", "duel", 4, 80, low=True)
    # the table's default rules boost the hit with 2 rounds of ammunition (orders.py)
    before = out.split("Roll 6d6 for ted (combat dice)")[0].splitlines()[-1]
    assert before.startswith("  combat dice for the hit on young_radscorpion_0's ")
    assert "6 CD (10mm pistol 4, +2 extra); physical DR 0 applies" in before
    # the faces typed by name are the ones logged
    con = Console(file=io.StringIO(), width=400)
    lines = table(con, 4, 80, low=True)

    def by_face() -> Iterator[str]:
        for line in lines:
            last = con.file.getvalue().rstrip().splitlines()[-1]
            yield "e e 2 b b 1" if last.startswith("Roll 6d6 for ted (combat dice)") else line
    start_gm(GameSetup("f2d20", "duel", "0", 4, save_to=tmp_path / "faces.json",
                       physical_dice=True), con, by_face())
    assert "6 CD (1+effect, 1+effect, 2, blank, blank, 1) = 5, 2 effects" in con.file.getvalue()
    b = saves.load(tmp_path / "faces.json")
    assert any(h.startswith("@dice ted 6d6 5 5 2 3 3 1 (combat dice)") for h in b.history)


def test_simple_hit_told_before_the_critical_roll_and_again_with_it(tmp_path):
    out = session(tmp_path, "simple", "duel", 4, 80)
    at = out.index("(critical): type")  # asked alone: the table typed the 2d10 only
    before = out[:at].splitlines()
    hit = before[-3]
    assert hit.startswith("ted attacks young_radscorpion_0") and ": success" in hit
    assert "d100" not in hit
    assert before[-2].startswith("  critical roll for ted's hit on young_radscorpion_0: d100, ")
    after = out[at:].splitlines()
    assert any(ln.startswith(hit) and "; d100 " in ln for ln in after[:4])


def test_play_takes_physical_dice_and_keeps_them_on_resume(tmp_path):
    con = Console(file=io.StringIO(), width=400)
    start(GameSetup("pnp", "duel", "0", 4, save_to=tmp_path / "p.json", physical_dice=True), con,
          iter(["3 3 3", "attack young_radscorpion_0", "6 6 5", "2 2", "quit"]))
    out = con.file.getvalue()
    assert "  initiative for ted: 3d6 +2" in out
    assert "Roll 3d6 for ted (attack)" in out
    # a critical: the damage says so, and its second roll says what it is
    assert ("  damage to young_radscorpion_0: 2d6 (10mm pistol), PDT 2 applies, then a "
            "second roll for the critical; a hit deals at least 1\nRoll 2d6 for ted (damage)"
            in out)
    assert ("  crit damage to young_radscorpion_0: 2d6 again, added to the first roll (4) "
            "for x2\nRoll 2d6 for ted (crit damage)") in out
    assert "quit during a roll; the action was not taken." in out
    b = saves.load(tmp_path / "p.json")
    assert b.session["options"]["physical_dice"] is True
    assert b.history == ["@dice ted 3d6 3 3 3 (initiative)"]
    con = Console(file=io.StringIO(), width=400)
    start(GameSetup(resume=tmp_path / "p.json"), con,
          iter(["attack young_radscorpion_0", "undo", "quit"]))
    out = con.file.getvalue()
    assert "Roll 3d6 for ted (attack)" in out  # the resumed game asks its dice too
    assert "no undo at a roll here: type the faces, or quit" in out
