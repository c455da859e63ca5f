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


# how a row is shortened to fit the panel, most complete first: (HP with its maximum,
# the ammunition: "full" loaded/capacity+carried, "loaded" without the carried, "none";
# the ids padded to one column). The columns go, never the words: a name is whole
FORMS = ((True, "full", True), (True, "loaded", True), (False, "loaded", True),
         (False, "loaded", False), (False, "none", True), (False, "none", False))
INDENT = "    "  # a row's continuation line (what did not fit after the weapon)


def _ammo(b: Battle, rs: Ruleset, c: Combatant, how: str) -> str:
    if how == "none":
        return ""
    text = ammo_text(b, rs, c)
    return text.split("+")[0] if how == "loaded" and not zoned(rs) else text


def _flags_text(b: Battle, rs: Ruleset, c: Combatant) -> str:
    f = flags(b, rs, c)
    return " [" + ", ".join(f) + "]" if f else ""


def status_text(b: Battle, rs: Ruleset, width: int = 0) -> Text:
    """One line per combatant, in the most complete form (FORMS) whose every line fits
    ``width`` columns (0: no limit) up to its weapon and ammunition; its conditions
    follow on the line when they fit, else on a line of their own under it, and so does
    a weapon that fits in no form."""
    deciding = None if b.over else rs.decider(b).combatant
    text = Text(no_wrap=True, overflow="ellipsis")
    econ = b.book.economy()
    pools = econ.pools if econ is not None else None
    if zoned(rs) and pools is not None:
        text.append("AP " + ", ".join(f"{n} {pools[si]}" for si, n in enumerate(b.side_names))
                    + "\n", "bold")
    idw = max(len(i) for i in b.ids)

    def hp(c: Combatant, full: bool) -> str:
        return f"{c.hp:>3}/{c.max_hp:<3}" if full else f"{c.hp:>3}"

    def head(c: Combatant, full: bool, pad: bool) -> int:  # columns before the weapon
        return 2 + len(DOWN_GLYPH.get(condition(c), glyph(c.slot))) + 2 + (
            idw if pad else len(c.id)) + len(hp(c, full)) + 1

    def fits(full: bool, how: str, pad: bool, with_flags: bool) -> bool:
        return all(head(c, full, pad) + len(c.weapon.name + _ammo(b, rs, c, how)) + (
            len(_flags_text(b, rs, c)) if with_flags else 0) <= width for c in b.combatants)

    # one line each if any form allows it, else the most complete form whose conditions
    # alone go to a line of their own
    full, how, pad = next((f for with_flags in (True, False) for f in FORMS
                           if not width or fits(*f, with_flags)), FORMS[-1])
    for c in b.combatants:
        mark = DOWN_GLYPH.get(condition(c), glyph(c.slot))
        text.append("> " if c.slot == deciding else "  ", "bold")
        text.append(mark, side_colour(c.side))
        hp_style = "green" if c.hp * 2 > c.max_hp else ("yellow" if c.hp > 0 else "red")
        text.append(f" {c.id:<{idw if pad else 0}} ")
        text.append(hp(c, full), hp_style)
        used = head(c, full, pad)
        weapon = c.weapon.name + _ammo(b, rs, c, how)
        if width and used + len(weapon) > width:
            text.append("\n" + INDENT[:-1])
            used = len(INDENT)
        text.append(" " + weapon)
        used += len(weapon)
        said = _flags_text(b, rs, c)
        if said:
            if width and used + len(said) > width:
                text.append("\n" + INDENT[:-1])
            text.append(said, "yellow")
        text.append("\n")
    text.rstrip()
    return text


class StatusPanel(Static):
    def show(self, b: Battle, rs: Ruleset, width: int = 0) -> None:
        """``width``: the columns inside the panel (0: no limit)."""
        self.update(status_text(b, rs, width))
