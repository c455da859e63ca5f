"""PacketAgent: a turn by its packet, in order - chems when hurt, running when it must,
aid, then weapon, reload, position, attack or manoeuvre (the package docstring says how
each packet field acts)."""

from __future__ import annotations

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import Action
from wasteland.rules.battle import Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View
from .aid import CHEM_BELOW
from .phases import Phases
from .traits import chems


class PacketAgent(Phases):
    """Plays one combatant by its packet; ``overrides`` (combatant id -> packet fields)
    replace packet fields on top of the scenario's own ``ai`` overrides (a GM's per-fight
    changes). ``seed`` drives its few coin flips (called shots)."""

    name = "packet"

    # --- deciding ------------------------------------------------------------------------
    def act(self, view: View) -> Action:
        b, me, dec = view.battle, view.me, view.decision
        p = self.packet(me, b)
        self._note = ""
        if tactics_of(b).phases:  # a decision per phase (Simple): phases.py
            return self._simple(view, me, p)
        if dec.slot in ("dice", "boost", "defend"):
            return self._window(view, me, p)
        if dec.reaction is not None:
            return self._react(view, me, p)
        return self._turn(view, me, p)

    def _turn(self, view: View, me: Combatant, p: AIPacket) -> Action:
        b = view.battle
        enemies = b.enemies_of(me)
        if not enemies:
            return self._end(view, "no enemy left standing")
        minor, major, pool = self._costs(b, me)
        # chems first when hurt
        below = CHEM_BELOW[p.chem_use]
        if below and me.hp * 100 <= me.max_hp * below and minor <= pool:
            a = Action("stimpak", me.slot)
            if self._legal(view, a):
                hurt = f"HP {me.hp}/{me.max_hp} under {below}% ({chems(p.chem_use)})"
                paired = self._paired_stimpak(view, me, p, enemies, hurt)
                if paired is not None:
                    return paired
                return self._say(a, f"HP {me.hp}/{me.max_hp} under {below}%: heals itself "
                                    f"({chems(p.chem_use)})")
            a = Action("draw_chem", None, "stimpak")  # 2d20: a chem is drawn first
            if self._legal(view, a):
                return self._say(a, f"HP {me.hp}/{me.max_hp} under {below}%: draws a "
                                    f"stimpak to heal itself ({chems(p.chem_use)})")
        full = self._full_hp(b, me)
        if below and me.max_hp * 100 <= full * below and minor <= pool:
            why = (f"radiation has cut its maximum HP to {me.max_hp}/{full}, at or under "
                   f"{below}% ({chems(p.chem_use)})")
            for a, verb in ((Action("radaway", me.slot), "takes"),
                            (Action("draw_chem", None, "radaway"), "draws")):
                if self._legal(view, a):
                    return self._say(a, f"{verb} RadAway: {why}")
        flee = self._flee_reason(me, p)
        if not self._armed(b, me):
            return self._disarmed(view, me, p, enemies)
        run = self._run(view, me, p, enemies, flee)
        if run is not None:
            return run
        if not flee:
            care = self._care(view, me, p)
            if care is not None:
                return care
        if me.cond.get("prone") and self._legal(view, Action("stand")):
            low, why = self._lie_low(view, me, p, enemies)
            if low and not any(self._legal(view, Action("attack", e.slot)) for e in enemies):
                low, why = False, "nothing to shoot from the floor"
            if not low:
                return self._say(Action("stand"), f"stands up: {why}")
        return self._fight(view, me, p, enemies)

    def _fight(self, view: View, me: Combatant, p: AIPacket,
               enemies: list[Combatant]) -> Action:
        """The rest of a turn: weapon, reload, position, attack or manoeuvre."""
        b = view.battle
        t, why = self._target(b, me, p, enemies)
        draw = self._weapon(view, me, t, p)
        if draw is not None:
            return draw
        w = me.weapon
        if (tactics_of(b).magazines and w.magazine != "none"
                and (me.wstate.loaded == 0 or me.wstate.reload_step)
                and self._legal(view, Action("reload"))):
            return self._say(Action("reload"), f"{w.name} is empty: reloads")
        step = self._keep_distance(view, me, p, enemies) or self._reposition(view, me, p, enemies)
        if step is not None:
            return step
        strike = self._strike(view, me, t, p, why, enemies)
        if strike is not None:
            return strike
        return self._manoeuvre(view, me, t, p, why)
