"""The core of the packet agent: its state (the packet, the creature's with the scenario's
overrides and the agent's own; the legal actions of the view in hand; the reason a decision
is stated with) in ``Core``, and what every part of a decision reads off the battle: AP
costs, zones, threats, its full HP, reasons to run, odds.

The parts of a decision are functions by concern, each in its module (weapons, movement,
attack, aid, spare, windows, phases), that take the ``Core`` they decide with; PacketAgent
(agent.py) holds one and plays a turn with them."""

from __future__ import annotations

import random
from typing import Any, Final

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import ACTION_INDEX, Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View
from .odds import FLOOR_AP, hit_chance
from .traits import hurt_part

SNIPE_CLOSE: Final = 3  # squares: a sniper backs away from an enemy this close
END: Final = Action("end")


class Core:
    """What a packet agent keeps between and within decisions: its coin flips' RNG, the
    ``overrides`` (combatant id -> packet fields), the packets looked up, the legal actions
    of the view it is deciding on, and the reason it states its decision with."""

    def __init__(self, seed: int = 0, overrides: dict[str, dict[str, Any]] | None = None
                 ) -> None:
        self.rng = random.Random(seed)
        self.overrides = overrides or {}
        self._reason = ""
        # the reason as say got it, its spacing tidied only when someone reads it: a
        # simulation never does, and tidying took 1% of a 2d20 decision
        self._raw: str | None = None
        self._packets: dict[tuple[int, str], AIPacket] = {}
        self._scenario: object = None
        self.note = ""  # appended to this decision's reason (why it is not running)
        # the legal ids of the view last asked about, as a set: a decision asks legal
        # several times, and the ruleset's list is searched one by one
        self._legal_view: object = None
        self._legal_set: set[int] = set()

    def packet(self, c: Combatant, b: Battle | None = None) -> AIPacket:
        """``c``'s packet: its creature's, then the scenario placement's ``ai`` (the k-th
        placement over all sides is combatant slot k), then this agent's overrides."""
        if b is not None and b.scenario is not self._scenario:
            self._scenario = b.scenario
            self._packets.clear()
        key = (c.slot, c.id)
        got = self._packets.get(key)
        if got is None:
            fields: dict[str, Any] = {}
            if b is not None:
                placements = [p for side in b.scenario.sides for p in side.combatants]
                if c.slot < len(placements) and placements[c.slot].creature == c.creature.id:
                    fields.update(placements[c.slot].ai or {})
            fields.update(self.overrides.get(c.id) or {})
            got = (AIPacket.model_validate({**c.creature.ai.model_dump(), **fields})
                   if fields else c.creature.ai)
            if b is not None:
                self._packets[key] = got
        return got

    def legal(self, view: View, action: Action) -> bool:
        idx = ACTION_INDEX.get(action)
        if idx is None:
            return False
        if view is not self._legal_view:
            self._legal_view = view
            self._legal_set = set(view.legal_ids)
        return idx in self._legal_set

    @property
    def last_reason(self) -> str:
        """The last decision's reason, in one line."""
        if self._raw is not None:
            self._reason = " ".join(self._raw.split())
            self._raw = None
        return self._reason

    @last_reason.setter
    def last_reason(self, reason: str) -> None:
        self._reason = reason
        self._raw = None

    def say(self, action: Action, reason: str) -> Action:
        self._raw = reason + self.note
        return action

    def end(self, view: View, reason: str) -> Action:
        if self.legal(view, END):
            return self.say(END, reason)
        return self.say(view.legal[0], reason)


def _costs(b: Battle, me: Combatant) -> tuple[int, int, int]:
    """(AP the next minor action costs, AP the next major costs, the side's pool);
    nothing costs AP outside 2d20."""
    x = b.book.economy()
    if x is None:
        return 0, 0, 0
    return (0 if x.minor == 0 else 1, 0 if x.major == 0 else 2, int(x.pools[me.side]))


