"""A GM's corrections (issue 13, item 3): hp, place, remove, condition, each a history
line that a replay repeats, each refused in one line when the fight cannot take it."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from wasteland.bestiary.loader import load_scenario
from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup
from wasteland.rules import saves
from wasteland.rules.battle import ACTIVE, DEAD, UNCONSCIOUS
from wasteland.rules.edits import EditError, apply_edit
from wasteland.rules.rulesets import get_ruleset


def street(ruleset: str = "pnp"):
    rs = get_ruleset(ruleset)
    return rs, rs.new_battle(load_scenario("ruined_street"), 3)


def idle(b, rs):
    """A combatant whose decision it is not, on the side that is not deciding."""
    dec = rs.decider(b)
    side = b.combatants[dec.combatant].side
    return next(c for c in b.combatants if c.side != side)


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20", "simple"])
def test_edits_change_the_battle_are_logged_and_replay_from_the_history(ruleset):
    rs, b = street(ruleset)
    c = idle(b, rs)
    free = next(i for i in range(b.grid.n_cells)
                if b.grid.passable[i] and i not in b.occupied)
    x, y = b.grid.xs[free], b.grid.ys[free]
    hp = c.hp
    apply_edit(b, rs, f"hp {c.id} -3")
    apply_edit(b, rs, f"place {c.id} {x} {y}")
    apply_edit(b, rs, f"condition {c.id} crippled leg")
    apply_edit(b, rs, f"condition {c.id} prone")
    assert c.hp == hp - 3 and c.pos == free and b.occupied[free] == c.slot
    assert c.crippled["leg"] == 1
    assert b.history[-4:] == [f"@gm hp {c.id} -3", f"@gm place {c.id} {x} {y}",
                              f"@gm condition {c.id} crippled leg", f"@gm condition {c.id} prone"]
    assert "(GM) HP " in b.log[-4].text() and f"-> ({x}, {y})" in b.log[-3].text()
    again = saves.replay(ruleset, b.scenario, b.seed, b.history)
    assert again.state() == b.state()
    apply_edit(b, rs, f"condition {c.id} prone off")
    assert again.state() != b.state()


def test_hp_heals_to_the_maximum_and_never_takes_anyone_out():
    rs, b = street()
    c = idle(b, rs)
    apply_edit(b, rs, f"hp {c.id} -2")
    apply_edit(b, rs, f"hp {c.id} +50")
    assert c.hp == c.max_hp
    with pytest.raises(EditError, match=f"`remove {c.id} dead`"):
        apply_edit(b, rs, f"hp {c.id} -{c.max_hp}")
    assert c.hp == c.max_hp and c.status == ACTIVE
    apply_edit(b, rs, f"hp {c.id} -{c.max_hp - 1}")
    assert c.hp == 1


def test_remove_takes_one_out_and_the_last_one_ends_the_fight():
    rs, b = street()
    dec = rs.decider(b)
    me = b.combatants[dec.combatant]
    with pytest.raises(EditError, match="is deciding now"):
        apply_edit(b, rs, f"remove {me.id}")
    foes = [c for c in b.combatants if c.side != me.side]
    apply_edit(b, rs, f"remove {foes[0].id} unconscious")
    assert foes[0].status == UNCONSCIOUS and foes[0].pos not in b.occupied and not b.over
    for f in foes[1:]:
        apply_edit(b, rs, f"remove {f.id}")
    assert all(f.status == DEAD for f in foes[1:])
    assert b.over and b.winner == me.side
    with pytest.raises(EditError, match="the fight is over"):
        apply_edit(b, rs, f"hp {me.id} +1")


@pytest.mark.parametrize("line, words", [
    ("hp nobody +1", "no combatant 'nobody'; combatants: "),
    ("hp {c} 5", "usage: hp NAME +N or hp NAME -N"),
    ("place {c} 0 0", "square (0, 0) is a wall"),
    ("place {c} 999 1", "is off the map"),
    ("place {c} {occupied}", "is taken by "),
    ("condition {c} flying", "WHAT under pnp: prone, bleeding, crippled PART"),
    ("condition {c} crippled tail", "has no 'tail'"),
    ("condition {c} prone off", "is not prone"),
    ("remove {c} vaporized", "usage: remove NAME [dead|unconscious]"),
    ("fly {c}", "not an edit"),
])
def test_bad_edits_are_one_line_and_change_nothing(line, words):
    rs, b = street()
    c = idle(b, rs)
    other = next(o for o in b.combatants if o is not c)
    before = b.state()
    occupied = f"{b.grid.xs[other.pos]} {b.grid.ys[other.pos]}"
    with pytest.raises(EditError) as e:
        apply_edit(b, rs, line.format(c=c.id, occupied=occupied))
    assert words in str(e.value) and "\n" not in str(e.value)
    assert b.state() == before and not any(h.startswith("@gm") for h in b.history)


def test_the_gm_tool_takes_edits_and_undoes_them(tmp_path):
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup("pnp", "duel", "0", 4, save_to=tmp_path / "gm.json"), con,
             iter(["hp young_radscorpion_0 -4", "hp young_radscorpion_0 -2", "undo", "quit"]))
    out = con.file.getvalue()
    assert "young_radscorpion_0 (GM) HP 28 -> 24/28." in out
    assert "undone: @gm hp young_radscorpion_0 -2" in out
    b = saves.load(tmp_path / "gm.json")
    assert b.history == ["@gm hp young_radscorpion_0 -4"] and b.combatants[1].hp == 24
