"""What one simulated fight leaves behind: small, picklable, the same whichever process
fought it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MemberRecord:
    """One party member at the end of a fight."""

    went_down: bool  # out of the fight (unconscious, dying or dead) at any moment
    died: bool
    hp_lost: int  # HP at the start minus HP at the end (radiation's lost max HP included)
    hp_left: int  # HP at the end (0 or less for the fallen)
    ammo_used: int  # rounds fired or thrown: carried plus loaded, start minus end
    items_used: tuple[tuple[str, int], ...]  # (item id, how many), by item id


@dataclass(frozen=True, slots=True)
class FightRecord:
    seed: int
    winner: int | None  # the winning side, None for a draw
    rounds: int
    decisions: int
    members: tuple[MemberRecord, ...]  # the party's combatants in slot order
    # program agents' (cmd:) faults as (side, kind, count), count > 0: each a decision
    # played by a fallback action
    faults: tuple[tuple[int, str, int], ...] = ()