def _threats(b: Battle, me: Combatant, enemies: list[Combatant],
             running: bool = False) -> list[Combatant]:
    """Enemies that could close in and strike on their next turn (2d20: in the same or
    the next zone; PnP: within their speed plus reach), nearest first. ``running``:
    those it is worth running from - a gunman only when it is close (running in the
    open from a gun does not help, so a coward shoots back at a distant one)."""
    g = b.grid
    zones = _zones(b)
    out = []
    for e in enemies:
        gun = e.weapon.kind == "ranged"
        if zones is not None:
            near = zones.band(e.pos, me.pos) <= (0 if running and gun else 1)
        elif running and gun:
            near = g.dist(e.pos, me.pos) <= SNIPE_CLOSE
        else:
            reach = e.weapon.reach if not gun else 1
            near = g.dist(e.pos, me.pos) <= e.creature.pnp.speed + reach
        if near:
            out.append(e)
    return sorted(out, key=lambda e: (g.dist(me.pos, e.pos), e.slot))


def _zones(b: Battle) -> Any:
    """The map as zones, for a ruleset whose ranges and moves count zones; else None."""
    return tactics_of(b).zones(b)


def _full_hp(b: Battle, me: Combatant) -> int:
    """Its maximum HP before radiation damage (2d20 lowers the maximum; elsewhere the
    maximum is the maximum)."""
    return tactics_of(b).full_hp(me)


def _flee_reason(me: Combatant, p: AIPacket) -> str | None:
    if p.flee_below and me.hp * 100 <= p.flee_below * me.max_hp:
        return f"HP {me.hp}/{me.max_hp}, at or under the {p.flee_below}% where it runs"
    for part in p.hurt_too_much:
        loc = "head" if part == "blind" else part
        if me.crippled.get(loc, 0):
            return hurt_part(part)
    return None


def _run(k: Core, view: View, me: Combatant, p: AIPacket, enemies: list[Combatant],
         flee: str | None) -> Action | None:
    """With a reason to flee: away from the nearest that can reach it, by sprint or
    move; else None, with why it stays noted for this decision's reason."""
    note = ""
    if flee:
        threats = _threats(view.battle, me, enemies, running=True)
        if p.distance == "stay":
            note = f" ({flee}, but it holds its post)"
        elif threats:
            near = threats[0]
            for kind in ("sprint", "move"):
                a = Action(kind, near.slot, "away")
                if k.legal(view, a):
                    return k.say(a, f"flees from {near.id}: {flee}")
            note = f" (cornered: {flee})"
        else:
            note = f" ({flee}, but no enemy is near)"
    k.note = note
    return None


# --- odds ----------------------------------------------------------------------------
def _odds(view: View, me: Combatant, t: Combatant, location: str | None,
          p: AIPacket, ws: int | None = None) -> tuple[float, int]:
    """(chance to hit, d20s it would buy for it): a ruleset that sells extra d20s for
    AP (2d20) has it buy dice with the side's AP while a die adds more to the odds than
    the AP are worth to it (less, the more aggressive it is); elsewhere it buys
    nothing."""
    base = hit_chance(view, me, t, location, ws)
    b = view.battle
    costs = tactics_of(b).extra_dice_cost
    if not costs or base >= 1.0:
        return base, 0
    _minor, major, pool = _costs(b, me)
    if view.decision.slot == "act":
        pool -= major  # the attack itself may cost AP first
    worth = 0.2 - 0.12 * p.aggression / 100
    best, best_v, best_p = 0, base, base
    for n in range(1, len(costs)):
        if costs[n] > pool:
            break
        pn = hit_chance(view, me, t, location, ws, n)
        v = pn - worth * costs[n]
        if v > best_v + 1e-9:
            best, best_v, best_p = n, v, pn
    return best_p, best


def _floor(b: Battle, p: AIPacket) -> float:
    """The least chance it attacks at: min_to_hit, and under an AP economy (2d20) at
    least 10% (a wasted major action there costs what a rally would have banked)."""
    return max(p.min_to_hit / 100, FLOOR_AP if tactics_of(b).ap_economy else 0.0)
