"""Observation vectors and action masks: the one place where a battle becomes numbers.

The observation is egocentric and the same length for every combatant, scenario and
ruleset, so one policy can drive any combatant anywhere. It is a flat float32 vector:

* a global block (``GLOBAL_FEATURES``): the decision (am I deciding, the slot - every
  ruleset's slots share one one-hot: PnP's small / large / free, 2d20's act / dice / boost
  / defend and free, and "other" for a slot not named here - the kind of reaction
  offered), the round, my own condition, weapon, position,
  and the action-point economy of rulesets that keep one (2d20: my side's AP pool, the
  fullest enemy pool, minor and major actions used and whether I moved this turn; zeros
  under PnP);
* ``MAX_COMBATANTS`` blocks of ``SLOT_FEATURES``, one per combatant in egocentric order:
  the observer first, then the others still fighting from the nearest out (ties: enemies
  first, then the most hurt), then those out of the fight. The order never depends on
  slot numbers (only an exact tie falls back to them), so what a policy learns about
  "the nearest enemy" holds in any scenario and any slot. Empty blocks are all zeros.

Actions in the envs are egocentric too: a targeted action's target ``k`` names the
combatant of observation block ``k`` (``0`` is the observer itself), so a policy's
"attack block 1" means "attack the nearest" wherever it fights. ``Encoder.order(me)``
gives the slots in block order; ``to_table`` and ``to_ego`` translate action ids between
the egocentric ids the envs speak and the fixed action table the rulesets speak.

The mask is the ruleset's ``legal_ids`` for the deciding combatant, translated to
egocentric ids, as a 0/1 vector. Only the ruleset decides legality; this module only
copies it.

Everything read here is ruleset-neutral battle state (positions, HP, statuses, weapons,
ammunition) or read generically: Speed from the stat block named like the ruleset when it
has a ``speed`` field (2d20 has none: 0); a weapon's range, fire rate and ammunition from
its profile named like the ruleset when it has one (2d20: the range band and fire rate;
ammunition comes straight from the supply, there is no magazine to load); the AP economy
from ``battle.book.economy()`` (``pools``, ``minor``, ``major``, ``moved``) when present; and, for a
ruleset that measures by zones (its ``tactics.zones(battle)`` is not None), the range band to each
combatant and the zone's cover instead of the square's.
"""

from __future__ import annotations

import copy
import operator
import struct
from collections.abc import Sequence
from typing import Any, Final, SupportsIndex

import numpy as np
from gymnasium import spaces

from wasteland.bestiary.models import Weapon
from wasteland.rules.actions import (
    ACTION_INDEX,
    ACTION_TABLE,
    MAX_COMBATANTS,
    MAX_WEAPONS,
    N_ACTIONS,
    Action,
)
from wasteland.rules.battle import ACTIVE, Battle, Combatant
from wasteland.rules.protocol import Decision, Ruleset
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.zones import Zones

from .buffers import ego_flags, flags8, floats32
from .features import (
    CONDITIONS,
    PATCH_CHANNELS,
    PATCH_SIDE,
    STATIC_FEATURES,
    condition_bits,
    condition_features,
    condition_row,
    patch_names,
    static_features,
    terrain_patch,
)
from .memory import SEEN_FEATURES, Memory, Sighting

END_ID: Final = ACTION_INDEX[Action("end")]

# every ruleset's decision slots: PnP's, then 2d20's; any other slot sets "slot_other"
SLOTS: Final = ("small", "large", "free", "act", "dice", "boost", "defend")
REACTIONS: Final = ("opportunity", "unguarded", "readied", "step")  # anything else: "other"

GLOBAL_FEATURES: Final = (
    "deciding", "round_frac",
    "slot_small", "slot_large", "slot_free", "slot_act", "slot_dice", "slot_boost",
    "slot_defend", "slot_other",
    "reaction_opportunity", "reaction_unguarded", "reaction_readied", "reaction_step",
    "reaction_other",
    "hp_frac", "ap", "loaded_frac", "reserve", "reloading",
    "weapon_melee", "weapon_ranged", "weapon_range", "weapon_rof", "weapon_reach",
    "spare_weapons", "healing_items",
    "readied", "free_used", "speed", "cover", "height", "visibility", "unguarded",
    "pool_mine", "pool_enemy", "minor_used", "major_used", "moved",
    *patch_names(),
)
# what the combatant itself shows (remembered as a whole when it goes out of sight)
STATE_FEATURES: Final = (
    "hp_frac", "crippled_head", "crippled_arm", "crippled_leg",
    "readied", "ranged", "free_used", "unguarded", "weapon_empty", *CONDITIONS,
)
assert len(STATE_FEATURES) == SEEN_FEATURES, "memory.py checks saved sightings' length"
SLOT_FEATURES: Final = (  # the four that do not change during a battle come first
    "present", "is_me", "ally", "enemy", "alive",
    "seen", "last_seen", "never_seen",  # knowledge: see Encoder.look
    "dx", "dy", "distance", "in_los", "cover", "height_diff", "range_band",  # geometry:
    # cached per square pair
    *STATE_FEATURES, *STATIC_FEATURES,
    "reaction_subject",
    *(f"{what}_w{i}" for i in range(MAX_WEAPONS) for what in ("hit", "damage")),
    "threat_hit", "threat_damage",
)
G: Final = len(GLOBAL_FEATURES)
B: Final = len(SLOT_FEATURES)
OBS_SIZE: Final = G + MAX_COMBATANTS * B
SIGNED: Final = ("dx", "dy", "height_diff")
AGE_SCALE: Final = 5.0  # last_seen: rounds since the combatant last saw it, over this
PATCH_AT: Final = GLOBAL_FEATURES.index(patch_names()[0])

