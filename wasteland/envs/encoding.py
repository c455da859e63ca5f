"""Observation vectors and action masks: the one place where a battle becomes numbers.

The observation is egocentric and the same length for every combatant, scenario and
ruleset, so one policy can drive any combatant anywhere. It is a flat float32 vector:

* a global block (``GLOBAL_FEATURES``): the decision (am I deciding, the slot, the kind of
  reaction offered), the round, and my own condition, weapon, position;
* ``MAX_COMBATANTS`` blocks of ``SLOT_FEATURES``, one per combatant slot in slot order, so
  that block ``k`` describes the combatant that the action table's target ``k`` names.
  Empty slots are all zeros.

The mask is the ruleset's ``legal_ids`` for the deciding combatant as a 0/1 vector over the
fixed action table. Only the ruleset decides legality; this module only copies it.

Everything read here is ruleset-neutral battle state (positions, HP, statuses, weapons,
ammunition); the one stat-block number used, Speed, is read from the stat block named like
the ruleset when it has a ``speed`` field.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np
from gymnasium import spaces

from wasteland.rules.actions import ACTION_INDEX, MAX_COMBATANTS, MAX_WEAPONS, N_ACTIONS, Action
from wasteland.rules.battle import ACTIVE, Battle
from wasteland.rules.protocol import Decision

END_ID = ACTION_INDEX[Action("end")]

SLOTS = ("small", "large", "free")
REACTIONS = ("opportunity", "unguarded", "readied", "step")  # anything else: "other"

GLOBAL_FEATURES = (
    "deciding", "round_frac",
    "slot_small", "slot_large", "slot_free",
    "reaction_opportunity", "reaction_unguarded", "reaction_readied", "reaction_step",
    "reaction_other",
    "hp_frac", "ap", "loaded_frac", "reserve", "reloading",
    "weapon_melee", "weapon_ranged", "weapon_range", "weapon_rof", "weapon_reach",
    "spare_weapons", "healing_items",
    "readied", "free_used", "speed", "cover", "height", "visibility", "unguarded",
)
SLOT_FEATURES = (  # the four that do not change during a battle come first
    "present", "is_me", "ally", "enemy", "alive", "hp_frac",
    "dx", "dy", "distance", "in_los", "cover", "height_diff",  # geometry: cached per square pair
    "crippled_head", "crippled_arm", "crippled_leg",
    "readied", "reaction_subject", "ranged", "free_used", "unguarded", "weapon_empty",
)
G = len(GLOBAL_FEATURES)
B = len(SLOT_FEATURES)
OBS_SIZE = G + MAX_COMBATANTS * B
SIGNED = ("dx", "dy", "height_diff")

AP_SCALE = 10.0
SPEED_SCALE = 10.0
ROF_SCALE = 10.0
HEIGHT_SCALE = 20.0
RESERVE_MAGAZINES = 4.0
HEAL_SCALE = 4.0


def feature_names() -> list[str]:
    """The name of every position of the observation vector, e.g. ``slot3.hp_frac``."""
    names = list(GLOBAL_FEATURES)
    for k in range(MAX_COMBATANTS):
        names.extend(f"slot{k}.{f}" for f in SLOT_FEATURES)
    return names


def observation_box() -> spaces.Box:
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    for k in range(MAX_COMBATANTS):
        for f in SIGNED:
            low[G + k * B + SLOT_FEATURES.index(f)] = -1.0
    return spaces.Box(low=low, high=np.ones(OBS_SIZE, dtype=np.float32), dtype=np.float32)


def mask_box() -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8)


_NO_ACTIONS = bytes(N_ACTIONS)
_OBS_BYTES = bytes(4 * OBS_SIZE)


def mask_of(legal: Sequence[int], dtype: type = np.int8) -> np.ndarray:
    """A fresh 0/1 vector over the action table with ``legal`` set (int8, or bool)."""
    m = bytearray(_NO_ACTIONS)
    for i in legal:
        m[i] = 1
    return np.frombuffer(m, dtype=dtype)


# melee, ranged, range, RoF, reach (normalized), has a magazine, capacity, ammunition id
WeaponFeatures = tuple[float, float, float, float, float, float, float, str]
_ZERO3 = (0.0, 0.0, 0.0)
_ZERO5 = (0.0, 0.0, 0.0, 0.0, 0.0)
_SLOT_ONEHOT = {s: tuple(1.0 if s == t else 0.0 for t in SLOTS) for s in SLOTS}
_REACTION_ONEHOT = {r: tuple(1.0 if r == t else 0.0 for t in REACTIONS) + (0.0,)
                    for r in REACTIONS}
_OTHER_REACTION = (0.0, 0.0, 0.0, 0.0, 1.0)


_DOWN = (0.0,) * (len(SLOT_FEATURES) - 4)


def _clip(x: float) -> float:
    return 1.0 if x > 1.0 else x


class Encoder:
    """Encodes one battle; the parts that never change during a fight are computed once."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        g = battle.grid
        self.n = len(battle.combatants)
        self.width, self.height = g.width, g.height
        self.inv_w = 1.0 / max(1, g.width - 1)
        self.inv_h = 1.0 / max(1, g.height - 1)
        self.inv_size = 1.0 / max(g.width, g.height)
        self.ambient = min(0, int(battle.extra.get("ambient", 0) or 0))
        self.max_rounds = float(battle.extra.get("max_rounds") or 0) or 1.0
        healing = {k for k, it in battle.items.items() if getattr(it, "kind", "") == "healing"}
        self.healing = healing
        # per combatant: the static features of each weapon, and base Speed
        self.weapons: list[list[WeaponFeatures]] = []
        self.speed: list[float] = []
        size = max(g.width, g.height)
        for c in battle.combatants:
            ws = []
            for w in c.weapons:
                ranged = w.kind == "ranged"
                reach_sq = (w.range_ft / 5.0) if ranged else float(w.reach)
                has_mag = w.magazine != "none"
                ws.append((
                    0.0 if ranged else 1.0, 1.0 if ranged else 0.0,
                    _clip(reach_sq / size), _clip(w.rof / ROF_SCALE), _clip(w.reach / 3.0),
                    1.0 if has_mag else 0.0, float(max(1, w.capacity)), w.ammo or "",
                ))
            self.weapons.append(ws)
            stats = getattr(c.creature, battle.ruleset, None)
            self.speed.append(_clip(getattr(stats, "speed", 0) / SPEED_SCALE))
        top = max(g.heights) if g.heights else 0
        self._height = {h: _clip(h / HEIGHT_SCALE) for h in set(g.heights) | {top}}
        # per observer, per combatant: present, is_me, ally, enemy
        sides = [c.side for c in battle.combatants]
        self._prefix = [[(1.0, 1.0 if i == j else 0.0,
                          1.0 if (sides[i] == sides[j] and i != j) else 0.0,
                          0.0 if sides[i] == sides[j] else 1.0) for j in range(self.n)]
                        for i in range(self.n)]
        self._prefix_alive = [[p + (1.0,) for p in row] for row in self._prefix]
        self._cells = g.n_cells
        self._geo: dict[int, tuple[float, ...]] = g.__dict__.setdefault("_obs_geometry", {})
        self._pack = struct.Struct(f"={G + self.n * B}f").pack_into
        self._spare = [_clip((len(c.weapons) - 1) / max(1, MAX_WEAPONS - 1))
                       for c in battle.combatants]

    def _geometry(self, a: int, b: int) -> tuple[float, ...]:
        """dx, dy, distance, line of sight, cover, height difference from square a to b:
        fixed for a map, so computed once per pair and kept with the map."""
        g = self.battle.grid
        ox, oy = g.xs[b] - g.xs[a], g.ys[b] - g.ys[a]
        dist = max(abs(ox), abs(oy)) * self.inv_size
        dh = max(-1.0, min(1.0, (g.heights[b] - g.heights[a]) / HEIGHT_SCALE))
        got = (ox * self.inv_w, oy * self.inv_h, min(1.0, dist), float(g.sight[a][b]),
               g.cover[b] / 3.0, dh)
        self._geo[a * self._cells + b] = got
        return got

    def observe(self, me: int, dec: Decision | None = None) -> np.ndarray:
        """The observation of combatant slot ``me``; ``dec`` is the current decision if it is
        ``me``'s (else the decision features are zeros)."""
        b = self.battle
        g = b.grid
        cs = b.combatants
        c = cs[me]
        cover, heights = g.cover, g.heights
        pos = c.pos
        mh = heights[pos]
        wf = self.weapons[me][c.active_weapon]
        st = c.weapon_states[c.active_weapon]
        x = b.round / self.max_rounds
        subject = -1
        if dec is not None:
            out = [1.0, x if x < 1.0 else 1.0]
            out += _SLOT_ONEHOT.get(dec.slot, _ZERO3)
            kind = dec.reaction
            if kind is not None:
                out += _REACTION_ONEHOT.get(kind, _OTHER_REACTION)
                if dec.subject is not None:
                    subject = dec.subject
            else:
                out += _ZERO5
        else:
            out = [0.0, x if x < 1.0 else 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        if wf[5]:
            loaded = st.loaded / wf[6]
            if loaded > 1.0:
                loaded = 1.0
            reserve = c.ammo.get(wf[7], 0) / (wf[6] * RESERVE_MAGAZINES)
            if reserve > 1.0:
                reserve = 1.0
        else:
            loaded, reserve = 1.0, 0.0
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
        vis = min(g.vis[pos], self.ambient) / -10.0  # my square or the light, the worse
        out += (
            hp / mhp if (hp > 0 and mhp > 0) else 0.0,
            ap if ap < 1.0 else 1.0, loaded, reserve, 1.0 if st.reload_step else 0.0,
            wf[0], wf[1], wf[2], wf[3], wf[4], self._spare[me], heal,
            1.0 if c.readied else 0.0, 1.0 if c.free_used else 0.0,
            0.0 if c.crippled.get("leg") else self.speed[me],
            cover[pos] / 3.0, self._height[mh] if mh else 0.0,
            vis if vis < 1.0 else 1.0, 1.0 if c.unguarded else 0.0,
        )
        weapons = self.weapons
        prefix = self._prefix[me]
        alive = self._prefix_alive[me]
        geo = self._geo
        row = pos * self._cells
        for o in cs:
            if o.status != ACTIVE:  # out of the fight: who it was is all that is left
                out += prefix[o.slot]
                out += _DOWN
                continue
            p = o.pos
            ohp, omhp = o.hp, o.max_hp
            aw = o.active_weapon
            ow = weapons[o.slot][aw]
            cr = o.crippled
            if cr:
                ch = 1.0 if cr.get("head", 0) else 0.0
                ca = cr.get("arm", 0) * 0.5
                cl = cr.get("leg", 0) * 0.5
                if ca > 1.0:
                    ca = 1.0
                if cl > 1.0:
                    cl = 1.0
            else:
                ch = ca = cl = 0.0
            if ow[5]:
                ost = o.weapon_states[aw]
                empty = 1.0 if (ost.loaded == 0 or ost.reload_step) else 0.0
            else:
                empty = 0.0
            out += alive[o.slot]
            out.append(ohp / omhp if omhp > 0 else 0.0)
            out += geo.get(row + p) or self._geometry(pos, p)
            out += (
                ch, ca, cl,
                1.0 if o.readied else 0.0, 1.0 if o.slot == subject else 0.0, ow[1],
                1.0 if o.free_used else 0.0, 1.0 if o.unguarded else 0.0, empty,
            )
        buf = bytearray(_OBS_BYTES)  # zeros: the slots past the last combatant stay empty
        self._pack(buf, 0, *out)
        return np.frombuffer(buf, dtype=np.float32)
