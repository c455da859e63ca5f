"""Observation v1's per-combatant facts that are not geometry: what kind of creature it is,
how hard it is to hit and hurt, its conditions; and the egocentric patch of terrain around
the decider. Each returns a tuple of floats in [-1, 1] that joins the observation as one
item (observe/encoding.py, which places them and names them)."""

from __future__ import annotations

from typing import Any, Final

from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.grid import Grid

Floats = tuple[float, ...]

KINDS: Final = ("animal", "insect", "mutant", "robot", "ghoul", "human", "character")
STATIC_FEATURES: Final = (*(f"kind_{k}" for k in KINDS), "defense", "dr_physical", "dr_energy")
CONDITIONS: Final = ("prone", "burrowed", "bleeding", "burning", "winded", "stunned", "dying",
                     "crippled", "ready_action", "overwatching", "evading")

DR_SCALE: Final = 20.0
HEIGHT_SCALE: Final = 20.0

PATCH_RADIUS: Final = 2  # a 5 x 5 patch of squares, the decider in the middle
PATCH_CHANNELS: Final = ("wall", "cover", "height", "dark")
PATCH_SIDE: Final = 2 * PATCH_RADIUS + 1


def patch_names() -> list[str]:
    """``patch_<row>_<col>.<channel>``, rows and columns -2..2 around the decider (row
    grows southwards, as the map's y)."""
    return [f"patch_{dy:+d}_{dx:+d}.{ch}"
            for dy in range(-PATCH_RADIUS, PATCH_RADIUS + 1)
            for dx in range(-PATCH_RADIUS, PATCH_RADIUS + 1)
            for ch in PATCH_CHANNELS]


def _c(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def _scale(stats: Any) -> float:
    """What Defense is divided by: the most the stat block's schema allows, at most 30
    (2d20's 5, Simple's 10; PnP's is open-ended, and 30 is past any creature's)."""
    field = type(stats).model_fields.get("defense") if stats is not None else None
    top = 30.0
    for m in getattr(field, "metadata", ()):
        le = getattr(m, "le", None)
        if isinstance(le, (int, float)) and le > 0:
            top = min(top, float(le))
    return top


def _resistance(block: Any) -> tuple[float, float]:
    """Physical and energy protection from a stat or armor block, whatever the ruleset
    calls it: DR per damage type (``dr``, or the block itself, as 2d20's armor), DT per
    damage type (``dt``: normal and laser), or PnP's PDT and EDT."""
    if block is None:
        return 0.0, 0.0
    dr = getattr(block, "dr", None) or (block if hasattr(block, "physical") else None)
    if dr is not None:
        return float(dr.physical), float(dr.energy)
    dt = getattr(block, "dt", None)
    if dt is not None:
        return float(dt.normal), float(dt.laser)
    return float(getattr(block, "pdt", 0) or 0), float(getattr(block, "edt", 0) or 0)


def static_features(c: Combatant, ruleset: str) -> Floats:
    """Creature kind one-hot; Defense; physical and energy DR (or DT), the creature's own
    and its armor's, read from the stat block named like the ruleset (and the armor's
    block of that name, or the armor's own PDT and EDT when it has none)."""
    kind = c.creature.kind
    onehot = tuple(1.0 if kind == k else 0.0 for k in KINDS)
    stats: Any = getattr(c.creature, ruleset, None)
    defense = float(getattr(stats, "defense", 0) or 0) / _scale(stats)
    phys, en = _resistance(stats)
    a = c.armor
    if a is not None:
        ap, ae = _resistance(getattr(a, ruleset, None) if hasattr(a, ruleset) else a)
        phys += ap
        en += ae
    return onehot + (_c(defense), _c(phys / DR_SCALE), _c(en / DR_SCALE))


def condition_features(b: Battle, c: Combatant) -> Floats:
    """The eleven ``CONDITIONS`` as 0/1, read from the combatant's conditions, whichever
    ruleset set them: bleeding counts a bleeding torso; burning counts a fire still burning
    on it and 2d20's persistent damage; winded is Simple's fatigue at or past HP; crippled
    is any crippled limb; ready_action a readied action (PnP's and 2d20's Ready) or a
    readied attack; evading Simple's evade this round or 2d20's Defend bonus."""
    return condition_row(condition_bits(b, c))


# the rows seen so far, by their bits: a row is shared, not built number by number again
# each time a combatant is observed (boxing eleven floats was a fifth of an observation)
_ROWS: Final[dict[int, Floats]] = {}


def condition_row(bits: int) -> Floats:
    """The ``CONDITIONS`` row whose bit k (``condition_bits``) says condition k holds."""
    row = _ROWS.get(bits)
    if row is None:
        row = _ROWS[bits] = tuple(1.0 if (bits >> k) & 1 else 0.0 for k in range(len(CONDITIONS)))
    return row


# the bit of ``condition_bits`` each condition's truth sets; fatigue and evade, compared
# with HP and the round, carry a mark instead (so that any other condition, not in the
# table, is passed over at once rather than tested against both names)
_FATIGUE: Final = -1
_EVADE: Final = -2
_BIT_OF: Final[dict[str, int]] = {
    "prone": 1, "burrowed": 2, "bleeding": 4, "torso_bleed": 4, "persist": 8, "stunned": 32,
    "dying": 64, "ready": 256, "overwatch": 512, "defend": 1024,
    "fatigue": _FATIGUE, "evade": _EVADE}


def condition_bits(b: Battle, c: Combatant) -> int:
    """``condition_features`` as bits, condition k (in ``CONDITIONS`` order) at bit k.
    Walks the conditions a combatant has (a few) rather than asking for each of the
    twelve that count (12 string lookups were a fifth of observing a combatant)."""
    bits = ((8 if c.burn_left > 0 else 0) | (128 if c.crippled else 0)
            | (256 if c.readied else 0))
    cond = c.cond
    if not cond:
        return bits
    bit_of = _BIT_OF
    for k, v in cond.items():
        bit = bit_of.get(k, 0)
        if bit > 0:
            if v:
                bits |= bit
        elif bit == _FATIGUE:
            if isinstance(v, int) and v > 0 and v >= c.hp:
                bits |= 16
        elif bit == _EVADE:
            if v == b.round:
                bits |= 1024
    return bits


def terrain_patch(g: Grid, cover: Any, pos: int, ambient: int) -> Floats:
    """The ``PATCH_SIDE`` x ``PATCH_SIDE`` squares around ``pos``, row by row, four
    channels each: wall (also off the map), cover (/3; the zone's under 2d20, as
    ``cover`` gives it), height over the decider's square (signed), and darkness (the
    square's visibility or the light, the worse). Fixed for a map: the caller keeps it."""
    x0, y0 = g.xs[pos], g.ys[pos]
    h0 = g.heights[pos]
    out: list[float] = []
    for dy in range(-PATCH_RADIUS, PATCH_RADIUS + 1):
        y = y0 + dy
        for dx in range(-PATCH_RADIUS, PATCH_RADIUS + 1):
            x = x0 + dx
            if not (0 <= x < g.width and 0 <= y < g.height):
                out.extend((1.0, 0.0, 0.0, 0.0))
                continue
            i = y * g.width + x
            dh = (g.heights[i] - h0) / HEIGHT_SCALE
            out.extend((0.0 if g.passable[i] else 1.0, cover[i] / 3.0,
                        -1.0 if dh < -1.0 else 1.0 if dh > 1.0 else dh,
                        _c(min(g.vis[i], ambient) / -10.0)))
    return tuple(out)
