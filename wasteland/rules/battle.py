"""Battle state: combatants on a map, sides, the round, its own RNG and the event log.

The state is ruleset-neutral: positions are grid cells, and each ruleset reads the stat
block it needs from the combatant's creature. Everything dynamic is in plain fields so
that a battle saves to JSON and loads back to the same state.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from mypy_extensions import mypyc_attr

from wasteland.bestiary.models import Armor, Creature, Item, Scenario, Weapon

from .actions import Action
from .events import Event
from .facts import Arm, Traits
from .grid import Grid

ACTIVE: Final = "active"
UNCONSCIOUS: Final = "unconscious"
DEAD: Final = "dead"
STATUSES: Final = (ACTIVE, UNCONSCIOUS, DEAD)


def rng_to_json(rng: random.Random) -> list[Any]:
    """A Random's state as JSON values (what saves hold for the battle and its agents)."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def json_copy(v: Any) -> Any:
    """``copy.deepcopy(v)`` for the JSON values a battle's state holds (dicts and lists
    copied all the way down, numbers, strings and None shared; anything else deep-copied),
    at a fraction of its cost: a fork copies every combatant's. Two references to one list
    inside ``v`` become two lists, as a save written and read back makes them."""
    if isinstance(v, dict):
        return {k: json_copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [json_copy(x) for x in v]
    if v is None or isinstance(v, (str, int, float)):  # bool is an int
        return v
    return copy.deepcopy(v)


def rng_from_json(rng: random.Random, state: Sequence[Any]) -> None:
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))


# who rolls which dice: (who, sides, count, why) -> faces, or None to let the RNG roll
DiceHook = Callable[[int, int, int, str], "list[int] | None"]


def dice_entry(who: str, sides: int, faces: list[int], why: str) -> str:
    """The history line for dice rolled at the table: "@dice ted 3d6 4 6 5 (initiative)"."""
    return f"@dice {who} {len(faces)}d{sides} {' '.join(map(str, faces))} ({why})"


@mypyc_attr(serializable=True)
@dataclass(slots=True)
class WeaponState:
    loaded: int = 0
    reload_step: int = 0
    warm: int = 0
    last_fired_round: int = -10


@mypyc_attr(serializable=True)
@dataclass(slots=True)
class Combatant:
    slot: int
    id: str
    side: int
    creature: Creature
    weapons: list[Weapon]
    weapon_bonus: list[int]
    armor: Armor | None
    pos: int
    hp: int
    max_hp: int
    status: str = ACTIVE
    weapon_states: list[WeaponState] = field(default_factory=list)
    active_weapon: int = 0
    ammo: dict[str, int] = field(default_factory=dict)
    items: dict[str, int] = field(default_factory=dict)
    crippled: dict[str, int] = field(default_factory=dict)
    limb_damage: dict[str, int] = field(default_factory=dict)
    ap: int = 0
    free_used: bool = False
    readied: bool = False
    unguarded: bool = False
    burn_rate: int = 0
    burn_left: int = 0
    initiative: int = 0
    last_attacker: int = -1
    damage_dealt: int = 0
    damage_taken: int = 0
    # ruleset-specific conditions (2d20: dying, stunned, aim, defend bonus ...), JSON values
    cond: dict[str, Any] = field(default_factory=dict)
    # what agents work out from its fixed stat block and armor, keyed by everything else
    # it depends on (not saved: it is worked out again)
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    loc_kinds: frozenset[str] = frozenset()
    loc_counts: dict[str, int] = field(default_factory=dict)
    # how many of ``weapons`` are its own; any after them were taken from others in the
    # fight (Simple's disarm), listed in cond["taken"] as [slot, weapon] of where from
    own_weapons: int = -1
    # the native copy of each weapon's fields (facts.py), built by arm(i) on first use
    arms: list[Arm | None] = field(default_factory=list, repr=False, compare=False)
    traits_of: Traits | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.own_weapons < 0:
            self.own_weapons = len(self.weapons)
        self.loc_kinds = frozenset(h.kind for h in self.creature.hit_locations)
        for h in self.creature.hit_locations:
            self.loc_counts[h.kind] = self.loc_counts.get(h.kind, 0) + h.count

    @property
    def name(self) -> str:
        return self.id

    @property
    def up(self) -> bool:
        return self.status == ACTIVE

    @property
    def weapon(self) -> Weapon:
        return self.weapons[self.active_weapon]

    def arm(self, i: int) -> Arm:
        """The native copy of weapon slot ``i`` (facts.py), made again when the weapon or
        the creature is no longer the one it was made from."""
        arms = self.arms
        if i < len(arms):
            a = arms[i]
            if a is not None and a.weapon is self.weapons[i] and a.creature is self.creature:
                return a
        a = Arm(self.creature, self.weapons[i])
        while len(arms) <= i:
            arms.append(None)
        arms[i] = a
        return a

    def traits(self) -> Traits:
        """The native copy of the creature's numbers the odds read (facts.py)."""
        t = self.traits_of
        if t is None or t.creature is not self.creature:
            t = self.traits_of = Traits(self.creature)
        return t

    @property
    def wstate(self) -> WeaponState:
        return self.weapon_states[self.active_weapon]

    _DYNAMIC = ("pos", "hp", "max_hp", "status", "active_weapon", "ammo", "items", "crippled",
                "limb_damage", "ap", "free_used", "readied", "unguarded", "burn_rate",
                "burn_left", "initiative", "last_attacker", "damage_dealt", "damage_taken",
                "cond")

    def state(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self._DYNAMIC}
        d["weapon_states"] = [[w.loaded, w.reload_step, w.warm, w.last_fired_round]
                              for w in self.weapon_states]
        out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in d.items()}
        out["cond"] = json_copy(self.cond)
        return out

    def restore(self, d: dict[str, Any]) -> None:
        for k in self._DYNAMIC:
            v = d.get(k, {}) if k == "cond" else d[k]
            setattr(self, k, json_copy(v) if isinstance(v, dict) else v)
        self.weapon_states = [WeaponState(*w) for w in d["weapon_states"]]


