"""The AI packet's fields in the words a GM reads (issue 41): a reason says "a bold
fighter" or "uses stimpaks when hurt", never "aggression 80" or "chem_use
stims_when_hurt". The fields themselves (bestiary/models.py AIPacket) keep their names in
the bestiary files, the scenarios' overrides and the search agent's plans."""

from __future__ import annotations

from typing import Final

# (highest aggression, what a fighter of it is), lowest first
TEMPERS: Final = ((20, "a cautious fighter"), (40, "a wary fighter"), (60, "a steady fighter"),
                  (80, "a bold fighter"), (100, "a reckless fighter"))

CHEMS: Final = {"never": "never uses chems", "sometimes": "uses chems now and then",
                "always": "uses chems freely", "stims_when_hurt": "uses stimpaks when hurt"}

PREFERS: Final = {"any": "any weapon will do", "melee": "prefers melee weapons",
                  "ranged": "prefers ranged weapons", "unarmed": "prefers to fight unarmed"}


def temper(aggression: int) -> str:
    """What aggression makes of it: how readily it spends AP and risks to hurt."""
    return next((words for top, words in TEMPERS if aggression <= top), TEMPERS[-1][1])


def odds_floor(min_to_hit: int) -> str:
    """The least chance it attacks at."""
    return "it takes any odds" if min_to_hit <= 0 else f"it attacks at {min_to_hit}% or better"


def aims(called_freq: int) -> str:
    """How often it aims at a body part."""
    if called_freq <= 0:
        return "it never aims at a body part"
    if called_freq >= 100:
        return "it always aims at a body part"
    return f"it aims at a body part in {called_freq}% of its attacks"


def chems(chem_use: str) -> str:
    return CHEMS.get(chem_use, "uses stimpaks when hurt")


def prefers(best_weapon: str) -> str:
    return PREFERS.get(best_weapon, "any weapon will do")


def hurt_part(part: str) -> str:
    """A crippled (PnP) or injured (2d20) part that makes it run ("blind": the head)."""
    return "blinded" if part == "blind" else f"its {part} hurt too much"
