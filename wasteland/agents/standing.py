"""What the search's value weighs of a battle: the shares of HP and of combatants each
camp keeps standing, and the rounds left. Its own module because both values read it:
the logistic one in agents/search.py and the network's in agents/valuenet.py, which the
search asks for; here neither imports the other to get it."""

from __future__ import annotations

from typing import Final

from wasteland.rules.battle import ACTIVE, Battle

FEATURES: Final = ("my HP share", "their HP share", "my share standing",
                   "their share standing", "HP share difference x rounds left",
                   "share of rounds left")


def features(b: Battle, side: int) -> tuple[float, ...]:
    """What the value weighs, for ``side`` (FEATURES): the shares of HP and of combatants
    each camp keeps standing (a downed or dead combatant keeps none), and the HP share
    difference scaled by the share of rounds left (a lead counts for less as the round
    limit, a draw, nears)."""
    mine = theirs = mine_max = theirs_max = 0
    up = up_max = down = down_max = 0
    for c in b.combatants:
        active = c.status == ACTIVE
        hp = max(c.hp, 0) if active else 0
        if c.side == side:
            mine, mine_max = mine + hp, mine_max + c.max_hp
            up, up_max = up + active, up_max + 1
        else:
            theirs, theirs_max = theirs + hp, theirs_max + c.max_hp
            down, down_max = down + active, down_max + 1
    a, t = mine / max(mine_max, 1), theirs / max(theirs_max, 1)
    limit = b.max_rounds
    left = max(0.0, 1 - b.round / limit) if limit else 1.0
    return (a, t, up / max(up_max, 1), down / max(down_max, 1), (a - t) * left, left)
