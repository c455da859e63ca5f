"""The shipped policies inside the search (``search:base=policy``): where a policy was
trained for a combatant's kind under the battle's ruleset, its probabilities order and
prune that combatant's candidates and it plays that combatant in the continuations (its
most likely legal action); everyone else is played by the packet, as in a plain search.

Only the searching side is played by policies: the other side is a party at the table, or
whoever a benchmark puts there, and the search models it with the packet as before.

A policy is only as good as the line-ups it was trained on, so the packet's choice is always
among the candidates (agents/search.py): where the policy errs, the packet's choice beats it
on the same continuations and is played.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from wasteland.rules.actions import ACTION_TABLE, Action
from wasteland.rules.battle import Battle

from .base import View
from .policy import Policy, load_policy, shipped_names


@functools.cache
def policies_for(ruleset: str) -> dict[str, Policy]:
    """The shipped policies of ``ruleset`` by the creature kind each was trained for (read
    once a process; a shipped file that does not match the code is refused in one line, as
    when it is named as an agent)."""
    out: dict[str, Policy] = {}
    for name in shipped_names():
        p = load_policy(name)
        if p.ruleset != ruleset:
            continue
        for kind in sorted(p.kinds):
            out.setdefault(kind, p)
    return out


class Guide:
    """Ranks a combatant's legal actions by its kind's policy, and plays the policies'
    combatants of one side in a continuation. One Guide a search agent; its encoders are
    built per battle (a continuation's fork is a new battle)."""

    def __init__(self, ruleset: str, side: int) -> None:
        self.policies = policies_for(ruleset)
        self.side = side
        self._battle: Battle | None = None
        self._enc: Any = None

    def policy(self, b: Battle, slot: int) -> Policy | None:
        """The policy that plays combatant ``slot`` of ``b``, if any."""
        c = b.combatants[slot]
        if c.side != self.side:
            return None
        return self.policies.get(c.creature.id)

    def _encoder(self, view: View) -> Any:
        if self._battle is not view.battle:
            from wasteland.envs.encoding import Encoder

            self._enc = Encoder(view.battle, view.ruleset)
            self._battle = view.battle
        return self._enc

    def ranked(self, view: View, p: Policy) -> list[tuple[int, float]]:
        """``view``'s legal actions as (action id, probability), most likely first (ties in
        table order, so a decision is the same on every machine)."""
        from wasteland.envs.encoding import ego_ids, to_table

        enc = self._encoder(view)
        enc.side_sight = p.sight == "side"
        me = view.me.slot
        order = enc.order(me)
        logits = p.logits(enc.observe(me, view.decision, order))
        legal = ego_ids(view.legal_ids, order)
        z = logits[legal]
        z = np.exp(z - z.max())
        probs = z / z.sum()
        out = []
        for k, e in enumerate(legal):
            t = to_table(e, order)
            if t is not None:
                out.append((t, float(probs[k])))
        out.sort(key=lambda x: (-x[1], x[0]))
        return out

    def agent(self, seed: int, packet: Any) -> GuidedAgent:
        """An agent for one side of a continuation: the policies' combatants by their
        policies, the rest by ``packet``."""
        return GuidedAgent(self, packet)


class GuidedAgent:
    """A continuation's player for the searching side (Guide.agent)."""

    def __init__(self, guide: Guide, packet: Any) -> None:
        self.guide = guide
        self.packet = packet
        self.last_reason = ""

    def act(self, view: View) -> Action:
        p = self.guide.policy(view.battle, view.me.slot)
        if p is None:
            action: Action = self.packet.act(view)
            self.last_reason = f"packet: {self.packet.last_reason}"
            return action
        best, prob = self.guide.ranked(view, p)[0]
        action = ACTION_TABLE[best]
        self.last_reason = (f"policy {p.name}: {action.text(view.battle.ids, view.me.slot)}, "
                            f"p={prob:.2f}")
        return action
