"""Tests (2d20 against attribute + skill) and the Action Point pool under Fallout 2d20
(seed 002: Tests, Action Points, Assist, Defend, Rally)."""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from wasteland.rules.battle import ACTIVE, Battle, Combatant
from wasteland.rules.events import Event, Note, TestRolled, fmt_mods

from . import stats as S
from .book import book
from .dice import MAX_POOL, count
from .reach import _within_reach

DEFEND_AP: Final = 2  # seed 002, Defend: +1 more Defense for 2 AP



def _pool(b: Battle, side: int) -> int:
    return int(book(b).pools[side])


def _gain(b: Battle, side: int, n: int) -> int:
    """Add AP to a side's pool, at most MAX_POOL; returns what was added."""
    pools = book(b).pools
    added = max(0, min(n, MAX_POOL - pools[side]))
    pools[side] += added
    return added


def _test_penalties(b: Battle, c: Combatant) -> list[tuple[str, int]]:
    """What a test that is not an attack adds to its difficulty: a head injury (reading)
    and being within an enemy's reach, +2 to any test but a melee attack (seed 002, Range;
    seed 003, Ranged Attacks Within Reach)."""
    parts = []
    if S.test_penalty(c):
        parts.append(("head injury", S.test_penalty(c)))
    if _within_reach(b, c):
        parts.append(("within an enemy's reach", 2))
    return parts



class SkillTest:
    """A 2d20 test as asked for (``Skills._test``): what it is for (the log's words), the
    skill and difficulty with the parts that make it up, d20s bought beyond two, and how
    it is rolled. Read-only by agreement: a plain class, not a frozen dataclass, so that
    compiled its ``__init__`` is native (one is made for every attack)."""

    def __init__(self, what: str, skill: str, difficulty: int, parts: list[tuple[str, int]],
                 # params: a test's ten parts, what the value type is for
                 extra: int = 0, attack: tuple[str, str | None] | None = None,
                 tn_tag: tuple[int, int] | None = None, complication_from: int = 20,
                 reroll: bool = False, roll_anyway: bool = False) -> None:
        self.what = what
        self.skill = skill
        self.difficulty = difficulty
        self.parts = parts
        self.extra = extra  # d20s bought
        self.attack = attack  # an attack's attribute and skill
        self.tn_tag = tn_tag  # a target number and tag given, not looked up
        self.complication_from = complication_from
        self.reroll = reroll  # Aim: reroll the highest failed d20
        self.roll_anyway = roll_anyway  # at difficulty 0, roll for the AP (seed 003, Sneak Attacks)

