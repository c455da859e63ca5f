"""Action notation: parse(text) -> Action -> text, and the fixed action table (DESIGN.md:
actions are values with a text notation)."""

from __future__ import annotations

import pytest

from wasteland.rules.actions import (
    ACTION_INDEX,
    ACTION_TABLE,
    MAX_COMBATANTS,
    N_ACTIONS,
    Action,
    action_id,
    parse_action,
)
from wasteland.rules.errors import NotationError

IDS = ["ted", "radscorpion_0", "radscorpion_1", "raider_0", "raider_1", "cal", "dee", "eve",
       "fox", "gus"]


@pytest.mark.parametrize("text,action", [
    ("end", Action("end")),
    ("reload", Action("reload")),
    ("ready", Action("ready")),
    ("warmup", Action("warmup")),
    ("cover", Action("cover")),
    ("draw 1", Action("draw", None, "1")),
    ("move toward raider_0", Action("move", 3, "toward")),
    ("move away raider_0", Action("move", 3, "away")),
    ("step toward cal", Action("step", 5, "toward")),
    ("attack radscorpion_1", Action("attack", 2)),
    ("attack radscorpion_1 head", Action("attack", 2, "head")),
    ("vats radscorpion_1 leg", Action("vats", 2, "leg")),
    ("attack2 raider_0", Action("attack2", 3)),
    ("whip raider_1", Action("whip", 4)),
    ("stimpak self", Action("stimpak", 0)),
    ("stimpak cal", Action("stimpak", 5)),
])
def test_parse_and_print_round_trip(text, action):
    """The notation of DESIGN.md: ``attack radscorpion_1 head``, ``stimpak self``..."""
    assert parse_action(text, IDS, actor=0) == action
    assert action.text(IDS, actor=0) == text


def test_every_table_entry_round_trips():
    """Every action of the fixed table prints to notation that parses back to it."""
    for actor in (0, 7):
        for a in ACTION_TABLE:
            assert parse_action(a.text(IDS, actor), IDS, actor) == a


def test_table_is_fixed_and_indexed():
    """The table is the same for every scenario: a fixed size, each entry indexed once."""
    assert N_ACTIONS == len(ACTION_TABLE) == len(ACTION_INDEX)
    assert ACTION_TABLE[0] == Action("end")
    assert all(ACTION_INDEX[a] == i for i, a in enumerate(ACTION_TABLE))
    assert action_id("attack", 2, "head") == ACTION_INDEX[Action("attack", 2, "head")]
    assert sum(1 for a in ACTION_TABLE if a.kind == "attack") == MAX_COMBATANTS * 4


def test_parse_is_case_insensitive_and_takes_unique_prefixes():
    assert parse_action("  ATTACK Ted  HEAD ", IDS) == Action("attack", 0, "head")
    assert parse_action("attack radscorpion_1", IDS) == Action("attack", 2)
    assert parse_action("move toward rai", ["ted", "raider_0"]) == Action("move", 1, "toward")


def test_text_without_ids_uses_slots():
    assert str(Action("attack", 3, "arm")) == "attack #3 arm"
    assert Action("stimpak", 2).text(IDS) == "stimpak radscorpion_1"


@pytest.mark.parametrize("text,fragment", [
    ("", "empty action"),
    ("dance", "unknown action 'dance'"),
    ("move raider_0", "needs a direction"),
    ("attack", "needs a target"),
    ("attack zed", "unknown combatant 'zed'"),
    ("attack radscorpion", "unknown combatant"),  # ambiguous prefix
    ("attack ted torso", "does not take option 'torso'"),
    ("vats ted", "does not take option None"),
    ("draw 7", "does not take option '7'"),
    ("end now", "does not take option 'now'"),
    ("attack ted head twice", "unexpected words"),
    ("stimpak self", "'self' needs an acting combatant"),
])
def test_bad_action_notation_is_a_one_line_error(text, fragment):
    """Bad input gets a clear one-line error naming what is accepted (DESIGN.md)."""
    with pytest.raises(NotationError) as err:
        parse_action(text, IDS)
    assert fragment in str(err.value) and "\n" not in str(err.value)
