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
from .policy import UNKNOWN_LOGIT, Policy, forward, load_policy, policy_words, shipped_names


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


_FAST: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}


def _fast(p: Policy) -> list[tuple[np.ndarray, np.ndarray]]:
    """``p``'s layers in float32: half the time of its float64 ones, and the same most
    likely action but where two logits are within a millionth."""
    got = _FAST.get(id(p))
    if got is None:
        got = _FAST[id(p)] = [(w.astype(np.float32), b.astype(np.float32))
                              for w, b in zip(p.weights, p.biases)]
    return got


class Guide:
    """Ranks a combatant's legal actions by its kind's policy, and plays the policies'
    combatants of one side in a continuation. One Guide a search agent; its encoders are
    built per battle (a continuation's fork is a new battle)."""

    def __init__(self, ruleset: str, side: int) -> None:
        self.policies = policies_for(ruleset)
        self.side = side
        self._battle: Battle | None = None
        self._enc: Any = None
        # the memory to observe a battle with (observe/memory.py): the game's, or a copy
        # of it for a continuation's fork (``bind``); another battle: one of its own
        self._memory: tuple[Battle, Any] | None = None

    def bind(self, battle: Battle, memory: Any) -> None:
        """Observe ``battle`` with ``memory`` from now on."""
        if self._memory is None or self._memory[0] is not battle or self._memory[1] is not memory:
            self._memory = (battle, memory)
            self._enc = None

    def policy(self, b: Battle, slot: int) -> Policy | None:
        """The policy that plays combatant ``slot`` of ``b``, if any."""
        c = b.combatants[slot]
        if c.side != self.side:
            return None
        return self.policies.get(c.creature.id)

    def _encoder(self, view: View) -> Any:
        if self._battle is not view.battle or self._enc is None:
            from wasteland.observe.encoding import Encoder

            got = self._memory
            self._enc = Encoder(view.battle, view.ruleset,
                                memory=got[1] if got is not None and got[0] is view.battle
                                else None)
            self._battle = view.battle
        return self._enc

    def _logits(self, view: View, p: Policy) -> tuple[np.ndarray, list[int], list[int]]:
        """The policy's logits of ``view``'s legal actions, those actions in the policy's
        own (egocentric) numbering, and the observation's order of combatants."""
        from wasteland.observe.encoding import ego_ids

        enc = self._encoder(view)
        enc.side_sight = p.sight == "side"
        me = view.me.slot
        order = enc.order(me)
        x = enc.observe(me, view.decision, order)
        x = forward(x, _fast(p), p.activation)
        legal = ego_ids(view.legal_ids, order)
        # actions appended to the table after the policy was trained: never preferred
        z = np.array([x[e] if e < len(x) else UNKNOWN_LOGIT for e in legal], np.float64)
        return z, legal, order

    def ranked(self, view: View, p: Policy) -> list[tuple[int, float]]:
        """``view``'s legal actions as (action id, probability), most likely first (ties in
        the order the policy agent breaks them, so ``best`` is the first)."""
        from wasteland.observe.encoding import to_table

        z, legal, order = self._logits(view, p)
        z = np.exp(z - z.max())
        probs = z / z.sum()
        out = []
        for k, e in enumerate(legal):
            t = to_table(e, order)
            if t is not None:
                out.append((t, float(probs[k])))
        out.sort(key=lambda x: -x[1])  # stable: ties keep the policy's order
        return out

    def best(self, view: View, p: Policy) -> int:
        """The id of the policy's most likely legal action (``ranked(...)[0][0]``, without
        the probabilities: a continuation asks this at every decision)."""
        from wasteland.observe.encoding import to_table

        z, legal, order = self._logits(view, p)
        t = to_table(legal[int(np.argmax(z))], order)
        assert t is not None
        return t

    def agent(self, packet: Any) -> GuidedAgent:
        """An agent for one side of a continuation: the policies' combatants by their
        policies, the rest by ``packet``."""
        return GuidedAgent(self, packet)


class GuidedAgent:
    """A continuation's player for the searching side (Guide.agent)."""

    def __init__(self, guide: Guide, packet: Any) -> None:
        self.guide = guide
        self.packet = packet
        self.last_reason = ""

    def observe_with(self, battle: Battle, memory: Any) -> None:
        """The continuation's memory (agents/base.py ``share_memory``), for its guide."""
        self.guide.bind(battle, memory)

    def act(self, view: View) -> Action:
        p = self.guide.policy(view.battle, view.me.slot)
        if p is None:
            action: Action = self.packet.act(view)
            self.last_reason = f"packet: {self.packet.last_reason}"
            return action
        action = ACTION_TABLE[self.guide.best(view, p)]
        from wasteland.rules.words import plainly

        self.last_reason = (f"policy {policy_words(p.name)}: "
                            f"{plainly(view.battle, action, view.me.slot)}")
        return action
