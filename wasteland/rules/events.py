"""Typed events. Each renders as one sentence that shows every die and modifier, so a
GM can check each number; each is also a plain dict for JSON logs."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

Mods = list[tuple[str, int]]


def fmt_mods(mods: Mods) -> str:
    return "".join(f" {'+' if v >= 0 else '-'}{abs(v)} {label}" for label, v in mods if v)


def article(word: str) -> str:
    """"a" or "an" before ``word`` (by its first letter: the words logged here are plain)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def fmt_faces(faces: tuple[int, ...] | list[int]) -> str:
    return "+".join(map(str, faces))


def round_name(n: int) -> str:
    """"Round 3"; round 0 is 2d20's opening turn, taken before round 1 (seed 002,
    Initiative), and is named so rather than "Round 0"."""
    return f"Round {n}" if n > 0 else "Opening turn (before round 1)"


# what a Fallout 2d20 combat die shows, by its d6 face (seed 003, Combat Dice): 1 and 2
# count as such, 3 and 4 are blank, 5 and 6 count 1 and set off the weapon's effects
CD_FACE_NAMES = ("", "1", "2", "blank", "blank", "effect", "effect")
# the same in a damage line, where each die's part of the sum is shown (an effect face
# counts 1), and that part
CD_FACE_TEXT = ("", "1", "2", "blank", "blank", "1+effect", "1+effect")
CD_FACE_DAMAGE = (0, 1, 2, 0, 0, 1, 1)