AP_SCALE: Final = 10.0
SPEED_SCALE: Final = 10.0
ROF_SCALE: Final = 10.0
HEIGHT_SCALE: Final = 20.0
RESERVE_MAGAZINES: Final = 4.0
HEAL_SCALE: Final = 4.0
POOL_SCALE: Final = 6.0  # 2d20: a side's pool holds at most 6 AP
ACTIONS_SCALE: Final = 2.0  # 2d20: at most two minor and two major actions a turn
RANGE_BANDS: Final = ("close", "medium", "long", "extreme")  # 2d20 weapon ranges, nearest first
BAND_SCALE: Final = 3.0
NO_FEED: Final = 0  # how a weapon gets its ammunition (see Encoder)
MAGAZINE: Final = 1
SUPPLY: Final = 2


# what a combatant knows of its enemies (``Encoder(sight=...)``): "own", what it has seen
# itself; "side", what any standing member of its side sees or has seen since (a GM running
# a pack, players telling each other at the table). A policy's manifest records which.
SIGHTS: Final = ("own", "side")

# how blocks are ordered; part of what a trained policy's observation hash covers
ORDER_RULE: Final = ("me; active by distance (an enemy out of sight where last seen, one never "
                     "seen last), enemies first, lower hp fraction, slot; then fallen")


def feature_names() -> list[str]:
    """The name of every position of the observation vector, e.g. ``block3.hp_frac`` (the
    fourth combatant in egocentric order)."""
    names = list(GLOBAL_FEATURES)
    for k in range(MAX_COMBATANTS):
        names.extend(f"block{k}.{f}" for f in SLOT_FEATURES)
    return names


# Targeted actions: the target of each table id (-1: none) and, per id, the id of the same
# kind and option aimed at each combatant position (slot or block alike).
TARGET_OF: Final[tuple[int, ...]] = tuple(-1 if a.target is None else a.target for a in ACTION_TABLE)
RETARGET: Final[tuple[tuple[int, ...], ...]] = tuple(
    (i,) * MAX_COMBATANTS if a.target is None else
    tuple(ACTION_INDEX[Action(a.kind, t, a.option)] for t in range(MAX_COMBATANTS))
    for i, a in enumerate(ACTION_TABLE))


def to_table(action: SupportsIndex, order: Sequence[int]) -> int | None:
    """The table id of an egocentric action id, given the observation's block order (the
    slot of each block); None when it targets an empty block or is off the table. Any
    integer will do (numpy's too: what a policy's sample is)."""
    ego_id = operator.index(action)
    if not 0 <= ego_id < N_ACTIONS:
        return None
    t = TARGET_OF[ego_id]
    if t < 0:
        return ego_id
    if t >= len(order):
        return None
    return RETARGET[ego_id][order[t]]


def to_ego(action: SupportsIndex, order: Sequence[int]) -> int:
    """The egocentric id of a table id (the inverse of ``to_table``)."""
    table_id = operator.index(action)
    t = TARGET_OF[table_id]
    if t < 0:
        return table_id
    return RETARGET[table_id][order.index(t)]


def ego_ids(legal: Sequence[int], order: Sequence[int]) -> list[int]:
    """Table ids to egocentric ids, for a whole legal list."""
    block = [0] * MAX_COMBATANTS
    for k, slot in enumerate(order):
        block[slot] = k
    return [i if TARGET_OF[i] < 0 else RETARGET[i][block[TARGET_OF[i]]] for i in legal]


# numpy's frombuffer reads a dtype instance passed by position at half the cost of a
# keyword and a scalar type (295 -> 141 ns): it is called twice a turn
_F32: Final = np.dtype(np.float32)
_I8: Final = np.dtype(np.int8)

# the same two tables as bytes, for the C mask (buffers.ego_flags), which counts 10 blocks
assert MAX_COMBATANTS == 10, "observe/_buffers.c and buffers.py assume 10 observation blocks"
_TARGET_BYTES: Final = bytes(t & 0xFF for t in TARGET_OF)
_RETARGET_BYTES: Final = b"".join(r.to_bytes(2, "little") for row in RETARGET for r in row)


def ego_mask(legal: list[int], order: list[int]) -> np.ndarray:
    """``mask_of(ego_ids(legal, order))`` in one pass, without the list of ids."""
    return np.frombuffer(ego_flags(legal, order, _TARGET_BYTES, _RETARGET_BYTES, N_ACTIONS),
                         _I8)


_BOX: Final[list[spaces.Box]] = []


def observation_box() -> spaces.Box:
    """The observation's Box: made once (gymnasium's Box prints its bounds into a string
    when made, 7 ms for these, which every env made for a new arena paid), then a shallow
    copy each time, with a random state of its own."""
    if not _BOX:
        _BOX.append(_make_box())
    return copy.copy(_BOX[0])


def _make_box() -> spaces.Box:
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    height = PATCH_CHANNELS.index("height")
    for sq in range(PATCH_SIDE * PATCH_SIDE):
        low[PATCH_AT + sq * len(PATCH_CHANNELS) + height] = -1.0
    for k in range(MAX_COMBATANTS):
        for f in SIGNED:
            low[G + k * B + SLOT_FEATURES.index(f)] = -1.0
    return spaces.Box(low=low, high=np.ones(OBS_SIZE, dtype=np.float32), dtype=np.float32)


def mask_box() -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8)


