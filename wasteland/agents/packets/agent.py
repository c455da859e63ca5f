"""PacketAgent: a turn by its packet, in order - chems when hurt, running when it must,
aid, then weapon, reload, position, attack or manoeuvre (the package docstring says how
each packet field acts). It holds a ``Core`` (packet.py: its state) and decides with the
functions of each concern's module; 2d20's windows (windows.py) and Simple's phases
(phases.py) are decided there whole."""

from __future__ import annotations

import random
from typing import Any

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View
from .aid import CHEM_BELOW, _care
from .attack import _strike
from .movement import _disarmed, _keep_distance, _lie_low, _reposition
from .packet import Core, _costs, _flee_reason, _floor, _full_hp, _run
from .phases import _simple
from .spare import _manoeuvre
from .traits import chems, odds_floor
from .weapons import _area_blocked, _armed, _target, _weapon
from .windows import _react, _window


class PacketAgent:
    """Plays one combatant by its packet; ``overrides`` (combatant id -> packet fields)
    replace packet fields on top of the scenario's own ``ai`` overrides (a GM's per-fight
    changes). ``seed`` drives its few coin flips (called shots)."""

    name = "packet"

    def __init__(self, seed: int = 0, overrides: dict[str, dict[str, Any]] | None = None
                 ) -> None:
        self.k = Core(seed, overrides)

    def __reduce__(self) -> tuple[Any, ...]:
        # copy and pickle by hand: mypyc's own support for that skips the __init__ of a
        # base class, and an env copied with its packet opponents must play on the same
        k = self.k
        return (_rebuilt, (type(self), k.rng.getstate(), k.overrides, k.last_reason))

    @property
    def rng(self) -> random.Random:
        return self.k.rng

    @property
    def overrides(self) -> dict[str, dict[str, Any]]:
        return self.k.overrides

    @property
    def last_reason(self) -> str:
        """The last decision's reason, in one line."""
        return self.k.last_reason

    @last_reason.setter
    def last_reason(self, reason: str) -> None:
        self.k.last_reason = reason

    def packet(self, c: Combatant, b: Battle | None = None) -> AIPacket:
        """``c``'s packet: its creature's, then the scenario placement's ``ai``, then this
        agent's overrides (Core.packet)."""
        return self.k.packet(c, b)

    def _paired_stimpak(self, view: View, me: Combatant, p: AIPacket,
                        enemies: list[Combatant], hurt: str) -> Action | None:
        """PnP, hurt enough for a stimpak: in the Large action (the Small one spent), a shot
        or blow and the stimpak at once (``pair X stimpak``, -8 to the attack) when the odds
        at -8 still meet min_to_hit; in the Small action with no one to attack from here,
        the move that brings it within reach first, keeping the stimpak for that pair."""
        b = view.battle
        tac = tactics_of(b)
        if not tac.pairs or me.weapon.hands != 1 or not _armed(b, me):
            return None
        if _flee_reason(me, p):
            return None
        t, why = _target(b, me, p, enemies)
        g = b.grid
        if b.slot == "large":
            floor = _floor(b, p)
            order = [t] + sorted((e for e in enemies if e is not t),
                                 key=lambda e: (g.dist(me.pos, e.pos), e.slot))
            for e in order:
                a = Action("pair", e.slot, "stimpak")
                if not self.k.legal(view, a) or _area_blocked(b, me, me.active_weapon, e, p):
                    continue
                chance = tac.pair_hit_chance(b, me, e)
                if chance > 0 and chance >= floor:
                    return self.k.say(a, f"attacks {e.id} and takes a stimpak at once (two "
                                        f"hands, -8: {chance:.0%} to hit, "
                                        f"{odds_floor(p.min_to_hit)}): {hurt}")
            return None
        if b.slot != "small" or any(self.k.legal(view, Action("attack", e.slot))
                                    for e in enemies):
            return None
        plan = self._fight(view, me, p, enemies)
        if plan.kind == "move" and plan.option == "toward" and me.items:
            return self.k.say(plan, f"{self.k.last_reason}; keeps its stimpak to take with an "
                                   f"attack once there: {hurt}")
        return None

    # --- deciding ------------------------------------------------------------------------
    def act(self, view: View) -> Action:
        b, me, dec = view.battle, view.me, view.decision
        p = self.k.packet(me, b)
        self.k.note = ""
        if tactics_of(b).phases:  # a decision per phase (Simple): phases.py
            return _simple(self.k, view, me, p)
        if dec.slot in ("dice", "boost", "defend"):
            return _window(self.k, view, me, p)
        if dec.reaction is not None:
            return _react(self.k, view, me, p)
        return self._turn(view, me, p)

    def _turn(self, view: View, me: Combatant, p: AIPacket) -> Action:
        b = view.battle
        enemies = b.enemies_of(me)
        if not enemies:
            return self.k.end(view, "no enemy left standing")
        minor, major, pool = _costs(b, me)
        # chems first when hurt
        below = CHEM_BELOW[p.chem_use]
        if below and me.hp * 100 <= me.max_hp * below and minor <= pool:
            a = Action("stimpak", me.slot)
            if self.k.legal(view, a):
                hurt = f"HP {me.hp}/{me.max_hp} under {below}% ({chems(p.chem_use)})"
                paired = self._paired_stimpak(view, me, p, enemies, hurt)
                if paired is not None:
                    return paired
                return self.k.say(a, f"HP {me.hp}/{me.max_hp} under {below}%: heals itself "
                                    f"({chems(p.chem_use)})")
            a = Action("draw_chem", None, "stimpak")  # 2d20: a chem is drawn first
            if self.k.legal(view, a):
                return self.k.say(a, f"HP {me.hp}/{me.max_hp} under {below}%: draws a "
                                    f"stimpak to heal itself ({chems(p.chem_use)})")
        full = _full_hp(b, me)
        if below and me.max_hp * 100 <= full * below and minor <= pool:
            why = (f"radiation has cut its maximum HP to {me.max_hp}/{full}, at or under "
                   f"{below}% ({chems(p.chem_use)})")
            for a, verb in ((Action("radaway", me.slot), "takes"),
                            (Action("draw_chem", None, "radaway"), "draws")):
                if self.k.legal(view, a):
                    return self.k.say(a, f"{verb} RadAway: {why}")
        flee = _flee_reason(me, p)
        if not _armed(b, me):
            return _disarmed(self.k, view, me, p, enemies)
        run = _run(self.k, view, me, p, enemies, flee)
        if run is not None:
            return run
        if not flee:
            care = _care(self.k, view, me, p)
            if care is not None:
                return care
        if me.cond.get("prone") and self.k.legal(view, Action("stand")):
            low, why = _lie_low(view, me, p, enemies)
            if low and not any(self.k.legal(view, Action("attack", e.slot)) for e in enemies):
                low, why = False, "nothing to shoot from the floor"
            if not low:
                return self.k.say(Action("stand"), f"stands up: {why}")
        return self._fight(view, me, p, enemies)

    def _fight(self, view: View, me: Combatant, p: AIPacket,
               enemies: list[Combatant]) -> Action:
        """The rest of a turn: weapon, reload, position, attack or manoeuvre."""
        b = view.battle
        t, why = _target(b, me, p, enemies)
        draw = _weapon(self.k, view, me, t, p)
        if draw is not None:
            return draw
        w = me.weapon
        if (tactics_of(b).magazines and w.magazine != "none"
                and (me.wstate.loaded == 0 or me.wstate.reload_step)
                and self.k.legal(view, Action("reload"))):
            return self.k.say(Action("reload"), f"{w.name} is empty: reloads")
        step = _keep_distance(self.k, view, me, p, enemies) or _reposition(self.k, view, me, p, enemies)
        if step is not None:
            return step
        strike = _strike(self.k, view, me, t, p, why, enemies)
        if strike is not None:
            return strike
        return _manoeuvre(self.k, view, me, t, p, why)



def _rebuilt(cls: type[PacketAgent], rng_state: Any, overrides: dict[str, dict[str, Any]],
             reason: str) -> PacketAgent:
    agent = cls(0, overrides)
    agent.k.rng.setstate(rng_state)
    agent.last_reason = reason
    return agent
