"""One line per combatant: its mark in its side's colour, HP, weapon and ammunition, and
its conditions; the one deciding now is pointed at."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from wasteland.rules.battle import ACTIVE, Battle, Combatant
from wasteland.rules.protocol import Ruleset
from wasteland.rules.textmap import glyph

from .mapview import DOWN_GLYPH, condition, side_colour, zoned


def flags(b: Battle, rs: Ruleset, c: Combatant) -> list[str]:
    out = []
    cond = condition(c)
    if cond != "standing" and cond != "crippled":
        out.append(cond)
    crip = [k if v == 1 else f"{k}x{v}" for k, v in c.crippled.items() if v]
    if crip:
        out.append("crippled " + " ".join(crip))
    if c.burn_left:
        out.append("burning")
    for k in ("prone", "stunned", "defend", "aim", "stable", "crouch", "evade"):
        if c.cond.get(k) and c.status == ACTIVE:
            out.append(k)
    if c.readied:
        out.append("readied")
    stats = getattr(c.creature, b.ruleset, None)
    if getattr(stats, "ap", 0) and c.status == ACTIVE and not zoned(rs):
        out.append(f"AP {c.ap}")
    return out


def ammo_text(b: Battle, rs: Ruleset, c: Combatant) -> str:
    w = c.weapon
    if zoned(rs):
        return f" {c.ammo.get(w.ammo, 0)}" if w.ammo else ""
    if w.magazine == "none":
        return ""
    return f" {c.wstate.loaded}/{w.capacity}" + (f"+{c.ammo.get(w.ammo, 0)}" if w.ammo else "")


def status_text(b: Battle, rs: Ruleset) -> Text:
    deciding = None if b.over else rs.decider(b).combatant
    text = Text(no_wrap=True, overflow="ellipsis")
    pools = b.extra.get("pools")
    if zoned(rs) and pools is not None:
        text.append("AP " + ", ".join(f"{n} {pools[si]}" for si, n in enumerate(b.side_names))
                    + "\n", "bold")
    idw = min(16, max(len(i) for i in b.ids))
    for c in b.combatants:
        mark = DOWN_GLYPH.get(condition(c), glyph(c.slot))
        text.append("> " if c.slot == deciding else "  ", "bold")
        text.append(mark, side_colour(c.side))
        hp_style = "green" if c.hp * 2 > c.max_hp else ("yellow" if c.hp > 0 else "red")
        text.append(f" {c.id[:idw]:<{idw}} ")
        text.append(f"{c.hp:>3}/{c.max_hp:<3}", hp_style)
        text.append(f" {c.weapon.name[:14]}{ammo_text(b, rs, c)}")
        f = flags(b, rs, c)
        if f:
            text.append(" [" + ", ".join(f) + "]", "yellow")
        text.append("\n")
    text.rstrip()
    return text


class StatusPanel(Static):
    def show(self, b: Battle, rs: Ruleset) -> None:
        self.update(status_text(b, rs))