def mask_of(legal: Sequence[int], dtype: type = np.int8) -> np.ndarray:
    """A fresh 0/1 vector over the action table with ``legal`` set (int8, or bool)."""
    return np.frombuffer(flags8(legal if type(legal) is list else list(legal), N_ACTIONS),
                         dtype=dtype)


def fallback_id(legal: Sequence[int]) -> int:
    """What stands in for an action the env cannot take (an illegal one, or one an agent
    out of decisions never makes): ``end``, or where ``end`` is not legal (2d20's dice and
    boost windows) the first legal action, the cheapest choice (``buy 0``, ``boost 0``)."""
    return END_ID if END_ID in legal or not legal else legal[0]


# melee, ranged, range, RoF, reach (normalized), feed (NO_FEED / MAGAZINE / SUPPLY),
# magazine capacity (at least 1), ammunition id
WeaponFeatures = tuple[float, float, float, float, float, int, float, str]
# the cached pieces are typed as tuples of any length: mypyc keeps those as the Python
# tuples they are, where a fixed-length tuple type would unpack each into C doubles and
# box every float again when it joins the observation
Floats = tuple[float, ...]
_NO_CHOICE: Final[Floats] = (0.0,) * (len(SLOTS) + 1 + len(REACTIONS) + 1)
_SLOT_ONEHOT: Final = {s: tuple(1.0 if s == t else 0.0 for t in SLOTS) + (0.0,) for s in SLOTS}
_OTHER_SLOT: Final = (0.0,) * len(SLOTS) + (1.0,)
_REACTION_ONEHOT: Final = {r: tuple(1.0 if r == t else 0.0 for t in REACTIONS) + (0.0,)
                    for r in REACTIONS}
_OTHER_REACTION: Final = (0.0,) * len(REACTIONS) + (1.0,)
_NO_REACTION: Final = (0.0,) * (len(REACTIONS) + 1)
_NO_ECONOMY: Final[Floats] = (0.0,) * 5
_CHOICE: Final[dict[tuple[str, str | None], tuple[float, ...]]] = {}


def _choice(key: tuple[str, str | None]) -> tuple[float, ...]:
    """The slot and reaction one-hots of a decision, kept per (slot, reaction)."""
    slot, kind = key
    got = _CHOICE[key] = _SLOT_ONEHOT.get(slot, _OTHER_SLOT) + (
        _NO_REACTION if kind is None else _REACTION_ONEHOT.get(kind, _OTHER_REACTION))
    return got


def _f32(row: Floats) -> bytes:
    """``row`` as float32 in native order, the bytes ``floats32`` copies as they are: the
    rows an observation takes whole from what the encoder keeps (a block's first numbers,
    the stat block's, the terrain patch) are packed once, not number by number each time."""
    return struct.pack(f"={len(row)}f", *row)


_DOWN: Final = _f32((0.0,) * (len(SLOT_FEATURES) - 4))
# one out of the fight that a 2d20 attack targets (the dying may be attacked, seed 002):
# all that is said of it is that it is the subject
_DOWN_SUBJECT: Final = _f32(tuple(
    1.0 if name == "reaction_subject" else 0.0 for name in SLOT_FEATURES[4:]))
_WHOLE: Final[Floats] = (0.0, 0.0, 0.0)  # no crippled head, arms or legs
_SEEN: Final = _f32((1.0, 0.0, 0.0))  # seen now, 0 rounds ago, not "never seen"
_NEVER: Final = _f32((0.0, 1.0, 1.0))
_NO_GEOMETRY: Final = _f32((0.0,) * 7)
_UNKNOWN: Final = _f32((0.0,) * (len(STATE_FEATURES) + len(STATIC_FEATURES)))
_NO_ODDS: Final = _f32((0.0,) * (2 * MAX_WEAPONS + 2))


def _clip(x: float) -> float:
    return 1.0 if x > 1.0 else x


def weapon_features(w: Weapon, ruleset: str, size: int) -> WeaponFeatures:
    """The static features of a weapon. PnP reads the weapon's own fields (range in feet,
    RoF, a magazine to load); a ruleset with its own weapon profile (the field named like
    the ruleset, e.g. ``f2d20``) gives the range band and fire rate, and its ranged weapons
    draw on the ammunition supply directly. Range: PnP's in squares over the map size,
    2d20's band (close 0.25, medium 0.5, long 0.75, extreme 1); melee: reach."""
    ranged = w.kind == "ranged"
    prof = getattr(w, ruleset, None)
    capacity = float(max(1, w.capacity))
    if prof is None:
        reach_sq = (w.range_ft / 5.0) if ranged else float(w.reach)
        rng, rof = _clip(reach_sq / size), _clip(w.rof / ROF_SCALE)
        feed = MAGAZINE if w.magazine != "none" else NO_FEED
    else:
        band = getattr(prof, "range", None)
        rng = ((RANGE_BANDS.index(band) + 1) / len(RANGE_BANDS)
               if ranged and band in RANGE_BANDS else _clip(w.reach / size))
        rof = _clip(getattr(prof, "fire_rate", 0) / ROF_SCALE)
        feed = SUPPLY if (ranged and w.ammo) else NO_FEED
    return (0.0 if ranged else 1.0, 1.0 if ranged else 0.0, rng, rof, _clip(w.reach / 3.0),
            feed, capacity, w.ammo or "")


# a weapon taken from its owner: nothing to fire (a supply of no ammunition: empty)
_EMPTY_HANDS: Final[WeaponFeatures] = (0.0, 0.0, 0.0, 0.0, 0.0, SUPPLY, 1.0, "")


