"""Magazines and reloading (seed 000: Small Action "Unloading or Loading a gun", Magazine
Types and Reloading)."""

from __future__ import annotations

from wasteland.rules.events import Reloaded

from .kit import F, arena, only


def _gun(weapon, ammo, loaded):
    a = arena([F("gunner", (0, 0), "ann", weapons=[weapon], ammo=ammo),
               F("target", (3, 0), "bob", side=1)])
    a.c("ann").wstate.loaded = loaded
    return a


def test_internal_magazine_loads_2_rounds_per_small_action():
    """Seed 000_4e72993430dea166.txt, Magazine Types (Internal): rounds are loaded
    individually, 2 at a time, each load a Small action."""
    a = _gun("revolver", {"44": 3}, 1)
    r = only(a.act("reload"), Reloaded)
    assert (r.loaded, r.reserve) == (3, 1)
    assert a.decider.slot == "large"
    r = only(a.act("reload"), Reloaded)  # the Large action spent as a second Small one
    assert (r.loaded, r.reserve) == (4, 0)  # only 1 round was left: never negative
    assert a.whose() == "bob"
    a.act("end")
    assert not a.is_legal("reload")  # nothing left to load


def test_internal_magazine_stops_at_capacity():
    """Seed 000_4e72993430dea166.txt, Magazine Types: a gun holds its capacity."""
    a = _gun("revolver", {"44": 10}, 5)
    r = only(a.act("reload"), Reloaded)
    assert (r.loaded, r.reserve) == (6, 9)
    assert not a.is_legal("reload")


def test_clip_reload_takes_two_small_actions_unload_then_load():
    """Seed 000_4e72993430dea166.txt, Magazine Types (Clip or Battery): 2 Small actions, one
    to unload and one to load. Reading: the rounds left in the old clip go back to the
    reserve."""
    a = _gun("pistol", {"10mm": 12}, 2)
    r = only(a.act("reload"), Reloaded)
    assert (r.loaded, r.reserve) == (0, 14) and "step 1 of 2" in r.step
    assert not a.is_legal("attack bob")  # no round chambered mid-reload
    r = only(a.act("reload"), Reloaded)
    assert (r.loaded, r.reserve) == (6, 8) and "step 2 of 2" in r.step
    assert a.whose() == "bob"


def test_clip_reload_with_a_short_reserve_loads_what_there_is():
    """Seed 000_4e72993430dea166.txt, Magazine Types; ammunition never goes negative."""
    a = _gun("pistol", {"10mm": 4}, 0)
    a.act("reload")
    r = only(a.act("reload"), Reloaded)
    assert (r.loaded, r.reserve) == (4, 0)


def test_complex_reload_takes_three_small_actions_across_turns():
    """Seed 000_4e72993430dea166.txt, Magazine Types (Complex): 3 Small actions to load;
    two fit in one turn, the third comes next turn."""
    a = _gun("minigun", {"5mm": 100}, 0)
    a.act("reload")
    a.act("reload")
    assert a.whose() == "bob" and a.c("ann").wstate.reload_step == 2
    a.act("end")
    assert not a.is_legal("attack bob")
    r = only(a.act("reload"), Reloaded)
    assert (r.loaded, r.reserve) == (60, 40) and "step 3 of 3" in r.step
    assert a.decider.slot == "large" and a.is_legal("attack bob")


def test_reload_is_legal_only_when_it_can_do_something():
    """Seed 000_4e72993430dea166.txt, Small Action (Unloading or Loading a gun): reading:
    not with a full magazine, an empty reserve, or a weapon with no magazine."""
    assert not _gun("pistol", {"10mm": 12}, 6).is_legal("reload")
    assert not _gun("pistol", {}, 3).is_legal("reload")
    assert _gun("pistol", {"10mm": 1}, 3).is_legal("reload")
    assert not _gun("knife", {}, 0).is_legal("reload")


def test_empty_gun_cannot_attack():
    """Seed 000_4e72993430dea166.txt, Magazine Types: every gun holds bullets; with none
    loaded it cannot fire (but may still pistol whip)."""
    a = _gun("pistol", {"10mm": 12}, 0)
    assert not a.is_legal("attack bob") and a.is_legal("reload")
