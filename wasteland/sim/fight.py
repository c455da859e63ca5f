"""One fight on the engine directly: no env, no event objects, no log. The same seed and
agents give the fight `wasteland fight --seed K --agents ...` shows (a test holds it)."""

from __future__ import annotations

from collections import Counter

from wasteland.agents.base import share_memory
from wasteland.agents.external import close_agents, faults_of
from wasteland.agents.loop import by_side, play
from wasteland.agents.make import make_agent
from wasteland.observe.memory import Memory
from wasteland.rules.battle import ACTIVE, DEAD, Battle, Combatant
from wasteland.rules.protocol import Ruleset

from .record import FightRecord, MemberRecord
from .spec import SimSpec

# agents asked nothing when a decision has one legal action: the packet keeps nothing from
# such a decision and draws no dice for it (only 2d20's `end` is ever forced, 18% of a
# 2d20 fight's decisions), so taking it for the packet plays the same fight. Others may
# count or draw on every decision (random draws a die even from a list of one).
SKIPS_FORCED = frozenset({"packet"})


def rounds_held(c: Combatant) -> int:
    """Ammunition carried plus rounds in the magazines: a reload moves rounds from one to
    the other, so only firing (or throwing) lowers the sum."""
    return sum(c.ammo.values()) + sum(w.loaded for w in c.weapon_states)


def fight(rs: Ruleset, spec: SimSpec, seed: int) -> FightRecord:
    """Fight ``spec`` once with ``seed``: the battle's dice from ``seed``, side i's agent
    from ``seed + i``, as `wasteland fight` seeds them."""
    b = rs.new_battle(spec.scenario, seed, keep_log=False)
    return play_out(rs, b, spec.agents, spec.party, seed)


def play_out(rs: Ruleset, b: Battle, kinds: tuple[str, ...], side: int, seed: int,
             first_round: int = 0, memory: Memory | None = None) -> FightRecord:
    """Play ``b`` to its end from where it stands, side i's agent of kind ``kinds[i]``
    seeded ``seed + i``; the record counts what happens from here (HP lost since now, a
    member going down or dying here), for the combatants of ``side`` in slot order;
    its rounds are the battle's round at the end less ``first_round``. The agents that
    observe share one memory, a copy of ``memory`` (what was seen before ``b``'s moment)."""
    b.quiet = True
    agents = [make_agent(k, seed + i) for i, k in enumerate(kinds)]
    share_memory(agents, b, memory.copy() if memory is not None else Memory())
    party = [c for c in b.combatants if c.side == side]
    start = [(c.hp, rounds_held(c), dict(c.items)) for c in party]
    # a member already out when play starts (a saved moment) does not go down again here,
    # and one already dead does not die here
    up = [c.status == ACTIVE for c in party]
    alive = [c.status != DEAD for c in party]
    down = [False] * len(party)

    # going down is watched between decisions, not read from the end: no rule brings the
    # fallen back today (2d20's dying are stabilized, not revived), but one that did would
    # otherwise hide a fall; the loop calls this only while someone of the side is out
    def fell() -> None:
        for i, c in enumerate(party):
            if c.status != ACTIVE:
                down[i] = True

    decisions, _ = play(rs, b, by_side(b, agents),
                        forced=[kinds[c.side] in SKIPS_FORCED for c in b.combatants],
                        watch=(side, fell))
    faults = tuple((side_i, k, n) for side_i, a in enumerate(agents)
                   for k, n in faults_of([a]).items() if n)
    close_agents(agents, b)  # a program goes back to the pool for the next fight
    members = []
    for i, (c, (hp0, ammo0, items0)) in enumerate(zip(party, start)):
        used = Counter(items0)
        used.subtract(c.items)
        members.append(MemberRecord(
            went_down=up[i] and (down[i] or c.status != ACTIVE),
            died=alive[i] and c.status == DEAD, hp_lost=hp0 - c.hp, hp_left=max(c.hp, 0),
            ammo_used=ammo0 - rounds_held(c),
            items_used=tuple(sorted((k, n) for k, n in used.items() if n > 0))))
    return FightRecord(seed=seed, winner=b.winner, rounds=b.round - first_round, decisions=decisions,
                       members=tuple(members), faults=faults)