class _Slot:
    """What the encoder reads of one of a combatant's weapon slots, as plain attributes:
    read from a fixed-length tuple, mypyc unpacked every number of it into C and boxed
    them all again whenever the tuple was passed on (a fifth of the odds' time)."""

    def __init__(self, wf: WeaponFeatures, spare: float, gone: bool) -> None:
        # melee, ranged, range, RoF, reach, spare weapons: the global block's weapon part
        self.shown: Floats = wf[:5] + (spare,)
        self.ranged = wf[1] > 0.0
        self.feed = wf[5]
        self.capacity = wf[6]
        self.ammo = wf[7]
        self.gone = gone  # taken from it or put away: empty hands


class _Kept:
    """A value worked out from fixed bestiary objects (a creature and its armor, a weapon),
    kept with them: holding them keeps their ids from being reused by another object."""

    def __init__(self, a: object, b: object, floats: Floats, number: float,
                 weapon: WeaponFeatures | None = None) -> None:
        self.a = a
        self.b = b
        self.floats = floats
        self.packed = _f32(floats)
        self.number = number
        self.weapon = weapon


# a new battle's encoder used to read every combatant's stat block and weapons again
# through pydantic's attribute lookups, as much work as a hundred observations; these
# keep what it found by the identity of the (unchanging) objects read
_KEPT_MAX: Final = 4096
_STATIC_KEPT: Final[dict[tuple[int, int, str], _Kept]] = {}
_WEAPON_KEPT: Final[dict[tuple[int, str, int], _Kept]] = {}
_PREFIX_KEPT: Final[dict[tuple[int, ...], tuple[list[list[Floats]], list[list[bytes]],
                                                  list[list[bytes]]]]] = {}


def _static_of(c: Combatant, ruleset: str) -> _Kept:
    """``static_features`` and base Speed of ``c``, kept per creature, armor and ruleset."""
    key = (id(c.creature), id(c.armor), ruleset)
    got = _STATIC_KEPT.get(key)
    if got is not None and got.a is c.creature and got.b is c.armor:
        return got
    if len(_STATIC_KEPT) >= _KEPT_MAX:
        _STATIC_KEPT.clear()
    stats = getattr(c.creature, ruleset, None)
    got = _STATIC_KEPT[key] = _Kept(c.creature, c.armor, static_features(c, ruleset),
                                    _clip(getattr(stats, "speed", 0) / SPEED_SCALE))
    return got


def _weapon_of(w: Weapon, ruleset: str, size: int) -> WeaponFeatures:
    """``weapon_features``, kept per weapon, ruleset and map size."""
    key = (id(w), ruleset, size)
    got = _WEAPON_KEPT.get(key)
    if got is not None and got.a is w and got.weapon is not None:
        return got.weapon
    if len(_WEAPON_KEPT) >= _KEPT_MAX:
        _WEAPON_KEPT.clear()
    wf = weapon_features(w, ruleset, size)
    _WEAPON_KEPT[key] = _Kept(w, None, (), 0.0, wf)
    return wf


def _prefixes(sides: list[int]) -> tuple[list[list[Floats]], list[list[bytes]],
                                          list[list[bytes]]]:
    """Per observer, per combatant: present, is_me, ally, enemy; the same packed
    (``_f32``); and packed with alive after them, kept per line-up of sides. Shared and
    never written to."""
    key = tuple(sides)
    got = _PREFIX_KEPT.get(key)
    if got is None:
        n = len(sides)
        prefix: list[list[Floats]] = [
            [(1.0, 1.0 if i == j else 0.0, 1.0 if (sides[i] == sides[j] and i != j) else 0.0,
              0.0 if sides[i] == sides[j] else 1.0) for j in range(n)] for i in range(n)]
        if len(_PREFIX_KEPT) >= _KEPT_MAX:
            _PREFIX_KEPT.clear()
        packed = [[_f32(p) for p in row] for row in prefix]
        alive = [[_f32(p + (1.0,)) for p in row] for row in prefix]
        got = _PREFIX_KEPT[key] = (prefix, packed, alive)
    return got


# STATE_FEATURES after hp_frac, by the bits that decide them (``Encoder._state_bits``):
# shared rows rather than twenty numbers boxed again for each combatant observed
_TAILS: Final[dict[int, tuple[Any, ...]]] = {}
# where the bits of _state_bits sit (conditions take bits 0-10)
_READIED: Final = 1 << 11
_RANGED: Final = 1 << 12
_FREE_USED: Final = 1 << 13
_UNGUARDED: Final = 1 << 14
_EMPTY: Final = 1 << 15
_CRIPPLED: Final = 1 << 16  # a crippled dict that is not empty: the head is a bool then
_HEAD: Final = 1 << 17
_ARM_AT: Final = 18  # two bits each: none, one (0.5), two or more (1.0)
_LEG_AT: Final = 20
_LIMB: Final[Floats] = (0.0, 0.5, 1.0)


def _limb(n: float) -> int:
    """The two bits of a crippled-limb count scaled by a half (``_state``), -1 for a
    value off the three the bits hold (then the row is built as it is)."""
    return 0 if n == 0.0 else 1 if n == 0.5 else 2 if n >= 1.0 else -1


def _tail(bits: int) -> tuple[Any, ...]:
    """The row of ``_TAILS`` for ``bits``, made the first time it is asked for."""
    got = _TAILS.get(bits)
    if got is not None:
        return got
    if bits & _CRIPPLED:
        crip: tuple[Any, ...] = (bits & _HEAD != 0, _LIMB[(bits >> _ARM_AT) & 3],
                                 _LIMB[(bits >> _LEG_AT) & 3])
    else:
        crip = _WHOLE
    # bools where the features were bools: a remembered state keeps its JSON as it was
    got = _TAILS[bits] = crip + (bits & _READIED != 0, bits & _RANGED != 0,
                                 bits & _FREE_USED != 0, bits & _UNGUARDED != 0,
                                 bits & _EMPTY != 0) + condition_row(bits & 2047)
    return got


