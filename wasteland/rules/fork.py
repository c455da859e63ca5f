"""The one fork of a battle, for everything that looks ahead (the search agent, `odds`,
`simulate --from`): a copy that shares what no fight writes (the map, the scenario, the
stat blocks), copies the rest, and rolls its own dice. The battle's own RNG is neither
read nor advanced, so whatever forks it cannot see the future dice.
"""

from __future__ import annotations

import random

from .battle import Battle, Combatant, json_copy


def fork(b: Battle, seed: int) -> Battle:
    """A quiet copy of ``b`` with its own dice, seeded ``seed``: the map, the scenario and
    the stat blocks are shared (no fight writes them), everything a save holds as state is
    copied. No log, no history, no table dice (a GM's --physical-dice hook is dropped), no
    session. Built with the constructors rather than copy.copy, which the engine's classes
    need not support once compiled."""
    party = [Combatant(slot=c.slot, id=c.id, side=c.side, creature=c.creature,
                       weapons=c.weapons[:c.own_weapons],
                       weapon_bonus=c.weapon_bonus[:c.own_weapons], armor=c.armor,
                       pos=c.pos, hp=c.hp, max_hp=c.max_hp) for c in b.combatants]
    for mine, theirs in zip(party, b.combatants):
        # the native copies of its weapons and numbers (facts.py), made from what no fight
        # writes and checked against it at each use: made again in every fork, they were
        # 6% of a PnP deadly decision
        mine.arms = list(theirs.arms)
        mine.traits_of = theirs.traits_of
    out = Battle(b.ruleset, b.scenario, b.grid, party, list(b.side_names), b.seed,
                 random.Random(seed), b.items, keep_log=False)
    out.quiet = True
    out.rules = b.rules
    out.book = b.book.copy()  # of its ruleset's kind; restore fills it in
    state = b.state(rng=False)  # its dice are its own, seeded above: the battle's unread
    state["pending_move"] = json_copy(state["pending_move"])
    out.restore(state)  # every combatant's and the battle's dynamic state, copied (and the
    # weapons taken in the fight, from the state)
    return out
