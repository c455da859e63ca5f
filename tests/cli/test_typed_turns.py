"""What a GM types goes on as typed (issue 41, item 3): the rest of a `;` line after a
party member's reaction is answered, and a shortened action word meaning the plain
action over its variants ("att you" is the attack, not attack2)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.cli.prompt import ChoiceError, match
from wasteland.rules import saves
from wasteland.rules.actions import Action


def test_the_rest_of_a_line_is_played_after_a_reaction_is_answered(tmp_path):
    """night_field, seed 1: kat's move lets ted (the party's too) take a 5-ft step;
    the GM answers it with `end`, and kat's attack typed after the `;` follows."""
    con = Console(file=io.StringIO(), width=200)
    lines = ["",  # feral_ghoul_2's free attack, proposed: accepted
             "end",  # feral_ghoul_2's turn: the GM overrides with end
             "move toward feral_ghoul_2; attack feral_ghoul_2",
             "end",  # ted's reaction to kat's move
             "quit"]
    start_gm(GameSetup("pnp", "night_field", seed=1, save_to=tmp_path / "gm.json"), con,
             iter(lines))
    out = con.file.getvalue()
    assert "ted decides (reaction: step):" in out  # the reaction came between
    history = saves.load(tmp_path / "gm.json").history
    at = history.index("kat: move toward feral_ghoul_2")
    assert history[at + 1:at + 3] == ["ted: end", "kat: attack feral_ghoul_2"], history
    assert "kat: attack feral_ghoul_2 (typed with the answer)" in out
    assert "kat decides (large):" not in out  # kat was not asked again


def test_a_reaction_answered_with_its_own_rest_of_line_keeps_that_one():
    """following(): the answer's own orders win when they ask something (keep, a rest)."""
    from wasteland.cli.orders import Orders, following
    from wasteland.rules.battle import Battle

    class Now:  # the round and turn orders are checked against
        round, turn = 2, 1

    b: Battle = Now()  # type: ignore[assignment]
    kat = Orders(0, 2, 1, then=("attack feral_ghoul_2",))
    plain = Orders(1, 2, 1)
    assert following(b, kat, plain) is kat
    asking = Orders(1, 2, 1, keep=True)
    assert following(b, kat, asking) is asking
    mine = Orders(0, 2, 1)  # the same combatant's next answer replaces its orders
    assert following(b, kat, mine) is mine
    stale = Orders(0, 1, 1, then=("attack feral_ghoul_2",))  # a turn gone by
    assert following(b, stale, plain) is plain


def test_att_you_is_the_one_weapon_attack_when_two_weapons_are_offered(tmp_path):
    con = Console(file=io.StringIO(), width=200)
    start(GameSetup("pnp", "duel", "0", 3, save_to=tmp_path / "p.json"), con,
          iter(["att you", "quit"]))
    out = con.file.getvalue()
    # two-weapon fighting is legal here (at 0% to hit it is left out of the menu, not out
    # of what may be typed), so a shortened verb could name it
    assert "attack2 young_radscorpion_0" in out or "1 more at 0% to hit" in out
    assert "ambiguous" not in out
    assert "ted: attack young_radscorpion_0" in saves.load(tmp_path / "p.json").history


LEGAL = [Action("end"), Action("attack", 1), Action("attack2", 1), Action("attack", 2),
         Action("attack2", 2), Action("rally"), Action("rally_with", None, "speech")]
LABELS = ["end", "attack raider_1", "attack2 raider_1", "attack raider_10",
          "attack2 raider_10", "rally", "rally_with speech"]


@pytest.mark.parametrize("typed, action", [
    ("att raider_1", Action("attack", 1)),
    ("a raider_10", Action("attack", 2)),
    ("attack2 raider_1", Action("attack2", 1)),  # the variant, typed in full
    ("ral", Action("rally")),
])
def test_a_shortened_verb_means_the_plain_action_over_its_variants(typed, action):
    assert match(typed, LEGAL, LABELS) == action


def test_other_ambiguities_still_list_the_choices_in_one_line():
    # the targets' ids begin alike: the one-line list, not a guess
    with pytest.raises(ChoiceError) as e:
        match("att rai", LEGAL, LABELS)
    msg = str(e.value)
    assert "ambiguous: attack raider_1, attack raider_10" in msg and "\n" not in msg
