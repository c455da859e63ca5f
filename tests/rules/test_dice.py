"""Dice notation (NdX+M) and rolling from the battle's own RNG (DESIGN.md: every event
shows its dice; seed 000 rolls 3d6 and weapon damage dice)."""

from __future__ import annotations

import random

import pytest

from wasteland.rules.dice import D3D6, Dice, Roll, d, parse_dice, roll_dice
from wasteland.rules.errors import NotationError, WastelandError

from .kit import Rig


@pytest.mark.parametrize("text,expected", [
    ("3d6", Dice(3, 6, 0)),
    ("d20", Dice(1, 20, 0)),
    ("1d10+2", Dice(1, 10, 2)),
    ("2d8-1", Dice(2, 8, -1)),
    (" 4D6 + 3 ", Dice(4, 6, 3)),
    ("5", Dice(0, 1, 5)),
    ("-2", Dice(0, 1, -2)),
])
def test_parse_dice_notation(text, expected):
    """Dice notation NdX+M: N defaults to 1, the bonus may be negative; a bare number is a
    flat amount."""
    assert parse_dice(text) == expected == Dice.parse(text)


@pytest.mark.parametrize("text", ["", "abc", "3d", "d", "3d6+", "3x6", "0d6", "101d6", "3d1",
                                  "2d6+1d4", "3d6 fire"])
def test_bad_dice_notation_is_a_one_line_error(text):
    """Bad input gets a clear one-line error naming the accepted form (DESIGN.md)."""
    with pytest.raises(NotationError) as err:
        Dice.parse(text)
    assert "\n" not in str(err.value) and repr(text) in str(err.value)
    assert isinstance(err.value, WastelandError) and isinstance(err.value, ValueError)


@pytest.mark.parametrize("text", ["3d6", "1d20", "2d8-1", "1d10+2", "7", "-3"])
def test_dice_text_round_trips(text):
    """str(Dice) is the notation it parses from."""
    dice = Dice.parse(text)
    assert str(dice) == text and Dice.parse(str(dice)) == dice


def test_minimum_and_maximum():
    assert (Dice(3, 6).minimum, Dice(3, 6).maximum) == (3, 18)
    assert (Dice(2, 8, -1).minimum, Dice(2, 8, -1).maximum) == (1, 15)
    assert (Dice(0, 1, 4).minimum, Dice(0, 1, 4).maximum) == (4, 4)


def test_roll_reads_faces_from_the_rng_and_shows_them():
    """A die face is int(random() * sides) + 1, so a test can script exact faces."""
    rig = Rig().d6(4, 6, 5)
    roll = D3D6.roll(rig)
    assert roll.faces == (4, 6, 5) and roll.total == 15 and str(roll) == "3d6 (4+6+5)"
    rig.push(10, 7)
    roll = Dice(1, 10, 2).roll(rig)
    assert roll.total == 9 and str(roll) == "1d10 (7) +2"
    rig.push(4, 1)
    assert str(Dice(1, 4, -1).roll(rig)) == "1d4 (1) -1"
    assert Roll(Dice(0, 1, 5), ()).total == 5 and str(Roll(Dice(0, 1, 5), ())) == "5"
    rig.push(20, 20)
    assert d(rig, 20) == 20


def test_rolls_are_uniform_and_in_range():
    """Every face of a die comes up, and nothing outside it (3d6 spans 3..18)."""
    rng = random.Random(5)
    faces = roll_dice(rng, 6000, 6)
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(abs(faces.count(f) - 1000) < 150 for f in range(1, 7))
    totals = {D3D6.roll(rng).total for _ in range(3000)}
    assert min(totals) >= 3 and max(totals) <= 18 and len(totals) == 16


def test_same_seed_same_rolls():
    """Deterministic: all randomness comes from the battle's seeded RNG (DESIGN.md)."""
    a, b = random.Random(42), random.Random(42)
    assert [D3D6.roll(a).faces for _ in range(20)] == [D3D6.roll(b).faces for _ in range(20)]