class Encoder:
    """Encodes one battle; the parts that never change during a fight are computed once
    (a combatant's weapon features again when a disarm changes what it carries).

    ``ruleset`` is the battle's ruleset (default: the registered one named
    ``battle.ruleset``); it is only asked whether it measures by zones. ``memory``: what
    the combatants have seen (memory.py), shared with the other encoders that must agree
    with this one (the env's, a game's agents); by default a memory of its own."""

    def __init__(self, battle: Battle, ruleset: Ruleset | None = None,
                 sight: str = "own", memory: Memory | None = None) -> None:
        if sight not in SIGHTS:
            raise ValueError(f"sight must be one of {', '.join(SIGHTS)}, got {sight!r}")
        self.battle = battle
        self.memory: Memory = memory if memory is not None else Memory()
        self.side_sight = sight == "side"
        g = battle.grid
        if ruleset is None:
            ruleset = get_ruleset(battle.ruleset)
        self.n = len(battle.combatants)
        self.width, self.height = g.width, g.height
        self.inv_w = 1.0 / max(1, g.width - 1)
        self.inv_h = 1.0 / max(1, g.height - 1)
        self.inv_size = 1.0 / max(g.width, g.height)
        self.ambient = min(0, battle.ambient)
        self.max_rounds = float(battle.max_rounds) or 1.0
        healing = {k for k, it in battle.items.items() if getattr(it, "kind", "") == "healing"}
        self.healing = healing
        # per combatant: the static features of each weapon, and base Speed
        self._slots: list[list[_Slot]] = []
        self._arm()
        kept = [_static_of(c, battle.ruleset) for c in battle.combatants]
        self.speed: list[float] = [k.number for k in kept]
        # zones (2d20): the cover of a square is its zone's, and range bands are known
        self.zones: Zones | None = ruleset.tactics.zones(battle)
        z = self.zones
        if z is not None:
            geo_key = f"_obs_geometry_{battle.ruleset}"
            cover: list[int] | None = g.caches.get(f"{geo_key}_cover")
            if cover is None:
                cover = g.caches[f"{geo_key}_cover"] = [z.cover(k) if k >= 0 else 0
                                                        for k in z.zone_of]
            self.cover: Sequence[int] = cover
        else:
            self.cover = g.cover
            geo_key = "_obs_geometry"
        # per square: cover, height, visibility (the square or the light, the worse)
        cells_key = f"{geo_key}_cells_{self.ambient}"
        self._cell: list[Floats] = g.caches.get(cells_key) or []
        if not self._cell:
            self._cell = [(self.cover[i] / 3.0, _clip(g.heights[i] / HEIGHT_SCALE),
                           _clip(min(g.vis[i], self.ambient) / -10.0)) for i in range(g.n_cells)]
            g.caches[cells_key] = self._cell
        # per observer, per combatant: present, is_me, ally, enemy
        self._prefix, self._prefix_down, self._prefix_alive = _prefixes(
            [c.side for c in battle.combatants])
        self._cells = g.n_cells
        # per observer square, the geometry to every square (filled as squares are seen)
        self._geo: dict[int, list[tuple[float, ...] | None]] = g.caches.setdefault(geo_key, {})
        # the AP economy (2d20): each side's enemy sides
        self.economy = battle.book.economy() is not None
        n_sides = len(battle.side_names)
        self._enemy_sides = [[s for s in range(n_sides) if s != side] for side in range(n_sides)]
        self.tactics = ruleset.tactics
        # kind, Defense and DR: fixed for a creature and its armor
        self._static: list[Floats] = [k.floats for k in kept]
        self._static_packed: list[bytes] = [k.packed for k in kept]
        # the terrain around each square (kept with the map, like the geometry)
        self._patch: dict[int, bytes] = g.caches.setdefault(
            f"{geo_key}_patch32_{self.ambient}", {})

    def _arm(self) -> None:
        """The features of each combatant's weapons, worked out again whenever what the
        combatants carry changes (``battle.armory`` counts the changes: Simple's
        disarm, dropping and putting away). A weapon it no longer has (``cond["gone"]``),
        or the one in hand put away (``cond["stowed"]``), reads as empty hands."""
        b = self.battle
        g = b.grid
        size = max(g.width, g.height)
        self._armory = b.armory
        self._slots = []
        for c in b.combatants:
            gone = c.cond.get("gone", ())
            away = c.active_weapon if c.cond.get("stowed") else -1
            spare = _clip((len(c.weapons) - len(gone) - 1) / max(1, MAX_WEAPONS - 1))
            spare = spare if spare > 0.0 else 0.0
            slots = []
            for i, w in enumerate(c.weapons):
                empty = i in gone or i == away
                slots.append(_Slot(_EMPTY_HANDS if empty else _weapon_of(w, b.ruleset, size),
                                   spare, empty))
            self._slots.append(slots)

    def __reduce__(self) -> tuple[Any, ...]:
        # copied and pickled (vector envs, Ray) by building it again from its battle and
        # its memory: compiled it has no __dict__ to copy; the rest is worked out from the
        # battle or lives with the map. Copied with its owner (an env), the memory stays
        # the one instance they share
        return (Encoder, (self.battle, None, "side" if self.side_sight else "own",
                          self.memory))

    def look(self, me: int) -> None:
        """What combatant ``me`` sees now of each enemy in its line of sight, kept until it
        sees that enemy again: the envs call it at each of ``me``'s decisions (and
        ``observe`` with a decision does it too), as a player looks around the table on
        their turn. An enemy out of sight is then observed where and as it was last seen,
        with how many rounds ago; one never seen, with nothing but that."""
        b = self.battle
        if b.armory != self._armory:
            self._arm()
        cs = b.combatants
        c = cs[me]
        if self.side_sight:
            self._look_as_side(me)
            return
        row = b.grid.sight[c.pos]
        seen: list[Sighting | None] | None = None
        for o in cs:
            if o.side != c.side and o.status == ACTIVE and row[o.pos]:
                if seen is None:
                    seen = self.memory.row(me, len(cs))
                seen[o.slot] = Sighting(o.pos, b.round, self._state(o))

    def _look_as_side(self, me: int) -> None:
        """``look`` with side sight: each enemy any standing member of ``me``'s side sees
        now is remembered, as it is now, by every standing member (``me`` included)."""
        b = self.battle
        cs = b.combatants
        members = self._members(me)
        now = self._side_sees(me, members)
        side = cs[me].side
        memory = self.memory
        for o in cs:
            if now[o.slot] and o.side != side:
                rec = Sighting(o.pos, b.round, self._state(o))
                for k in members:
                    memory.row(k, len(cs))[o.slot] = rec

    def _members(self, me: int) -> list[int]:
        """The slots whose eyes ``me``'s side has: its standing members, and ``me``."""
        cs = self.battle.combatants
        side = cs[me].side
        return [a.slot for a in cs if a.side == side and (a.status == ACTIVE or a.slot == me)]

    def _side_sees(self, me: int, members: list[int] | None = None) -> list[bool]:
        """Per slot: whether one of ``me``'s side's ``members`` (default: ``_members``)
        sees it now."""
        cs = self.battle.combatants
        sight = self.battle.grid.sight
        eyes = [sight[cs[k].pos] for k in (self._members(me) if members is None else members)]
        return [any(e[o.pos] for e in eyes) for o in cs]

    def _state(self, o: Combatant) -> tuple[Any, ...]:
        """``STATE_FEATURES`` of combatant ``o`` (what it shows to anyone who sees it)."""
        hp, mhp = o.hp, o.max_hp
        return (hp / mhp if mhp > 0 else 0.0,) + self._state_tail(o)

    def _state_tail(self, o: Combatant) -> tuple[Any, ...]:
        """``STATE_FEATURES`` of ``o`` after ``hp_frac``: one of the shared ``_TAILS``."""
        bits = self._state_bits(o)
        if bits >= 0:
            got = _TAILS.get(bits)
            return got if got is not None else _tail(bits)
        # a crippled count off 0, 1, 2+ (none the rules write): built as it is
        cr = o.crippled
        ca = cr.get("arm", 0) * 0.5
        cl = cr.get("leg", 0) * 0.5
        w = self._slots[o.slot][o.active_weapon]
        return ((cr.get("head", 0) != 0, ca if ca < 1.0 else 1.0, cl if cl < 1.0 else 1.0)
                + (o.readied, w.ranged, o.free_used, o.unguarded, self._empty(o, w))
                + condition_features(self.battle, o))

    def _state_bits(self, o: Combatant) -> int:
        """What decides ``o``'s state after its HP fraction, as the bits of ``_TAILS``;
        -1 when a crippled count is off the values the bits hold."""
        w = self._slots[o.slot][o.active_weapon]
        bits = condition_bits(self.battle, o)
        if o.readied:
            bits |= _READIED
        if w.ranged:
            bits |= _RANGED
        if o.free_used:
            bits |= _FREE_USED
        if o.unguarded:
            bits |= _UNGUARDED
        if self._empty(o, w):
            bits |= _EMPTY
        cr = o.crippled
        if cr:
            arm = _limb(cr.get("arm", 0) * 0.5)
            leg = _limb(cr.get("leg", 0) * 0.5)
            if arm < 0 or leg < 0:
                return -1
            bits |= _CRIPPLED | (arm << _ARM_AT) | (leg << _LEG_AT)
            if cr.get("head", 0) != 0:
                bits |= _HEAD
        return bits

    def _empty(self, o: Combatant, w: _Slot) -> bool:
        """Whether the weapon in ``o``'s hand (``w``) shows empty: a magazine with no
        rounds or being reloaded, or a supply run out."""
        feed = w.feed
        if not feed:
            return False
        if feed == MAGAZINE:
            st = o.weapon_states[o.active_weapon]
            return st.loaded == 0 or st.reload_step != 0
        return o.ammo.get(w.ammo, 0) <= 0  # SUPPLY

    def _ready(self, c: Combatant, i: int) -> bool:
        """Whether ``c`` can fire or swing weapon slot ``i`` now without reloading: it
        still has it, it is not put away, and it has the rounds."""
        if self._slots[c.slot][i].gone:
            return False
        return self.tactics.rounds_ready(c, i) > 0

    def _odds(self, c: Combatant, o: Combatant, ready: list[bool] | None = None
              ) -> tuple[float, ...]:
        """For each of ``c``'s weapon slots, the exact chance its attack on ``o`` hits if
        made now (0 when that weapon cannot attack ``o`` from here, or is not ready) and
        the expected damage of a hit over ``o``'s HP left; then the same two for ``o``'s
        weapon in hand against ``c`` (the threat it poses). ``ready``: ``_ready`` of each
        of ``c``'s first MAX_WEAPONS slots, when the caller has it (it is ``c``'s alone)."""
        b = self.battle
        tac = self.tactics
        held = c.active_weapon
        out: list[float] = []
        n = len(c.weapons)
        if n > MAX_WEAPONS:
            n = MAX_WEAPONS
        if ready is None:
            ready = [self._ready(c, i) for i in range(n)]
        for i in range(n):
            if ready[i] and tac.can_attack(b, c, o, i):
                c.active_weapon = i  # the odds read the weapon in hand: put back at once
                try:
                    p = tac.hit_chance(b, c, o, None, 0)
                finally:
                    c.active_weapon = held
                d = max(0.0, tac.damage_per_hit(b, c, i, o)) / max(1, o.hp)
                out.append(p)
                out.append(d if d < 1.0 else 1.0)
            else:
                out.append(0.0)
                out.append(0.0)
        for _ in range(n, MAX_WEAPONS):
            out.append(0.0)
            out.append(0.0)
        ow = o.active_weapon
        if self._ready(o, ow) and tac.can_attack(b, o, c, ow):
            d = max(0.0, tac.damage_per_hit(b, o, ow, c)) / max(1, c.hp)
            out.append(tac.hit_chance(b, o, c, None, 0))
            out.append(d if d < 1.0 else 1.0)
        else:
            out.append(0.0)
            out.append(0.0)
        return tuple(out)

    def _geometry(self, a: int, b: int) -> tuple[float, ...]:
        """dx, dy, distance, line of sight, cover, height difference and range band from
        square a to b: fixed for a map, so computed once per pair and kept with the map."""
        g = self.battle.grid
        ox, oy = g.xs[b] - g.xs[a], g.ys[b] - g.ys[a]
        dist = max(abs(ox), abs(oy)) * self.inv_size
        dh = max(-1.0, min(1.0, (g.heights[b] - g.heights[a]) / HEIGHT_SCALE))
        band = self.zones.band(a, b) / BAND_SCALE if self.zones is not None else 0.0
        got = (ox * self.inv_w, oy * self.inv_h, min(1.0, dist), float(g.sight[a][b]),
               self.cover[b] / 3.0, dh, band)
        self._geo[a][b] = got
        return got

    def order(self, me: int) -> list[int]:
        """The slots of the combatants in the order of the observation's blocks: ``me``, the
        others still fighting by distance (ties: enemies, then the lower HP fraction, then
        the slot), then those out of the fight in the same way."""
        cs = self.battle.combatants
        g = self.battle.grid
        xs, ys = g.xs, g.ys
        p = cs[me].pos
        x0, y0 = xs[p], ys[p]
        enemy = self._prefix[me]
        side = cs[me].side
        seen_row = g.sight[p]
        by_side = self._side_sees(me) if self.side_sight else None
        rows = self.memory.rows
        remembered = rows[me] if me < len(rows) else None
        # sorted by (out of the fight, distance, not an enemy, HP fraction, slot): the
        # first three packed into one int (a map is at most 32 squares across), placed by
        # insertion among at most 9 others; comparing key tuples in list.sort took 8% of
        # an env turn. No two combatants share a slot, so the order is the sort's.
        heads: list[int] = []
        fracs: list[float] = []
        out = [me]
        for o in cs:
            j = o.slot
            if j == me:
                continue
            q = o.pos
            frac = o.hp / o.max_hp if o.max_hp > 0 else 0.0
            if o.side != side and not (seen_row[q] if by_side is None else by_side[j]):
                # where it was last seen; never seen: after the rest
                rec = remembered[j] if remembered is not None and j < len(remembered) else None
                q = rec.square if rec is not None else -1
                frac = float(rec.state[0]) if rec is not None else 1.0
            if q >= 0:
                dx, dy = xs[q] - x0, ys[q] - y0
                d = (dx if dx > 0 else -dx)
                dy = dy if dy > 0 else -dy
                if dy > d:
                    d = dy
            else:
                d = 1 << 18
            head = ((1 if o.status != ACTIVE else 0) << 20) | (d << 1) | (
                0 if enemy[j][3] == 1.0 else 1)
            i = len(heads)
            while i > 0:
                h = heads[i - 1]
                if h < head or (h == head and (fracs[i - 1] < frac or (
                        fracs[i - 1] == frac and out[i] < j))):
                    break
                i -= 1
            heads.insert(i, head)
            fracs.insert(i, frac)
            out.insert(i + 1, j)
        return out

    def observe(self, me: int, dec: Decision | None = None,
                order: Sequence[int] | None = None, full: bool = False,
                look: bool = True) -> np.ndarray:
        """The observation of combatant slot ``me``; ``dec`` is the current decision if it is
        ``me``'s (else the decision features are zeros; given, ``me`` looks around first:
        ``look``, unless ``look`` is False because the caller has just done it for this
        decision, as the AEC env does when it finds the decision); ``order`` the block
        order if already known (``self.order(me)``). ``full``: every enemy as it is now,
        seen or not (the env's ``state()``)."""
        if dec is not None and look:
            self.look(me)
        blocks = order if order is not None else self.order(me)
        b = self.battle
        if b.armory != self._armory:
            self._arm()
        cs = b.combatants
        c = cs[me]
        pos = c.pos
        aw = c.active_weapon
        wf = self._slots[me][aw]
        st = c.weapon_states[aw]
        x = b.round / self.max_rounds
        subject = -1
        # numbers and tuples of numbers, flattened by floats32: a tuple kept with a map or
        # a combatant joins as one item, not copied number by number
        out: list[Any]
        if dec is not None:
            out = [1.0, x if x < 1.0 else 1.0]
            key = (dec.slot, dec.reaction)
            out.append(_CHOICE.get(key) or _choice(key))
            if dec.subject is not None:  # a reaction's subject, or 2d20's attack target
                subject = dec.subject
        else:
            out = [0.0, x if x < 1.0 else 1.0]
            out.append(_NO_CHOICE)
        feed = wf.feed
        if not feed:
            loaded, reserve = 1.0, 0.0
        elif feed == MAGAZINE:
            loaded = st.loaded / wf.capacity
            if loaded > 1.0:
                loaded = 1.0
            reserve = c.ammo.get(wf.ammo, 0) / (wf.capacity * RESERVE_MAGAZINES)
            if reserve > 1.0:
                reserve = 1.0
        else:  # SUPPLY, no magazine: the weapon fires while the supply lasts
            left = c.ammo.get(wf.ammo, 0)
            loaded = 1.0 if left > 0 else 0.0
            reserve = left / (wf.capacity * RESERVE_MAGAZINES)
            if reserve > 1.0:
                reserve = 1.0
        heal = 0.0
        if c.items:
            healing = self.healing
            for k, v in c.items.items():
                if k in healing:
                    heal += v
            heal /= HEAL_SCALE
            if heal > 1.0:
                heal = 1.0
        hp, mhp = c.hp, c.max_hp
        ap = c.ap / AP_SCALE
        out.append((
            hp / mhp if (hp > 0 and mhp > 0) else 0.0,
            ap if ap < 1.0 else 1.0, loaded, reserve, 1.0 if st.reload_step else 0.0,
        ))
        out.append(wf.shown)
        out.append((heal, c.readied, c.free_used,
                    0.0 if c.crippled.get("leg") else self.speed[me]))
        out.append(self._cell[pos])
        out.append(c.unguarded)
        econ = b.book.economy() if self.economy else None
        if econ is not None:  # my side's pool, the fullest enemy pool; my turn's actions
            pools = econ.pools
            es = self._enemy_sides[c.side]
            pm = pools[c.side] / POOL_SCALE
            pe = (pools[es[0]] if len(es) == 1 else max([pools[s] for s in es], default=0)
                  ) / POOL_SCALE
            order, turn = b.order, b.turn
            if not b.over and turn < len(order) and order[turn] == me:
                out.append((pm if pm < 1.0 else 1.0, pe if pe < 1.0 else 1.0,
                            _clip(econ.minor / ACTIONS_SCALE),
                            _clip(econ.major / ACTIONS_SCALE),
                            1.0 if econ.moved else 0.0))
            else:
                out.append((pm if pm < 1.0 else 1.0, pe if pe < 1.0 else 1.0, 0.0, 0.0, 0.0))
        else:
            out.append(_NO_ECONOMY)
        patch = self._patch.get(pos)
        if patch is None:
            patch = self._patch[pos] = _f32(terrain_patch(b.grid, self.cover, pos,
                                                          self.ambient))
        out.append(patch)
        row = self._geo.get(pos)
        if row is None:
            row = self._geo[pos] = [None] * self._cells
        subj = cs[subject] if subject >= 0 else None
        prefix, prefix_alive = self._prefix_down[me], self._prefix_alive[me]
        static = self._static_packed
        seen_row = b.grid.sight[pos]
        by_side = self._side_sees(me) if self.side_sight and not full else None
        side = c.side
        rows = self.memory.rows
        seen_by = rows[me] if me < len(rows) else None
        # at a decision ``look`` has just recorded each enemy in sight as it is now (the
        # state the block shows after the HP fraction): read there, not worked out again
        fresh = seen_by if dec is not None and not full else None
        ready: list[bool] | None = None  # my weapons' _ready, asked once for all enemies
        for j in blocks:
            o = cs[j]
            if o.status != ACTIVE:  # out of the fight: who it was is all that is left
                out.append(prefix[j])
                out.append(_DOWN_SUBJECT if o is subj else _DOWN)
                continue
            out.append(prefix_alive[j])
            p = o.pos
            if full or o.side == side or (seen_row[p] if by_side is None else by_side[j]):
                out.append(_SEEN)
                out.append(row[p] or self._geometry(pos, p))
                rec = fresh[j] if fresh is not None and o.side != side else None
                if rec is not None:  # _state(o): the HP fraction, then the tail
                    out.append(rec.state)
                else:
                    ohp, omhp = o.hp, o.max_hp
                    out.append(ohp / omhp if omhp > 0 else 0.0)
                    out.append(self._state_tail(o))
                out.append(static[j])
                out.append(o is subj)
                if o.side == side:
                    out.append(_NO_ODDS)
                    continue
                if ready is None:
                    n = len(c.weapons)
                    ready = [self._ready(c, i) for i in range(n if n < MAX_WEAPONS else MAX_WEAPONS)]
                out.append(self._odds(c, o, ready))
                continue
            rec = seen_by[j] if seen_by is not None and j < len(seen_by) else None
            if rec is None:  # never seen: that it is there, and no more
                out.append(_NEVER)
                out.append(_NO_GEOMETRY)
                out.append(_UNKNOWN)
            else:  # where and as it was when last seen; not in sight now
                q = rec.square
                age = (b.round - rec.round) / AGE_SCALE
                out.append((0.0, age if age < 1.0 else 1.0, 0.0))
                geo = row[q] or self._geometry(pos, q)
                out.append(geo[:3] + (0.0,) + geo[4:])
                out.append(rec.state)
                out.append(static[j])
            out.append(o is subj)
            out.append(_NO_ODDS)
        # zeros after the last combatant's block: empty blocks
        return np.frombuffer(floats32(out, OBS_SIZE), _F32)