@mypyc_attr(serializable=True)
class Skills:
    """The tests of F2d20 (a base class of it)."""

    # --- tests ---------------------------------------------------------------------------
    def _test(self, b: Battle, c: Combatant, test: SkillTest, events: list[Event]
              ) -> tuple[bool, int, int]:
        """Roll a 2d20 test; returns (passed, successes beyond the difficulty, complications).
        Difficulty 0 passes without a roll unless ``roll_anyway`` (seed 003, Sneak Attacks).
        An ally's assistance (``assist``) adds its d20 (seed 002, Assist)."""
        what, skill, difficulty, parts = test.what, test.skill, test.difficulty, test.parts
        extra, tn_tag, complication_from = test.extra, test.tn_tag, test.complication_from
        reroll, roll_anyway, attack = test.reroll, test.roll_anyway, test.attack
        tn, tag = tn_tag or S.target_number(c, skill, attack)
        if difficulty <= 0 and not roll_anyway:
            if not b.quiet:
                b.emit(events, TestRolled(c.id, what, [], tn, tag, 0, parts, 0, 0, True, 0))
            return True, 0, 0
        if b.dice_hook is not None:
            why = fmt_mods(parts).strip()
            b.roll_note = (f"{c.id} {what}: {2 + extra}d20, each at or under TN {tn} "
                           f"({skill.replace('_', ' ')}) is a success, at or under {tag} two; "
                           f"difficulty {difficulty}{' (' + why + ')' if why else ''}")
        faces = b.roll(c.slot, 20, 2 + extra, what)
        note = ""
        if reroll:  # Aim: reroll one d20 - the highest die that failed
            worst = max(range(len(faces)), key=lambda i: faces[i])
            if faces[worst] > tn:
                if b.dice_hook is not None:
                    b.roll_note = (f"aim: {c.id} rerolls one d20, the {faces[worst]} (its "
                                   f"highest failure), against TN {tn}")
                new = b.roll(c.slot, 20, 1, "aim reroll")[0]
                note = f" (aim: {faces[worst]} rerolled to {new})"
                faces[worst] = new
        succ, comp = count(faces, tn, tag, complication_from)
        helper = c.cond.pop("assist", None)
        if helper is not None:
            succ, comp = self._assisted(b, c, b.combatants[helper], skill, succ, comp,
                                        complication_from, events)
        passed = succ >= difficulty
        excess = succ - difficulty if passed else 0
        gained = _gain(b, c.side, excess) if excess else 0
        if comp:  # reading: each complication gives every opposing side 1 AP
            for si in range(len(b.side_names)):
                if si != c.side:
                    _gain(b, si, comp)
        if not b.quiet:
            b.emit(events, TestRolled(c.id, what, faces, tn, tag, difficulty, parts, succ, comp,
                                      passed, gained, extra, note))
        return passed, excess, comp

    def _assisted(self, b: Battle, c: Combatant, h: Combatant, skill: str, succ: int,
                  comp: int, complication_from: int, events: list[Event]) -> tuple[int, int]:
        """Assist (seed 002): the helper rolls 1d20 against its own target number for the
        same skill; reading (the published rule): its successes count only if the leader
        scored at least one, its complications always count."""
        h.cond.pop("assisting", None)
        if h.status != ACTIVE:
            return succ, comp
        tn, tag = S.target_number(h, skill)
        if b.dice_hook is not None:
            b.roll_note = (f"assist: {h.id} helps {c.id} with 1d20 against its own TN {tn}"
                           + (f", at or under {tag} two successes" if tag else "")
                           + f"; they count only if {c.id} scored one")
        face = b.roll(h.slot, 20, 1, "assist")
        hs, hc = count(face, tn, tag, complication_from)
        counted = succ > 0
        if not b.quiet:
            b.emit(events, Note(h.id, f"assists {c.id}: 1d20 ({face[0]}) vs TN {tn}"
                                      + (f", tag {tag}" if tag else "")
                                      + f" = {hs} success{'es' if hs != 1 else ''}"
                                      + ("" if counted or not hs else
                                         f", not counted ({c.id} scored none)") + "."))
        return succ + (hs if counted else 0), comp + hc

    def _defend(self, b: Battle, c: Combatant, events: list[Event]) -> None:
        """AGI + Athletics against the current Defense; success: +1 Defense until the start
        of the next turn, and a window to pay 2 AP for another +1 (seed 002, Defend)."""
        parts = [("Defense", S.stats(c).defense), *_test_penalties(b, c)]
        passed, _, _ = self._test(b, c, SkillTest("defends (AGI + Athletics)", "athletics",
                                             sum(v for _, v in parts), parts), events)
        if passed:
            c.cond["defend"] = 1
            if _pool(b, c.side) >= DEFEND_AP:  # for 2 AP, +1 more: the defender decides
                book(b).window = {"kind": "defend", "attacker": c.slot, "target": c.slot}

    def _rally(self, b: Battle, c: Combatant, events: list[Event], skill: str = "survival"
               ) -> None:
        """END + Survival at difficulty 0, rolled anyway to bank AP (seed 002, Rally); or
        CHA + Speech (Mind + Other for a creature), the seed's example of another pair."""
        tn, tag = S.target_number(c, skill, ("mind", "other") if skill == "speech" else None)
        if b.dice_hook is not None:
            b.roll_note = (f"rally: 2d20, each at or under TN {tn} is a success"
                           + (f", at or under {tag} two" if tag else "")
                           + "; each success beyond the penalties is 1 AP for the pool")
        faces = b.roll(c.slot, 20, 2, "rally")
        succ, comp = count(faces, tn, tag)
        parts = _test_penalties(b, c)
        pen = sum(v for _, v in parts)
        gained = _gain(b, c.side, max(0, succ - pen))
        for si in range(len(b.side_names)):  # complications, as in every other test
            if comp and si != c.side:
                _gain(b, si, comp)
        if not b.quiet:
            what = "END + Survival" if skill == "survival" else "CHA + Speech"
            b.emit(events, TestRolled(c.id, f"rallies ({what})", faces, tn, tag, pen,
                                      parts, succ, comp, succ >= pen, gained))

