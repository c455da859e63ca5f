"""The packet agent outside its turn: 2d20's decision windows (d20s to buy for a test,
rolling at difficulty 0 or not, combat dice after a hit, AP for Defense) and reactions
(a free attack)."""

from __future__ import annotations

from wasteland.bestiary.models import AIPacket
from wasteland.rules.actions import Action
from wasteland.rules.battle import Combatant
from wasteland.rules.tactics import tactics_of

from ..base import View
from .odds import hit_chance
from .packet import Core, _costs, _odds
from .traits import odds_floor, temper


def _window(k: Core, view: View, me: Combatant, p: AIPacket) -> Action:
    """2d20's windows: d20s to buy for a test, combat dice to add after a hit, AP for
    more Defense."""
    b, dec = view.battle, view.decision
    opts = sorted(int(a.option or 0) for a in view.legal)
    kind = view.legal[0].kind
    if dec.slot == "defend":
        n = 1 if (p.aggression < 50 and 1 in opts) else 0
        return k.say(Action(kind, None, str(n)),
                         f"{'buys' if n else 'saves the AP instead of'} extra Defense "
                         f"({temper(p.aggression)})")
    t = b.combatants[dec.subject] if dec.subject is not None else None
    if dec.slot == "dice":
        if k.legal(view, Action("noroll")) and t is not None:
            return _zero(k, view, me, t)
        if t is None or len(opts) == 1:
            return k.say(Action(kind, None, str(opts[0])), "no extra d20 to buy")
        win = b.book.open_window() or {}
        loc = win.get("location")
        base = hit_chance(view, me, t, loc)
        chance, n = _odds(view, me, t, loc, p)
        n = max(m for m in opts if m <= n)
        return k.say(Action(kind, None, str(n)),
                         f"buys {n} extra d20{'' if n == 1 else 's'} ({base:.0%} -> "
                         f"{chance:.0%} to hit, "
                         f"{temper(p.aggression)})")
    # boost: combat dice from AP (melee) or ammunition (guns)
    top = opts[-1]
    w = me.weapon
    ammo = w.ammo if w.kind == "ranged" else None
    shots = ammo is not None
    if ammo is not None:
        n = max(0, min(top, me.ammo.get(ammo, 0) - 2))
    else:
        _, _, pool = _costs(b, me)
        keep = 0 if p.aggression >= 80 else (1 if p.aggression >= 50 else 2)
        n = max(0, min(top, pool - keep))
    if t is not None and t.hp <= 2:
        n = min(n, 1)
    what = (("round" if n == 1 else "rounds") + " of ammunition") if shots else "AP"
    return k.say(Action(kind, None, str(n)),
                     f"adds {n} combat {'die' if n == 1 else 'dice'} for {n} {what} "
                     f"({temper(p.aggression)})")


def _zero(k: Core, view: View, me: Combatant, t: Combatant) -> Action:
    """2d20, an attack at difficulty 0 (a hit without a roll): roll anyway (``buy 0``)
    while the successes it would bank as AP are worth more than the complications it
    risks (each gives the other side 1 AP); else take the hit unrolled (``noroll``)."""

    b = view.battle
    tac = tactics_of(b)
    pool = b.book.pool(me.side)
    room = tac.max_pool - pool
    banked, risked = tac.zero_roll(b, me)
    if banked > risked:
        return k.say(Action("buy", None, "0"),
                         f"rolls anyway at difficulty 0 against {t.id} to bank AP "
                         f"({banked:.1f} AP expected, pool {pool}/{tac.max_pool})")
    why = (f"AP pool full ({pool}/{tac.max_pool})" if room == 0 else
           f"{banked:.2f} AP expected against {risked:.2f} complications")
    return k.say(Action("noroll"), f"hits {t.id} without a roll at difficulty 0: "
                                       f"rolling gains nothing ({why})")


def _react(k: Core, view: View, me: Combatant, p: AIPacket) -> Action:
    b, dec = view.battle, view.decision
    if dec.reaction == "step":
        return k.end(view, "holds its square")
    t = b.combatants[dec.subject] if dec.subject is not None else None
    if t is not None and k.legal(view, Action("attack", t.slot)):
        chance, _ = _odds(view, me, t, None, p)
        if chance > 0 and chance * 100 >= p.min_to_hit:
            return k.say(Action("attack", t.slot),
                             f"free attack on {t.id}: {chance:.0%} to hit")
        return k.end(view, f"lets {t.id} go: {chance:.0%} to hit, "
                               f"{odds_floor(p.min_to_hit)}")
    return k.end(view, "nothing to react with")
