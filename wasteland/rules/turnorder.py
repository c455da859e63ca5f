"""The turn-order tracker: who acts in what order, and why (a virtual tabletop's combat
tracker, in text).

For each combatant in the order: its initiative or sequence roll with the modifier, how a
tie was broken and with whom, whether it joined late, and who acts now. It reads the
battle's own log (InitiativeRolled events), so it is the same after a resume or an undo,
which rebuild the log by replay; a combatant with no roll logged (a 2d20 newcomer, whose
Initiative is a number) shows its Initiative.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasteland.rules.battle import ACTIVE, Battle
from wasteland.rules.events import InitiativeRolled, round_name
from wasteland.rules.rollnotes import names
from wasteland.rules.setup import scenario_ids

# how each ruleset reads the order (seed 000 Initiative, 001 Sequence, 002 Initiative)
HOW = {
    "pnp": "initiative 3d6 + modifier, highest first; ties roll 3d6 again",
    "simple": "sequence d10 + Sequence; moves go lowest first, charges and actions highest "
              "first; ties roll a d10 again; newcomers join at the end",
    "f2d20": "Initiative, highest first; ties roll a d20; newcomers act last",
}


@dataclass(frozen=True, slots=True)
class Place:
    """One combatant's place in the order and how it got there."""

    slot: int
    id: str
    side: str
    roll: str  # "initiative 3d6 (4+6+5) +2 = 17", "sequence d10 (7) +5 = 12", "Initiative 9"
    total: int
    tie: str  # "tied with val at 17, broken by 3d6: 12", or ""
    joined: bool  # came in after the fight began
    status: str  # "active", "unconscious", "dead"


def _roll_text(e: InitiativeRolled) -> str:
    if not e.faces:
        return f"{e.what} {e.total}"
    faces = "+".join(map(str, e.faces))
    return f"{e.what} {e.dice} ({faces}) {e.modifier:+d} = {e.total}"


def order_of(b: Battle) -> list[int]:
    """The slots in the order of a full round (2d20's opening turn holds one combatant;
    its rounds follow ``base_order``)."""
    base = b.book.round_order()
    order = list(base) if base else list(b.order)
    return order + [c.slot for c in b.combatants if c.slot not in order]


def places(b: Battle) -> list[Place]:
    """Every combatant, in the order of a round."""
    rolled: dict[str, InitiativeRolled] = {}
    for ev in b.log:
        if isinstance(ev, InitiativeRolled):
            rolled[ev.name] = ev
    first = len(scenario_ids(b.scenario))
    out: list[Place] = []
    for s in order_of(b):
        c = b.combatants[s]
        e = rolled.get(c.id)
        tie = ""
        if e is not None and e.tiebreak:
            with_ = [o for o, oe in rolled.items()
                     if o != c.id and oe.total == e.total and oe.tiebreak]
            tie = (f"tied with {names(with_)} at {e.total}, broken by {e.dice}: "
                   f"{', '.join(map(str, e.tiebreak))}")
        out.append(Place(s, c.id, b.side_names[c.side],
                         _roll_text(e) if e is not None else f"Initiative {c.initiative}",
                         c.initiative, tie, s >= first, c.status))
    return out


def order_lines(b: Battle, joined: int | None = None) -> list[str]:
    """The tracker as lines: a head saying how the order is made, then one line a
    combatant, with who acts now; ``joined`` (a slot) is marked as just arrived."""
    now = b.order[b.turn] if not b.over and 0 <= b.turn < len(b.order) else None
    head = f"Turn order ({HOW.get(b.ruleset, 'highest first')}):"
    lines = [head]
    if b.round == 0 and b.order:
        lines.append(f"  {round_name(0)}: {b.ids[b.order[0]]} starts the fight and takes a "
                     f"turn at once; then every round runs in this order")
    width = max(len(c.id) for c in b.combatants)
    side_w = max(len(n) for n in b.side_names)
    for i, p in enumerate(places(b), 1):
        notes = [p.tie] if p.tie else []
        if p.joined:
            notes.append("just joined" if p.slot == joined else "joined late")
        if p.status != ACTIVE:
            notes.append(p.status)
        if p.slot == now:
            notes.append("acts now")
        lines.append(f"  {i:>2}. {p.id:<{width}}  {p.side:<{side_w}}  {p.roll}"
                     + (f"; {'; '.join(notes)}" if notes else ""))
    return lines