@mypyc_attr(serializable=True)
@dataclass
class Reaction:
    reactor: int
    kind: str
    subject: int

    def as_list(self) -> list[Any]:
        return [self.reactor, self.kind, self.subject]


class Economy(Protocol):
    """A ruleset's action-point economy as the rest of the code reads it (2d20): each
    side's AP pool, and the minor and major actions taken and the move made in the turn
    under way."""

    pools: list[int]
    minor: int
    major: int
    moved: bool


@mypyc_attr(serializable=True)
class RulesBook:
    """What a ruleset keeps about a battle besides the fields every battle has: its own
    turn flags, pools and pending decisions. Each ruleset subclasses it in its own package
    (its new_battle makes one); saves write its fields under "extra" beside the shared
    ones. The questions other code asks of it (``economy``, ``open_window`` ...) are
    answered here with "none", so that code never needs to know which ruleset it has."""

    def write(self, out: dict[str, Any]) -> None:
        """Its fields that every battle of the ruleset has from the start, as JSON values
        (copies), into a save's "extra" in the order saves have always written them."""

    def read(self, d: dict[str, Any]) -> None:
        """Its fields from a save's "extra" (copies of what ``write`` and ``write_later``
        put there), every field set (absent ones to their empty value)."""

    def later_keys(self) -> tuple[str, ...]:
        """Its fields a battle gains during the fight (absent from the save until then)."""
        return ()

    def write_later(self, key: str, out: dict[str, Any]) -> None:
        """One of ``later_keys`` into ``out`` (a copy)."""

    def copy(self) -> RulesBook:
        """An independent copy (nothing mutable shared)."""
        return RulesBook()

    def economy(self) -> Economy | None:
        """The AP economy, or None under a ruleset without one."""
        return None

    def pool(self, side: int) -> int:
        """Side ``side``'s AP pool (0 without an economy)."""
        return 0

    def open_window(self) -> dict[str, Any] | None:
        """The decision open inside an action (2d20's attack windows: dice to buy, combat
        dice to add, Defense to buy), or None."""
        return None

    def main_taken(self) -> bool:
        """Whether the combatant deciding has taken its main action of the phase (Simple)."""
        return False

    def round_order(self) -> list[int] | None:
        """The slots in the order of a full round when the turn order holds less (2d20's
        opening turn), else None."""
        return None


# the shared fields a battle gains during the fight, by their save keys (Battle.later)
LATER: Final = ("reason", "joined", "armory")


