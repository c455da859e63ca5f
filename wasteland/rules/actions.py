"""Actions: small values with a text notation, and the fixed action table.

An action is a relative intent (approach or retreat from a combatant, attack a combatant
slot with an option), so the table is the same for every scenario and every ruleset:
each ruleset decides which entries are legal and what they cost. Targets are combatant
slots (0..MAX_COMBATANTS-1); the notation names them by combatant id.

Notation (like a chess move):
    end                      end the turn, or decline a reaction
    move toward raider_0     move away raider_0     cover
    attack radscorpion_1     attack radscorpion_1 head   (called shot: head, arm, leg)
    vats radscorpion_1 head  (called shot paid with AP)
    attack2 raider_0         (two weapons at once)  whip raider_0 (pistol whip)
    reload   draw 1   ready   warmup   stimpak self   stimpak ted
    step toward raider_0     step away raider_0     (5-ft step, a reaction)
    aim  defend  rally  sprint toward raider_0   first_aid ted   (2d20 intents)
    buy 2     (2d20: extra d20s bought with AP for the test being made)
    boost 3   (2d20: extra combat dice from AP or ammunition after a hit)
    draw_chem stimpak   radaway self   (2d20: draw a chem, then take it)
    called raider_0 torso   prone   stand   noroll   rally_with speech   assist ted
    ready_to defend   (2d20: a torso called shot, drop prone and stand up, an automatic
    success not rolled at difficulty 0, Rally as CHA + Speech, Assist, a readied Defend)
    crouch   evade   charge raider_0   overwatch raider_0   unload   aimed raider_0 eyes
    repair   disarm raider_0   drop   stow   (Simple: a stance, evading, a charge into
    melee, an overwatch cone toward a combatant, clearing a jam, a called shot at the eyes
    or groin, mending a damaged weapon, taking the weapon out of an enemy's hands, dropping
    the weapon in hand, putting it away)
    speak   extinguish self   prepare cover   pair raider_0 stimpak   (PnP: a free line,
    putting out a fire, a readied non-attack, two one-handed actions at once)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .errors import NotationError

MAX_COMBATANTS: Final = 10
MAX_WEAPONS: Final = 3
LOCATIONS: Final = ("head", "arm", "leg")

# kind -> (takes a target, options). Order fixes the table; append only, never reorder,
# or trained policies stop matching their actions.
_KINDS: Final[tuple[tuple[str, bool, tuple[str | None, ...]], ...]] = (
    ("end", False, (None,)),
    ("reload", False, (None,)),
    ("ready", False, (None,)),
    ("warmup", False, (None,)),
    ("cover", False, (None,)),
    ("aim", False, (None,)),
    ("defend", False, (None,)),
    ("rally", False, (None,)),
    ("draw", False, tuple(str(i) for i in range(MAX_WEAPONS))),
    ("move", True, ("toward", "away")),
    ("sprint", True, ("toward", "away")),
    ("step", True, ("toward", "away")),
    ("attack", True, (None, *LOCATIONS)),
    ("vats", True, LOCATIONS),
    ("attack2", True, (None,)),
    ("whip", True, (None,)),
    ("stimpak", True, (None,)),
    ("first_aid", True, (None,)),
    ("buy", False, ("0", "1", "2", "3")),
    ("boost", False, ("0", "1", "2", "3", "4", "5", "6")),
    # issue 9, PnP rules: append new kinds for Fallout PnP here
    ("speak", False, (None,)),
    ("extinguish", True, (None,)),
    ("prepare", False, ("cover", "stimpak", "reload")),
    ("pair", True, ("stimpak", "whip")),
    # issue 9, 2d20 rules: append new kinds for Fallout 2d20 here
    ("draw_chem", False, ("stimpak", "radaway")),
    ("radaway", True, (None,)),
    ("called", True, ("torso",)),
    ("prone", False, (None,)),
    ("stand", False, (None,)),
    ("noroll", False, (None,)),
    ("rally_with", False, ("speech",)),
    ("assist", True, (None,)),
    ("ready_to", False, ("defend",)),
    # issue 12, J.E. Sawyer's Simple: append new kinds for Simple here
    ("crouch", False, (None,)),
    ("evade", False, (None,)),
    ("charge", True, (None,)),
    ("overwatch", True, (None,)),
    ("unload", False, (None,)),
    ("aimed", True, ("eyes", "groin")),
    ("repair", False, (None,)),
    ("disarm", True, (None,)),
    ("drop", False, (None,)),
    ("stow", False, (None,)),
)
KINDS: Final = tuple(k for k, _, _ in _KINDS)
GOTO: Final = "goto"  # a move to a chosen square: notation, saves and replays only
SPRINT: Final = "sprint"  # `goto X Y sprint`: there at a sprint (2d20) or a run (Simple)
TARGETED: Final = {k for k, t, _ in _KINDS if t}
OPTIONS: Final = {k: o for k, _, o in _KINDS}


class Action:
    """One entry of the action table: ``kind``, a target slot, an option. A value: equal
    and hashed by its three fields, never changed once made (Final).

    A plain class rather than a frozen dataclass: agents make and look up actions on
    every decision, and compiled with mypyc this is several times faster than the
    dataclass (whose frozen init and hash stay interpreted); the hash is kept."""

    __slots__ = ("kind", "target", "option", "_hash")

    def __init__(self, kind: str, target: int | None = None, option: str | None = None
                 ) -> None:
        self.kind: Final = kind
        self.target: Final = target
        self.option: Final = option
        self._hash: Final = hash((kind, target, option))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return (self._hash == other._hash and self.kind == other.kind
                and self.target == other.target and self.option == other.option)

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return not self == other

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Action(kind={self.kind!r}, target={self.target!r}, option={self.option!r})"

    def __reduce__(self) -> tuple[Any, ...]:  # copy and pickle by the constructor
        return (Action, (self.kind, self.target, self.option))

    def text(self, ids: Sequence[str] | None = None, actor: int | None = None) -> str:
        """The notation; ``ids`` maps slots to combatant ids (else ``#slot``)."""
        parts = [self.kind]
        if self.kind in ("move", "sprint", "step") and self.option:
            parts.append(self.option)
        if self.target is not None:
            if actor is not None and self.target == actor:
                parts.append("self")
            elif ids is not None and self.target < len(ids):
                parts.append(ids[self.target])
            else:
                parts.append(f"#{self.target}")
        if self.option and self.kind not in ("move", "sprint", "step"):
            parts.append(self.option)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()


def _build_table() -> tuple[tuple[Action, ...], dict[Action, int]]:
    table: list[Action] = []
    for kind, targeted, options in _KINDS:
        if targeted:
            for t in range(MAX_COMBATANTS):
                for o in options:
                    table.append(Action(kind, t, o))
        else:
            for o in options:
                table.append(Action(kind, None, o))
    return tuple(table), {a: i for i, a in enumerate(table)}


_TABLE = _build_table()
# Final: compiled code reads a Final module name directly, any other through the module's
# dictionary, and these are read at every decision
ACTION_TABLE: Final = _TABLE[0]
ACTION_INDEX: Final = _TABLE[1]
N_ACTIONS: Final = len(ACTION_TABLE)


def action_id(kind: str, target: int | None = None, option: str | None = None) -> int:
    return ACTION_INDEX[Action(kind, target, option)]


def target_ids(kind: str, option: str | None = None) -> list[int]:
    """The id of ``kind`` (with ``option``) aimed at each combatant slot, by slot."""
    return [ACTION_INDEX[Action(kind, t, option)] for t in range(MAX_COMBATANTS)]


def parse_action(text: str, ids: Sequence[str], actor: int | None = None) -> Action:
    """Parse the notation against the battle's combatant ids.

    Raises NotationError naming what was wrong and what is accepted.
    """
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty action; try 'end', 'attack ID', 'move toward ID', 'reload'")
    kind = words[0]
    if kind == GOTO:  # notation only, not in the table (rules/goto.py)
        pace = words[3:] == [SPRINT]
        if (len(words) != 3 and not (len(words) == 4 and pace)) or not all(
                w.isdigit() for w in words[1:3]):
            raise NotationError("'goto' needs a square: 'goto X Y' with whole numbers, "
                                "e.g. goto 3 4 (or 'goto X Y sprint': there at a sprint)")
        return Action(GOTO, None, f"{int(words[1])} {int(words[2])}" + (" sprint" if pace else ""))
    if kind not in OPTIONS:
        raise NotationError(f"unknown action {kind!r}; accepted: {', '.join(KINDS)}, "
                            f"{GOTO} X Y")
    rest = words[1:]
    option: str | None = None
    if kind in ("move", "sprint", "step"):
        if not rest or rest[0] not in ("toward", "away"):
            raise NotationError(f"{kind!r} needs a direction: '{kind} toward ID' or '{kind} away ID'")
        option, rest = rest[0], rest[1:]
    target: int | None = None
    if kind in TARGETED:
        if not rest:
            raise NotationError(f"{kind!r} needs a target; combatants: {', '.join(ids)}")
        name = rest[0]
        if name == "self":
            if actor is None:
                raise NotationError("'self' needs an acting combatant")
            target = actor
        else:
            lowered = [i.lower() for i in ids]
            if name in lowered:
                target = lowered.index(name)
            else:
                matches = [i for i, x in enumerate(lowered) if x.startswith(name)]
                if len(matches) != 1:
                    raise NotationError(
                        f"unknown combatant {rest[0]!r}; combatants: {', '.join(ids)}"
                    )
                target = matches[0]
        rest = rest[1:]
    if kind not in ("move", "sprint", "step"):
        allowed = OPTIONS[kind]
        if rest:
            option = rest[0]
            rest = rest[1:]
        if option not in allowed:
            shown = ", ".join(o for o in allowed if o) or "none"
            raise NotationError(f"{kind!r} does not take option {option!r}; options: {shown}")
    if rest:
        raise NotationError(f"unexpected words after {kind!r}: {' '.join(rest)!r}")
    return Action(kind, target, option)