@dataclass(slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def text(self) -> str:  # pragma: no cover - every subclass overrides
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["event"] = self.kind
        return d

    def __str__(self) -> str:
        return self.text()


@dataclass(slots=True)
class BattleStarted(Event):
    kind: ClassVar[str] = "battle_started"
    scenario: str
    ruleset: str
    seed: int
    sides: list[str]

    def text(self) -> str:
        return (f"Battle '{self.scenario}' under {self.ruleset} (seed {self.seed}): "
                + " vs ".join(self.sides))


@dataclass(slots=True)
class InitiativeRolled(Event):
    kind: ClassVar[str] = "initiative"
    name: str
    faces: list[int]
    modifier: int
    total: int
    tiebreak: list[int] = field(default_factory=list)
    dice: str = "3d6"  # Simple: a d10 for sequence, d10 roll-offs
    what: str = "initiative"

    def text(self) -> str:
        if not self.faces:  # 2d20: Initiative is a number, not a roll; a d20 breaks ties
            tie = (f" (tie-break {self.dice}: {', '.join(map(str, self.tiebreak))})"
                   if self.tiebreak else "")
            return f"{self.name} has {self.what} {self.total}{tie}."
        tb = (f" (tie broken by {self.dice}: {', '.join(map(str, self.tiebreak))})"
              if self.tiebreak else "")
        return (f"{self.name} rolls {self.what}: {self.dice} ({fmt_faces(self.faces)})"
                f" {'+' if self.modifier >= 0 else '-'}{abs(self.modifier)} = {self.total}{tb}")


@dataclass(slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round"
    round: int
    order: list[str]

    def text(self) -> str:
        return f"-- {round_name(self.round)}: {', '.join(self.order)}"


@dataclass(slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn"
    name: str

    def text(self) -> str:
        return f"{self.name}'s turn."


@dataclass(slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    name: str
    intent: str
    start: tuple[int, int]
    end: tuple[int, int]
    squares: int
    note: str = ""

    def text(self) -> str:
        if self.squares == 0:
            return f"{self.name} tries to {self.intent} but cannot move{self.note}."
        return (f"{self.name} {self.intent}: {self.start} -> {self.end}, "
                f"{self.squares} square{'s' if self.squares != 1 else ''}{self.note}.")


@dataclass(slots=True)
class AttackRolled(Event):
    kind: ClassVar[str] = "attack"
    attacker: str
    target: str
    weapon: str
    faces: list[int]
    mods: Mods
    total: int
    defense: int
    defense_mods: Mods
    shots: list[bool]
    crit: bool
    crit_mods: Mods
    how: str = "attacks"
    vats: str = ""  # PnP: the body part a V.A.T.S. attack aims at
    vats_ap: int = 0

    def text(self) -> str:
        dm = fmt_mods(self.defense_mods)
        # V.A.T.S. takes no called-shot penalty, so no modifier would name the part aimed at
        whom = (f"uses V.A.T.S. on {self.target}'s {self.vats} ({self.vats_ap} AP)"
                if self.vats else f"{self.how} {self.target}")
        s = (f"{self.attacker} {whom} with {self.weapon}: "
             f"3d6 ({fmt_faces(self.faces)}){fmt_mods(self.mods)} = {self.total} vs Defense "
             f"{self.defense}{' (' + dm.strip() + ')' if dm else ''}")
        if len(self.shots) > 1:
            pen = [0, 3] + [6] * (len(self.shots) - 2)
            parts = [f"{self.total - p} {'hit' if h else 'miss'}" for p, h in zip(pen, self.shots)]
            s += f"; RoF {len(self.shots)}: " + ", ".join(parts)
        else:
            s += ", hit" if self.shots and self.shots[0] else ", miss"
        if self.crit:
            if self.faces == [6, 6, 6]:
                s += "; triple six: critical hit"
            else:
                cm = fmt_mods(self.crit_mods)
                need = self.defense + 10
                got = self.total + sum(v for _, v in self.crit_mods)
                s += f"; critical: {self.total}{cm} = {got} >= {need}"
        return s


@dataclass(slots=True)
class DamageDealt(Event):
    kind: ClassVar[str] = "damage"
    target: str
    dice: str
    faces: list[int]
    bonus: Mods
    multiplier: float
    raw: int
    resist_label: str
    resist: int
    dealt: int
    damage_type: str
    hp: int
    max_hp: int
    note: str = ""

    def text(self) -> str:
        mult = f" x{self.multiplier:g}" if self.multiplier != 1 else ""
        label = self.resist_label
        # a resistance is a percentage: "Poison Resistance 20%", not "Poison Resistance % 20"
        res = ("" if not label else f" - {label[:-2]} {self.resist}%" if label.endswith(" %")
               else f" - {label} {self.resist}")
        rolled = f"{self.dice} ({fmt_faces(self.faces)})" if self.faces else self.dice
        less = (self.raw * self.resist // 100 if label.endswith(" %") else self.resist
                ) if label else 0
        # PnP: a hit deals at least 1, which the subtraction alone would not show
        least = " (a hit deals at least 1)" if self.dealt == 1 > self.raw - less else ""
        return (f"  {self.target} takes {rolled}{fmt_mods(self.bonus)}"
                f"{mult} = {self.raw}{res} = {self.dealt} {self.damage_type} damage"
                f"{least}{self.note} (HP {self.hp}/{self.max_hp})")


@dataclass(slots=True)
class Crippled(Event):
    kind: ClassVar[str] = "crippled"
    target: str
    location: str
    damage: int
    threshold: int

    def text(self) -> str:
        return (f"  {self.target}'s {self.location} is crippled "
                f"({self.damage} damage >= 25% of max HP = {self.threshold}).")


@dataclass(slots=True)
class Downed(Event):
    kind: ClassVar[str] = "downed"
    name: str
    status: str

    def text(self) -> str:
        return f"  {self.name} is {'killed' if self.status == 'dead' else 'knocked unconscious'}."


@dataclass(slots=True)
class Note(Event):
    kind: ClassVar[str] = "note"
    name: str
    message: str

    def text(self) -> str:
        # a message that goes on from the name ("'s pistol jams") takes no space before it
        return f"{self.name}{'' if self.message.startswith(chr(39)) else ' '}{self.message}"


@dataclass(slots=True)
class Healed(Event):
    kind: ClassVar[str] = "healed"
    name: str
    target: str
    item: str
    dice: str
    faces: list[int]
    healed: int
    hp: int
    max_hp: int

    def text(self) -> str:
        end = f"HP healed (HP {self.hp}/{self.max_hp})"
        if self.item == "first aid":  # a skill, not an item: no dice of its own (2d20)
            to = "itself" if self.name == self.target else self.target
            return f"{self.name} gives first aid to {to}: {self.dice}, {self.healed} {end}"
        who = "" if self.name == self.target else f" on {self.target}"
        if self.faces:
            how = f"{self.dice} ({fmt_faces(self.faces)}) = {self.healed}"
        elif self.dice == str(self.healed):  # a fixed amount (2d20), all of it healed
            how = self.dice
        else:  # a fixed amount, cut short by the maximum HP
            how = f"up to {self.dice}, {self.healed}"
        return f"{self.name} uses a {self.item}{who}: {how} {end}"


@dataclass(slots=True)
class Reloaded(Event):
    kind: ClassVar[str] = "reload"
    name: str
    weapon: str
    step: str
    loaded: int
    capacity: int
    reserve: int

    def text(self) -> str:
        return (f"{self.name} {self.step} ({self.weapon} {self.loaded}/{self.capacity}, "
                f"{self.reserve} in reserve).")


@dataclass(slots=True)
class ReactionOffered(Event):
    kind: ClassVar[str] = "reaction"
    reactor: str
    reaction: str
    subject: str

    def text(self) -> str:
        return f"{self.reactor} may react ({self.reaction.replace('_', ' ')}) to {self.subject}."


@dataclass(slots=True)
class OpposedInitiative(Event):
    kind: ClassVar[str] = "opposed_initiative"
    reactor: str
    reactor_faces: list[int]
    reactor_total: int
    subject: str
    subject_faces: list[int]
    subject_total: int
    won: bool

    def text(self) -> str:
        return (f"{self.reactor} vs {self.subject}, opposed initiative: 3d6 "
                f"({fmt_faces(self.reactor_faces)}) -> {self.reactor_total} vs 3d6 "
                f"({fmt_faces(self.subject_faces)}) -> {self.subject_total}: "
                f"{'free attack' if self.won else 'no attack'}.")


@dataclass(slots=True)
class BattleEnded(Event):
    kind: ClassVar[str] = "battle_ended"
    winner: str | None
    reason: str
    round: int

    def text(self) -> str:
        if self.winner is None:
            return f"The battle ends in a draw after round {self.round} ({self.reason})."
        # "won": a side's name may be singular ("Radscorpion") or plural ("Raiders")
        return f"{self.winner} won in round {self.round} ({self.reason})."


@dataclass(slots=True)
class TestRolled(Event):
    """A Fallout 2d20 test: every d20, the target number, the difficulty and its parts."""

    kind: ClassVar[str] = "test"
    name: str
    what: str
    faces: list[int]
    target: int
    tag: int
    difficulty: int
    parts: Mods
    successes: int
    complications: int
    passed: bool
    ap_gained: int
    bought: int = 0
    rerolled: str = ""

    def text(self) -> str:
        parts = fmt_mods(self.parts)
        diff = f"difficulty {self.difficulty}" + (f" ({parts.strip()})" if parts else "")
        if not self.faces:
            return f"{self.name} {self.what}: {diff}, passes without a roll."
        tag = f", tag {self.tag}" if self.tag else ""
        buy = f" ({self.bought} bought with AP)" if self.bought else ""
        s = (f"{self.name} {self.what}: {len(self.faces)}d20{buy} ({', '.join(map(str, self.faces))})"
             f"{self.rerolled} vs TN {self.target}{tag} = {self.successes} success"
             f"{'es' if self.successes != 1 else ''} vs {diff}: "
             f"{'pass' if self.passed else 'fail'}")
        if self.ap_gained:
            s += f", +{self.ap_gained} AP"
        if self.complications:
            s += f", {self.complications} complication{'s' if self.complications > 1 else ''}"
        return s


@dataclass(slots=True)
class CombatDiceRolled(Event):
    """Fallout 2d20 damage: combat dice faces, effects, DR and the result."""

    kind: ClassVar[str] = "combat_dice"
    target: str
    location: str
    faces: list[int]
    damage: int
    effects: int
    bonus: Mods
    dr: int
    dr_label: str
    dealt: int
    damage_type: str
    hp: int
    max_hp: int
    note: str = ""

    def text(self) -> str:
        """Faces, their sum, the effects, what is added (Vicious), a Spread hit's halving,
        then DR, so that the line adds up as printed: "7 CD (1, 2, blank, blank, 1+effect,
        1+effect, 1) = 6, 2 effects +2 Vicious = 8 - physical DR 3 = 5"."""
        end = (f" - {self.dr_label} {self.dr} = {self.dealt} {self.damage_type} damage"
               f"{self.note} (HP {self.hp}/{self.max_hp})")
        where = f"  {self.target} hit in the {self.location}: "
        if not self.faces:  # radiation that rides on effects or an aura: no dice of its own
            return f"{where}{self.damage}{end}"
        cd = ", ".join(CD_FACE_TEXT[f] if 1 <= f <= 6 else str(f) for f in self.faces)
        raw = sum(CD_FACE_DAMAGE[f] if 1 <= f <= 6 else 0 for f in self.faces)
        eff = f", {self.effects} effect{'s' if self.effects != 1 else ''}" if self.effects else ""
        added = sum(v for _, v in self.bonus)
        got = f"{len(self.faces)} CD ({cd}) = {raw}{eff}"
        if added:
            got += f"{fmt_mods(self.bonus)} = {raw + added}"
        if self.damage != raw + added:  # a Spread hit deals half
            got += f", halved = {self.damage}"
        return where + got + end


@dataclass(slots=True)
class SkillChecked(Event):
    """A Simple skill check (seed 001 with RULES.md): 2d10 + the skill total + modifiers
    against a difficulty; for a hit, the d100 critical roll."""

    kind: ClassVar[str] = "skill_check"
    name: str
    what: str
    faces: list[int]
    skill: str
    skill_total: int
    mods: Mods
    total: int
    difficulty: int
    difficulty_mods: Mods
    passed: bool
    crit_roll: int = 0
    crit_at: int = 0
    crit: str = ""  # "critical", "critical failure" or ""

    def text(self) -> str:
        dm = fmt_mods(self.difficulty_mods)
        s = (f"{self.name} {self.what}: 2d10 ({fmt_faces(self.faces)}) +{self.skill_total} "
             f"{self.skill}{fmt_mods(self.mods)} = {self.total} vs {self.difficulty}"
             f"{' (' + dm.strip() + ')' if dm else ''}: "
             f"{'success' if self.passed else 'failure'}")
        if self.crit_roll:
            s += f"; d100 {self.crit_roll} vs {self.crit_at}+"
            if self.crit:
                s += f": {self.crit}"
        return s
