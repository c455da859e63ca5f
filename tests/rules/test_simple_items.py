"""Simple's items in hand (seed 001_0912b5c6442fb3b1.txt, Move Phase): putting away or
taking out one small item is the move-phase action; putting away and taking out one small
item, two small items, or one large item cost the charge and action phases; dropping items
of any size is free."""

from __future__ import annotations

import numpy as np

from wasteland.observe.encoding import Encoder

from .kitsimple import SEED, creature, sarena

WIDE = "\n".join(["." * 24] * 3)


def pair(a_w=("pistol", "knife"), at_b=(6, 0)):
    return sarena([("ann", (0, 0), 0, creature("a", weapons=a_w)),
                   ("bob", at_b, 1, creature("b", weapons=("knife",), hp=60))], rows=WIDE)


def to(a, who, phase):
    while a.whose() != (who, phase):
        a.act("end")


def test_seed_is_cited():
    assert SEED.startswith("Seed 001")


def test_taking_out_one_small_item_is_the_move_action():
    """001 Move Phase: taking out one small item is the move-phase action; dropping the one
    in hand first is free, so the charge and the action phase stay open."""
    a = pair(at_b=(5, 0))
    to(a, "ann", "move")
    a.act("drop")  # the pistol, free
    ann = a.c("ann")
    assert ann.cond["gone"] == [0] and "draw 0" not in a.legal()
    assert "move toward bob" in a.legal()  # a free action leaves the move-phase action
    a.act("draw 1")
    assert ann.weapon.id == "knife" and ann.cond.get("forfeit") != a.b.round
    assert any("takes out knife (its move)" in t for t in a.text())
    assert a.legal() == {"end", "crouch", "prone", "drop"}  # free actions still open
    a.act("end")
    to(a, "ann", "charge")
    assert "charge bob" in a.legal()


def test_putting_away_one_small_item_is_the_move_action_and_empties_the_hands():
    """001 Move Phase: putting away one small item is the move-phase action. Reading: the
    hands are empty until it takes one out again; empty hands can disarm."""
    a = pair(a_w=("pistol",), at_b=(1, 0))
    to(a, "ann", "move")
    assert "stow" in a.legal()
    a.act("stow")
    ann = a.c("ann")
    assert ann.cond["stowed"] and ann.cond.get("forfeit") != a.b.round
    a.act("end")
    to(a, "ann", "action")
    legal = a.legal()
    assert not any(t.startswith(("attack", "reload")) for t in legal)
    assert "disarm bob" in legal
    a.act("end")
    to(a, "ann", "move")
    assert "draw 0" in a.legal() and "stow" not in a.legal() and "drop" not in a.legal()
    a.act("draw 0")  # takes it out again: one small item, its move
    assert not ann.cond.get("stowed") and ann.cond.get("forfeit") != a.b.round


def test_putting_away_and_taking_out_or_a_large_item_forfeit():
    """001 Move Phase: put away and take out one small item, or one large item: no charge
    or action phase that round."""
    a = pair()
    to(a, "ann", "move")
    a.act("draw 1")  # pistol away, knife out
    assert a.c("ann").cond["forfeit"] == a.b.round
    a = pair(a_w=("rifle", "knife"))
    to(a, "ann", "move")
    a.act("stow")  # the rifle is large
    assert a.c("ann").cond["forfeit"] == a.b.round
    assert any("puts away rifle: no charge or action" in t for t in a.text())
    a = pair(a_w=("knife", "rifle"))
    to(a, "ann", "move")
    a.act("drop")
    a.act("draw 1")  # taking out the large rifle alone
    assert a.c("ann").cond["forfeit"] == a.b.round
    a = pair(a_w=("claws", "knife"))
    to(a, "ann", "move")
    assert "drop" not in a.legal() and "stow" not in a.legal()  # claws are no item
    a.act("draw 1")  # claws hold nothing: one small item out
    assert a.c("ann").cond.get("forfeit") != a.b.round
    a = pair(a_w=("knife", "claws"))
    to(a, "ann", "move")
    a.act("draw 1")  # back to its claws: one small item away, nothing taken out
    assert a.c("ann").cond.get("forfeit") != a.b.round


def test_dropping_is_free_for_any_size_and_the_item_is_gone():
    """001 Move Phase: dropping items of any size is a free action. Reading: the weapon in
    hand lies on the ground, out of the fight (the seed has no picking up)."""
    a = pair(a_w=("rifle", "pistol"))
    enc = Encoder(a.b)
    to(a, "ann", "move")
    a.act("drop")
    ann = a.c("ann")
    assert ann.cond["gone"] == [0] and ann.cond.get("forfeit") != a.b.round
    assert "draw 0" not in a.legal() and "drop" not in a.legal()
    me = ann.slot
    assert np.array_equal(enc.observe(me), Encoder(a.b).observe(me))  # empty hands seen
    a.act("move toward bob")
    assert a.b.book.main and a.legal() == {"end", "crouch", "prone"}
    a.act("end")
    to(a, "ann", "move")  # next round: the rifle stays gone; the pistol can come out
    assert "draw 1" in a.legal() and "draw 0" not in a.legal()
