"""Initiative and the action economy of Fallout PnP (seed 000: Initiative, Actions)."""

from __future__ import annotations

from wasteland.rules.events import InitiativeRolled, Moved

from .kit import F, arena, attacks


def _duel(**kw):
    return arena([F("gunner", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)], **kw)


def test_initiative_is_3d6_plus_modifier():
    """Seed 000_4e72993430dea166.txt, Turns and Actions / Initiative: everyone adds their
    Initiative modifier to 3d6; the highest acts first."""
    a = arena([F("gunner", (0, 0), "ann", initiative=2),
               F("target", (11, 0), "bob", side=1, initiative=-1)],
              init=[(1, 2, 3), (6, 5, 4)])
    rolled = {e.name: e for e in a.events if isinstance(e, InitiativeRolled)}
    assert (rolled["ann"].faces, rolled["ann"].modifier, rolled["ann"].total) == ([1, 2, 3], 2, 8)
    assert (rolled["bob"].faces, rolled["bob"].modifier, rolled["bob"].total) == ([6, 5, 4], -1, 14)
    assert [a.b.ids[s] for s in a.b.order] == ["bob", "ann"]
    assert a.whose() == "bob"


def test_initiative_ties_are_rerolled():
    """Seed 000_4e72993430dea166.txt, Initiative: reroll ties (only the tied reroll)."""
    a = arena([F("gunner", (0, 0), "ann"), F("target", (11, 0), "bob", side=1),
               F("target", (11, 5), "cal", side=1)],
              init=[(3, 3, 3), (4, 4, 1), (6, 6, 6)], extra=[1, 1, 1, 6, 6, 6])
    assert [a.b.ids[s] for s in a.b.order] == ["cal", "bob", "ann"]
    rolled = {e.name: e for e in a.events if isinstance(e, InitiativeRolled)}
    assert rolled["ann"].total == rolled["bob"].total == 9
    assert rolled["ann"].tiebreak == [3] and rolled["bob"].tiebreak == [18]
    assert rolled["cal"].tiebreak == []


def test_initiative_tie_on_the_reroll_is_rerolled_again():
    """Seed 000_4e72993430dea166.txt, Initiative: a tie is rerolled until it breaks."""
    a = _duel(init=[(3, 3, 3), (4, 4, 1)], extra=[2, 2, 2, 3, 2, 1, 1, 1, 1, 6, 6, 6])
    rolled = {e.name: e for e in a.events if isinstance(e, InitiativeRolled)}
    assert rolled["ann"].tiebreak == [6, 3] and rolled["bob"].tiebreak == [6, 18]
    assert a.whose() == "bob"


def test_small_action_then_large_action():
    """Seed 000_4e72993430dea166.txt, Actions / Small Action: a turn is a Small action,
    done before the Large action."""
    a = _duel()
    assert a.decider.slot == "small"
    a.act("move toward bob")
    assert a.whose() == "ann" and a.decider.slot == "large"
    assert a.is_legal("attack bob")
    a.rig.d6(1, 1, 1)  # 3 + 3 = 6, a miss
    ev = a.act("attack bob")
    assert len(attacks(ev)) == 1
    assert a.whose() == "bob" and a.decider.slot == "small"


def test_large_action_used_as_a_second_small_action():
    """Seed 000_4e72993430dea166.txt, Large Action: anything a Small action can do, so a
    turn may move twice."""
    a = _duel()
    a.act("move toward bob")
    assert a.is_legal("move toward bob")  # the Large action spent as a Small one
    ev = a.act("move toward bob")
    moved = [e for e in ev if isinstance(e, Moved)]
    assert moved and moved[0].squares == 4  # 6 squares, then 4 more to stand next to bob
    assert a.c("ann").pos == a.b.grid.index(10, 0)
    assert a.whose() == "bob"


def test_taking_the_large_action_first_forgoes_the_small_action():
    """Seed 000_4e72993430dea166.txt, Small Action: the Small action must come before the
    Large one, so attacking first ends the turn."""
    a = _duel()
    assert a.is_legal("attack bob")
    a.rig.d6(1, 1, 1)
    a.act("attack bob")
    assert a.whose() == "bob"
    assert a.c("ann").pos == a.b.grid.index(0, 0)


def test_end_passes_the_turn_and_rounds_advance():
    """Seed 000_4e72993430dea166.txt, Initiative: turns are taken in initiative order."""
    a = _duel()
    a.act("end")
    assert a.whose() == "bob" and a.b.round == 1
    a.act("end")
    assert a.whose() == "ann" and a.b.round == 2


def test_small_actions_listed_in_both_slots():
    """Seed 000_4e72993430dea166.txt, Small/Large Action: reloading is a Small action and
    so is legal in the Small slot and again in the Large slot."""
    a = _duel()
    a.c("ann").wstate.loaded = 1
    assert a.is_legal("reload")
    a.act("move toward bob")
    assert a.is_legal("reload")
    assert a.is_legal("ready") and a.is_legal("attack bob")


def test_a_fight_that_lasts_past_the_round_limit_is_a_draw():
    """Seed 000_4e72993430dea166.txt: combat ends when hostilities have ended for a while,
    as the Overseer decides. Reading: the scenario's max_rounds ends it as a draw."""
    a = _duel()
    a.b.max_rounds = 2
    for _ in range(4):
        a.act("end")
    assert a.b.over and a.rs.outcome(a.b) is None and a.rs.legal_ids(a.b) == []
