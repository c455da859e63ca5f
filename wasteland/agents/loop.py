"""The fight loop: the one place where agents are asked in turn and their choices applied.

Every caller that lets agents fight goes through `play`: a Monte Carlo fight (sim), `wasteland
fight`, the NPCs of `wasteland play` and of the GM's table, seat evaluations and arenas in
training, the opponents inside the envs, the search's continuations. What differs between
them is passed in as hooks, and a hook left out costs one test per decision, never a call:
the simulator's hot path is this loop with only ``forced`` and ``watch`` given.

A fight is not always the loop's to finish: a decision whose seat holds None (a person at
a prompt, an env's learner, the GM who accepts each proposal) stops it, and the caller gets
that decision back; it answers it its own way and calls `play` again. Nothing here keeps
state between calls, so an undo that replaces the battle needs nothing from the loop.

Layering: the loop needs the Agent protocol and the rules, nothing above them, so the envs
(which auto-play opponents) can use it as well as sim, training and the command line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from wasteland.rules.actions import ACTION_TABLE, Action
from wasteland.rules.battle import Battle
from wasteland.rules.protocol import Decision, Ruleset

from .base import Agent, View

NO_LIMIT: Final = 1 << 62

Decide = Callable[[View, Agent], "Action | None"]
Take = Callable[[View, Agent, Action], object]
Watch = tuple[int, Callable[[], object]]


def by_side(b: Battle, agents: Sequence[Agent | None]) -> list[Agent | None]:
    """Seats for `play` from one agent per side: each combatant is played by its side's."""
    return [agents[c.side] for c in b.combatants]


def checked(rs: Ruleset) -> Take:
    """An ``apply`` hook for `play` that has the ruleset check each action first (a goto
    an agent worked out on stale knowledge, observe/fog.py, is checked against the board)."""
    def apply(view: View, agent: Agent, action: Action) -> None:
        rs.apply(view.battle, action)
    return apply


def play(rs: Ruleset, b: Battle, seats: Sequence[Agent | None], *,
         # params: seven optional hooks by keyword; kept apart, an unused one is one test
         forced: Sequence[bool] | None = None,
         decide: Decide | None = None,
         apply: Take | None = None,
         after: Take | None = None,
         stop: Callable[[Battle], bool] | None = None,
         watch: Watch | None = None,
         limit: int = NO_LIMIT) -> tuple[int, Decision | None]:
    """Let the agents in ``seats`` (one per combatant slot, as ``b.combatants`` numbers
    them) decide in turn and apply their choices until the battle is over, ``limit``
    decisions were taken, ``stop(b)`` (asked before each decision) says so, or the deciding
    combatant's seat is None. Returns how many decisions were taken and the decision it
    stopped at for lack of an agent (None otherwise), before any legal action was worked
    out for it.

    Hooks, each optional:

    - ``forced[slot]``: take a decision with one legal action without asking that seat's
      agent (sim's SKIPS_FORCED: an agent that keeps nothing from such a decision);
    - ``decide(view, agent)``: ask the agent in the caller's way (a thinking line, a time
      budget, its random state noted first); None hands the decision back to the caller as
      if the seat were empty;
    - ``apply(view, agent, action)``: apply it in the caller's way (physical dice, a
      snapshot to restore when interrupted, the line that says it); by default
      ``rs.apply(b, action, check=False)``: the agents pick among the legal actions, so
      most callers need no second check (`checked` makes one);
    - ``after(view, agent, action)``: once it is applied (the events told, a save, a count);
    - ``watch``: (side, called): ``called()`` after each decision while a member of
      ``side`` is not active, so a fall is seen when it happens, not read from the end.

    In the forced case ``agent`` is the seat's agent, which was not asked.
    """
    decider, legal_ids, rs_apply, table = rs.decider, rs.legal_ids, rs.apply, ACTION_TABLE
    watched, on_out = watch if watch is not None else (0, None)
    # counted only when watched: the envs call play once a step
    whole = sum(1 for c in b.combatants if c.side == watched) if on_out is not None else 0
    n = 0
    while n < limit and not b.over:
        if stop is not None and stop(b):
            break
        dec = decider(b)
        agent = seats[dec.combatant]
        if agent is None:
            return n, dec
        ids = legal_ids(b)
        v = View(b, rs, dec, ids)
        if len(ids) == 1 and forced is not None and forced[dec.combatant]:
            action = table[ids[0]]
        elif decide is None:
            action = agent.act(v)
        else:
            chosen = decide(v, agent)
            if chosen is None:
                return n, dec
            action = chosen
        if apply is None:
            rs_apply(b, action, False)
        else:
            apply(v, agent, action)
        n += 1
        if after is not None:
            after(v, agent, action)
        # standing counts only the active, so this costs one comparison while all stand
        if on_out is not None and b.standing[watched] < whole:
            on_out()
    return n, None