@mypyc_attr(serializable=True)
@dataclass
class Battle:
    ruleset: str
    scenario: Scenario
    grid: Grid
    combatants: list[Combatant]
    side_names: list[str]
    seed: int
    rng: random.Random
    items: dict[str, Item]
    round: int = 0
    order: list[int] = field(default_factory=list)
    turn: int = 0
    slot: str = "small"
    reactions: list[Reaction] = field(default_factory=list)
    pending_move: list[Any] | None = None
    winner: int | None = None
    over: bool = False
    log: list[Event] = field(default_factory=list)
    moves: list[tuple[int, Action] | str] = field(default_factory=list)
    keep_log: bool = True
    # quiet: no event objects at all (apply returns []); for simulations nobody reads
    quiet: bool = False
    # the light of the scenario (grid.VISIBILITY) and the round limit
    ambient: int = 0
    max_rounds: int = 0
    # why a fight ended with no side standing alone ("max_rounds"), else None
    end_reason: str | None = None
    # the newcomers, as @join entries say (rules/newcomers.py), None before the first
    joined: list[dict[str, Any]] | None = None
    # how many times a weapon changed hands (Simple's disarms): what an observation keeps
    # of each combatant's weapons is worked out again when it moves
    armory: int = 0
    # the fields of LATER (and the book's later_keys) the fight has gained, in the order
    # it gained them: the order a save writes them in
    later: list[str] = field(default_factory=list)
    # the ruleset's own bookkeeping (RulesBook), made by its new_battle
    book: RulesBook = field(default_factory=RulesBook)
    # who rolls which dice: None lets the battle's RNG roll everything; a GM at the table
    # can answer (who, sides, count, why) with the faces of real dice (None: RNG rolls)
    dice_hook: DiceHook | None = None
    # what the next roll is against, in words (target number, modifiers), written by the
    # rules just before a check only while a dice hook listens: a GM sees it before rolling
    roll_note: str = ""
    # who runs the fight and how (saved with it, not part of the game state): the command,
    # its options, the agents' random state; see rules/saves.py
    session: dict[str, Any] = field(default_factory=dict)
    # the Ruleset object it is fought under (rules/protocol.py), set by the ruleset that
    # lays it out, so the rules' helpers ask it rather than look its name up in the
    # registry above them; ``ruleset`` stays the name that saves and logs write. Typed Any:
    # the protocol names Battle, and this module imports nothing that names it back.
    rules: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.ids = [c.id for c in self.combatants]
        self.occupied: dict[int, int] = {c.pos: c.slot for c in self.combatants if c.up}
        self.count_standing()

    def count_standing(self) -> None:
        """Standing combatants per side, kept up to date by the ruleset when one goes down."""
        self.standing = [0] * len(self.side_names)
        for c in self.combatants:
            if c.status == ACTIVE:
                self.standing[c.side] += 1
        self.sides_left = sum(1 for n in self.standing if n > 0)

    def fall(self, c: Combatant, status: str) -> None:
        """Take a combatant out of the fight (the ruleset decides when and how)."""
        if c.status == ACTIVE:
            self.standing[c.side] -= 1
            if self.standing[c.side] == 0:
                self.sides_left -= 1
        c.status = status
        self.remove_from_map(c)

    # --- queries used everywhere -------------------------------------------------------
    @property
    def active(self) -> Combatant:
        return self.combatants[self.order[self.turn]]

    def enemies_of(self, c: Combatant) -> list[Combatant]:
        return [o for o in self.combatants if o.side != c.side and o.status == ACTIVE]

    def allies_of(self, c: Combatant) -> list[Combatant]:
        return [o for o in self.combatants if o.side == c.side and o.status == ACTIVE and o is not c]

    def sides_standing(self) -> set[int]:
        return {s for s, n in enumerate(self.standing) if n > 0}

    def by_id(self, cid: str) -> Combatant:
        for c in self.combatants:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def roll(self, who: int, sides: int, n: int = 1, why: str = "") -> list[int]:
        """``n`` dice of ``sides`` faces rolled for combatant slot ``who`` (-1: nobody's)."""
        hook = self.dice_hook
        if hook is not None:
            got = hook(who, sides, n, why)
            if got is not None:
                # real dice are part of the history: a replay needs them to reach this state
                self.moves.append(dice_entry(self.ids[who] if who >= 0 else "-", sides, got, why))
                return got
        r = self.rng.random
        return [int(r() * sides) + 1 for _ in range(n)]

    def emit(self, events: list[Event], ev: Event) -> None:
        events.append(ev)
        if self.keep_log:
            self.log.append(ev)

    def record(self, actor: int, action: Action) -> None:
        # formatted only when read: notation text costs more than the rest of a decision
        self.moves.append((actor, action))

    @property
    def history(self) -> list[str]:
        """Every action applied, as "actor: notation" lines (what replay reads), with the
        faces of real dice ("@dice ..."), newcomers ("@join ...") and a GM's edits
        ("@gm ...") where they happened."""
        ids = self.ids
        return [m if isinstance(m, str) else f"{ids[m[0]]}: {m[1].text(ids, m[0])}"
                for m in self.moves]

    @history.setter
    def history(self, lines: list[str]) -> None:
        self.moves = list(lines)

    def mark(self, key: str) -> None:
        """Field ``key`` (a save key of LATER or of the book's later_keys) is now set."""
        if key not in self.later:
            self.later.append(key)

    def out_of_rounds(self) -> None:
        """The round limit ends the fight: a draw."""
        self.over = True
        self.winner = None
        self.mark("reason")
        self.end_reason = "max_rounds"

    def add_joined(self, entry: dict[str, Any]) -> None:
        joined = self.joined
        if joined is None:
            joined = self.joined = []
            self.mark("joined")
        joined.append(entry)

    def disarmed(self) -> None:
        """A weapon changed hands."""
        self.mark("armory")
        self.armory += 1

    def add(self, c: Combatant) -> None:
        """A combatant joins: it takes the next slot."""
        assert c.slot == len(self.combatants)
        self.combatants.append(c)
        self.ids.append(c.id)
        self.occupied[c.pos] = c.slot
        self.count_standing()

    def _rearm(self, c: Combatant) -> None:
        """Its weapons list as the state says: its own, then those it took from others
        (cond["taken"]), each found where it came from."""
        taken = c.cond.get("taken", ())
        own = c.own_weapons
        c.weapons = c.weapons[:own] + [self._weapon_from(s, i) for s, i in taken]
        c.weapon_bonus = c.weapon_bonus[:own] + [0] * len(taken)

    def _weapon_from(self, slot: int, i: int) -> Weapon:
        c = self.combatants[slot]
        if i < c.own_weapons:
            return c.weapons[i]
        s, j = c.cond["taken"][i - c.own_weapons]
        return self._weapon_from(s, j)

    def set_pos(self, c: Combatant, pos: int) -> None:
        if self.occupied.get(c.pos) == c.slot:
            del self.occupied[c.pos]
        c.pos = pos
        self.occupied[pos] = c.slot

    def remove_from_map(self, c: Combatant) -> None:
        if self.occupied.get(c.pos) == c.slot:
            del self.occupied[c.pos]

    # --- saving -------------------------------------------------------------------------
    def state(self, rng: bool = True) -> dict[str, Any]:
        """Everything that changes during a fight, as JSON-ready values; ``rng`` False:
        without the dice's state (a fork rolls its own)."""
        out: dict[str, Any] = {
            "round": self.round,
            "order": list(self.order),
            "turn": self.turn,
            "slot": self.slot,
            "reactions": [r.as_list() for r in self.reactions],
            "pending_move": self.pending_move,
            "winner": self.winner,
            "over": self.over,
            "extra": self.extra_json(),
        }
        if rng:
            out["rng"] = rng_to_json(self.rng)
        out["combatants"] = [c.state() for c in self.combatants]
        return out

    def restore(self, s: dict[str, Any]) -> None:
        self.round, self.turn, self.slot = s["round"], s["turn"], s["slot"]
        self.order = list(s["order"])
        self.reactions = [Reaction(*r) for r in s["reactions"]]
        self.pending_move = s["pending_move"]
        self.winner, self.over = s["winner"], s["over"]
        self.read_extra(s["extra"])
        if "rng" in s:  # else (a fork's state) the dice it has are kept
            rng_from_json(self.rng, s["rng"])
        for c, cs in zip(self.combatants, s["combatants"]):
            c.restore(cs)
        for c in self.combatants:
            if len(c.weapons) != c.own_weapons + len(c.cond.get("taken", ())):
                self._rearm(c)
        self.occupied = {c.pos: c.slot for c in self.combatants if c.up}
        self.count_standing()

    def extra_json(self) -> dict[str, Any]:
        """The save's "extra": the round limit and light, the book's fields, then what the
        fight gained (newcomers, the end's reason ...) in the order it did; copies."""
        out: dict[str, Any] = {"ambient": self.ambient, "max_rounds": self.max_rounds}
        book = self.book
        book.write(out)
        for k in self.later:
            if k == "reason":
                out[k] = self.end_reason
            elif k == "joined":
                out[k] = [{**j, "at": list(j["at"])} for j in self.joined or ()]
            elif k == "armory":
                out[k] = self.armory
            else:
                book.write_later(k, out)
        return out

    def read_extra(self, d: dict[str, Any]) -> None:
        """The fields ``extra_json`` wrote, back (copies)."""
        self.ambient = int(d.get("ambient", 0))
        self.max_rounds = int(d.get("max_rounds", 0))
        self.end_reason = d.get("reason")
        joined = d.get("joined")
        self.joined = None if joined is None else [{**j, "at": list(j["at"])} for j in joined]
        self.armory = int(d.get("armory", 0))
        book = self.book
        book.read(d)
        own = book.later_keys()
        self.later = [k for k in d if k in LATER or k in own]
