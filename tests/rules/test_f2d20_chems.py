"""Chems under Fallout 2d20: RadAway and the order of radiation removal and healing
(seed 002: Take Chem, Draw Item, Radiation Damage)."""

from __future__ import annotations

from wasteland.bestiary.loader import default_bestiary
from wasteland.rules.events import Healed

from .kit2d20 import F, arena, notes


def test_radaway_removes_radiation_damage():
    """Seed 002_265a8a3b5c20fde4.txt, Radiation Damage: radiation damage lowers maximum HP
    and only RadAway (or the like) removes it. Reading: a dose removes the item's
    f2d20_rads (4 for RadAway) and heals no HP; it is a chem, drawn first (Take Chem)."""
    a = arena([F("hero", (2, 2), "ann", items={"radaway": 2}),
               F("dummy", (27, 2), "dum", side=1)])
    ann = a.c("ann")
    ann.max_hp, ann.hp = 6, 5  # 6 radiation damage taken (base 12)
    assert "radaway self" not in a.legal()
    a.set_pool(0, 1)
    a.act("draw_chem radaway")
    ev = a.act("radaway self")
    assert (ann.max_hp, ann.hp, ann.items["radaway"]) == (10, 5, 1)
    assert notes(ev)[-1:] == ["ann uses a test RadAway: 4 radiation damage removed (of 4; "
                         "maximum HP 6 -> 10)."]
    assert not [e for e in ev if isinstance(e, Healed)]


def test_radaway_removes_no_more_than_was_taken_and_is_not_offered_without_it():
    """Seed 002_265a8a3b5c20fde4.txt, Radiation Damage: the maximum goes back to what it
    was, never above; with no radiation damage RadAway would do nothing and is not
    offered."""
    a = arena([F("hero", (2, 2), "ann", items={"radaway": 2}),
               F("dummy", (27, 2), "dum", side=1)])
    ann = a.c("ann")
    ann.cond["chem"] = "radaway"
    assert "radaway self" not in a.legal()
    ann.max_hp = 11
    a.act("radaway self")
    assert ann.max_hp == 12


def test_radiation_is_removed_before_hp_are_healed():
    """Seed 002_265a8a3b5c20fde4.txt, Radiation Damage: when a chem heals HP and removes
    radiation damage at once, the radiation goes first, then the HP. A rad-stim (4 HP, 3
    rads) on 10/10 HP of 12: maximum 12 first, then 10 + 4 -> 12 (the other order would
    leave 10)."""
    a = arena([F("hero", (2, 2), "ann", items={"rad_stim": 1}),
               F("dummy", (27, 2), "dum", side=1)])
    ann = a.c("ann")
    ann.max_hp, ann.hp = 10, 10
    ann.cond["chem"] = "stimpak"
    assert "stimpak self" in a.legal()  # full HP, but radiation to remove
    ev = a.act("stimpak self")
    assert (ann.max_hp, ann.hp) == (12, 12)
    (h,) = [e for e in ev if isinstance(e, Healed)]
    assert h.healed == 2 and "2 radiation damage removed" in notes(ev)[0]


def test_radaway_on_an_ally_within_reach():
    """Seed 002_265a8a3b5c20fde4.txt, Take Chem: yourself or a willing character within
    your reach (an ally on a square next to you)."""
    a = arena([F("hero", (2, 2), "ann", items={"radaway": 1}),
               F("hero", (3, 2), "bea", initiative=5), F("hero", (6, 2), "cyd", initiative=4),
               F("dummy", (27, 2), "dum", side=1)])
    a.c("bea").max_hp = a.c("cyd").max_hp = 8
    a.c("ann").cond["chem"] = "radaway"
    assert "radaway bea" in a.legal() and "radaway cyd" not in a.legal()
    a.act("radaway bea")
    assert a.c("bea").max_hp == 12


def test_the_night_field_travellers_carry_radaway():
    """The travellers of night_field face a glowing one (Radioactive): their 2d20 blocks
    carry a dose of RadAway (docs/rules/f2d20.md)."""
    best = default_bestiary()
    assert best.items["radaway"].kind == "radaway" and best.items["radaway"].f2d20_rads == 4
    for cid in ("vault_dweller", "brawler"):
        st = best.creatures[cid].f2d20
        assert st is not None and st.items.get("radaway") == 1
