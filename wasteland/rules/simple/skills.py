"""The normal skill check under Simple (RULES.md, J.E. Sawyer's Simple): 2d10 + the skill
total + modifiers, a success at or above the difficulty."""

from __future__ import annotations

from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.events import Event, Mods, SkillChecked, fmt_mods

from . import stats as S


def check(b: Battle, c: Combatant, skill: str, what: str, difficulty: int,
          mods: Mods, events: list[Event], difficulty_mods: Mods | None = None
          ) -> tuple[bool, SkillChecked]:
    """Roll the check, log it (the event is returned so an attack can add its critical
    roll before it is read)."""
    all_mods = mods + S.check_penalties(c)
    base = S.skill(c, skill)
    if b.dice_hook is not None:
        need = difficulty - base - sum(v for _, v in all_mods)
        b.roll_note = (f"{c.id} {what}: 2d10 + {skill.replace('_', ' ')} {base}{fmt_mods(all_mods)} "
                       f"against {difficulty}: {need} or more on the dice")
    faces = b.roll(c.slot, 10, 2, what)
    total = sum(faces) + base + sum(v for _, v in all_mods)
    ok = total >= difficulty
    ev = SkillChecked(c.id, what, faces, skill.replace("_", " "), base, all_mods, total,
                      difficulty, difficulty_mods or [], ok)
    b.emit(events, ev)
    return ok, ev
