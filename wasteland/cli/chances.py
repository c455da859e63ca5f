"""Hit chances of the attack-like actions that the rulesets' plain odds do not price (issue
26, item 5): a two-weapon attack, a pistol whip, an attack paired with another action
(PnP), a disarm (Simple). The ruleset's tactics work them out (``menu_chances``) with the
same modifiers the engine rolls against, so the menu's number is the engine's chance.

A two-weapon action makes two attacks: both chances are given, the weapon in hand's
first."""

from __future__ import annotations

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.tactics import tactics_of

EXTRA_KINDS = ("attack2", "whip", "pair", "disarm")


def extra_chances(b: Battle, c: Combatant, a: Action) -> tuple[float, ...] | None:
    """The chances that the attacks of ``a`` hit, or None for another kind (or one the
    ruleset does not have)."""
    if a.kind not in EXTRA_KINDS or a.target is None:
        return None
    try:
        return tactics_of(b).menu_chances(b, c, a)
    except (KeyError, IndexError, ValueError, ZeroDivisionError):
        return None  # a helper that cannot price this one: the menu shows the action bare
