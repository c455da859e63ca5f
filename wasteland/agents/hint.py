"""The player's hint (`d` in play): the packet's choice in the player's place, except a
move that hands an enemy a free attack when something else can be done.

The packet plays its creature's personality; a character whose packet keeps its distance
(``distance: snipe``) backs away from anyone close, and under PnP leaving a square next
to an armed melee enemy offers that enemy an attack of opportunity. An NPC may play so;
a new player who follows the hint should not be walked into a free attack (issue 26:
one such "move away" cost 11 HP). Whether an action provokes is read from the engine
itself: the action is tried on a fork of the battle (its own dice), and it provokes
when the next decision there is an enemy's reaction.
"""

from __future__ import annotations

from wasteland.rules.actions import ACTION_INDEX, Action
from wasteland.rules.errors import WastelandError
from wasteland.rules.fork import fork

from .base import Agent, View

RETRIES = 3  # choices set aside, at most, before the packet's own first choice is kept


def provoker(view: View, action: Action) -> str | None:
    """The enemy that ``action`` offers a reaction against the one deciding (an attack of
    opportunity, an overwatch shot), or None."""
    b = view.battle
    me = view.decision.combatant
    f = fork(b, b.seed)  # the dice do not matter: only whether a reaction is offered
    try:
        view.ruleset.apply(f, action)
    except WastelandError:  # not playable here after all: the advisor's answer stands
        return None
    if f.over:
        return None
    d = view.ruleset.decider(f)
    if d.reaction is None or f.combatants[d.combatant].side == b.combatants[me].side:
        return None
    return b.ids[d.combatant]


def safe_hint(advisor: Agent, view: View) -> tuple[Action, str]:
    """``advisor``'s choice for ``view``, and its reason; when that choice would give an
    enemy a free attack, the advisor's choice without it (at most RETRIES times), its
    reason saying what was set aside and why."""
    first = advisor.act(view)
    reason = str(getattr(advisor, "last_reason", ""))
    legal = list(view.legal_ids)
    chosen, why = first, reason
    notes: list[str] = []
    for _ in range(RETRIES):
        enemy = provoker(view, chosen)
        if enemy is None:
            break
        notes.append(f"{chosen.text(view.battle.ids, view.decision.combatant)} would give "
                     f"{enemy} a free attack")
        i = ACTION_INDEX.get(chosen)
        if i not in legal:
            return first, reason
        legal.remove(i)
        if not legal:
            return first, reason
        chosen = advisor.act(View(view.battle, view.ruleset, view.decision, list(legal)))
        why = str(getattr(advisor, "last_reason", ""))
        if ACTION_INDEX.get(chosen) not in legal:
            return first, reason  # an advisor that ignores the list: keep its first answer
    else:
        if provoker(view, chosen) is not None:
            return first, reason  # every choice tried provokes: the advisor's own stands
    if not notes:
        return first, reason
    return chosen, f"{why}; not {'; '.join(notes)}"
