"""The first scripted agent: attack the closest enemy in range, approach otherwise,
reload when empty, use a stimpak when low. It only ever picks among legal actions."""

from __future__ import annotations

from wasteland.rules.actions import ACTION_INDEX, Action

from .base import View, rounds_ready


class ScriptedAgent:
    name = "scripted"

    def __init__(self, low_hp: float = 0.4) -> None:
        self.low_hp = low_hp
        self.last_reason = ""

    def _pick(self, view: View, action: Action, reason: str) -> Action | None:
        idx = ACTION_INDEX.get(action)
        if idx is not None and idx in view.legal_ids:
            self.last_reason = reason
            return action
        return None

    def act(self, view: View) -> Action:
        b = view.battle
        me = view.me
        dec = view.decision
        enemies = sorted(b.enemies_of(me), key=lambda e: (b.grid.dist(me.pos, e.pos), e.slot))
        legal = set(view.legal_ids)
        if dec.slot in ("dice", "boost"):  # 2d20 windows: a fixed, modest use of AP / ammo
            opts = sorted(int(a.option or 0) for a in view.legal)
            if dec.slot == "dice":
                n = 1 if 1 in opts and len(opts) > 2 else 0
                self.last_reason = f"buys {n} extra d20" + ("" if n == 1 else "s")
                return Action("buy", None, str(n))
            n = opts[-1]
            self.last_reason = f"adds {n} combat dice"
            return Action("boost", None, str(n))
        if dec.reaction is not None:
            if dec.reaction == "step":
                self.last_reason = "holds position"
                return Action("end")
            for t in [b.combatants[dec.subject]] if dec.subject is not None else []:
                a = self._pick(view, Action("attack", t.slot), f"free attack on {t.id}")
                if a:
                    return a
            self.last_reason = "cannot use the reaction"
            return Action("end")
        if me.hp <= me.max_hp * self.low_hp:
            a = self._pick(view, Action("stimpak", me.slot),
                           f"HP {me.hp}/{me.max_hp} is low: stimpak")
            if a:
                return a
        for e in enemies:
            a = self._pick(view, Action("attack", e.slot),
                           f"attacks {e.id}: closest enemy in range")
            if a:
                return a
        empty = rounds_ready(b, me, me.active_weapon) == 0
        a = self._pick(view, Action("reload"), f"{me.weapon.name} needs reloading")
        if a and empty:
            return a
        for i, _w in enumerate(me.weapons):
            if empty and i != me.active_weapon and ACTION_INDEX[Action("draw", None, str(i))] in legal:
                if rounds_ready(b, me, i) > 0:
                    self.last_reason = f"draws {me.weapons[i].name}: current weapon is empty"
                    return Action("draw", None, str(i))
        for e in enemies:
            a = self._pick(view, Action("move", e.slot, "toward"), f"approaches {e.id}: closest enemy")
            if a:
                return a
        self.last_reason = "nothing useful to do: ends the turn"
        if ACTION_INDEX[Action("end")] in legal:
            return Action("end")
        return view.legal[0]
