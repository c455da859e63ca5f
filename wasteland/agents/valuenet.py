"""A learned value: a side's chance to win from a battle state, for the search's cuts.

The logistic value of agents/search.py sees only shares of HP and of combatants standing
and the rounds left. This one sees what the observation encoder sees of each standing
combatant (observe/encoding.py, ``full``: the true state, as a fork holds it): its own
condition, weapon, ammunition, AP, cover and height, its conditions and stat block, and
how it stands against the nearest enemy and the most dangerous one (reach, line of sight,
chances and damage both ways). Those rows are pooled per camp (mean and max over the
side's standing members, the same over its enemies), so any line-up reads into the same
width, and a few scalars join them: the logistic value's features, whose decision it is
and whose turns are left in the round, the 2d20 AP pools.

``ValueNet`` runs a small MLP in numpy on them, added to a linear model of them that
training starts from the logistic value's weights (the network learns what that value
misses, and early stopping keeps it from doing worse on unseen maps); its weights ship like a policy's
(wasteland/values/<ruleset>.npz, read by agents/npz.py's checked reader, never unpickled,
with a JSON manifest whose ``feature_hash`` must match ``feature_hash()``: a file made for
other features is refused in one line). wasteland/training/value.py makes them;
docs/search.md ("A learned value") says how well they predict.
"""

from __future__ import annotations

import hashlib
import math
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np

from wasteland.limits import load_json, read_text
from wasteland.rules.battle import ACTIVE, Battle
from wasteland.rules.errors import WastelandError

FORMAT: Final = "wasteland-value-1"
SHIPPED: Final = "wasteland.values"
VERSION: Final = 1  # bump with any change to what value_features computes
# what its manifest says it sees: every combatant as it is, not what a side has seen
SIGHT: Final = "full"

# from each combatant's own observation: the global block's own part (condition, weapon,
# ammunition, AP, position, 2d20 economy), then its own block's state and stat block
OWN: Final = ("hp_frac", "ap", "loaded_frac", "reserve", "reloading", "weapon_melee",
              "weapon_ranged", "weapon_range", "weapon_rof", "weapon_reach", "spare_weapons",
              "healing_items", "readied", "free_used", "speed", "cover", "height",
              "visibility", "unguarded", "pool_mine", "pool_enemy", "minor_used",
              "major_used", "moved")
SELF_BLOCK: Final = ("crippled_head", "crippled_arm", "crippled_leg", "readied", "ranged",
                     "weapon_empty", "prone", "burrowed", "bleeding", "burning", "winded",
                     "stunned", "dying", "crippled", "ready_action", "overwatching", "evading",
                     "kind_animal", "kind_insect", "kind_mutant", "kind_robot", "kind_ghoul",
                     "kind_human", "kind_character", "defense", "dr_physical", "dr_energy")
# the nearest enemy's block; the most of each over all enemies; the mean distance
NEAREST: Final = ("distance", "in_los", "cover", "height_diff", "range_band", "hp_frac",
                  "hit_w0", "damage_w0", "threat_hit", "threat_damage")
MOST: Final = ("hit_w0", "damage_w0", "hit_w1", "damage_w1", "threat_hit", "threat_damage",
               "in_los")
ROW: Final = (*OWN, *(f"self.{f}" for f in SELF_BLOCK), *(f"nearest.{f}" for f in NEAREST),
              *(f"most.{f}" for f in MOST), "mean_enemy_distance")
SCALARS: Final = ("my HP share", "their HP share", "my share standing",
                  "their share standing", "HP share difference x rounds left",
                  "share of rounds left", "my decision", "a reaction", "my turn",
                  "my turns left this round", "their turns left this round",
                  "my standing / 10", "their standing / 10", "my pool", "their pool")


def feature_names() -> list[str]:
    """The name of every input of the network, in order."""
    names: list[str] = []
    for camp in ("mine", "theirs"):
        for pool in ("mean", "max"):
            names.extend(f"{camp}.{pool}.{f}" for f in ROW)
    return names + list(SCALARS)


N_FEATURES: Final = len(feature_names())


def feature_hash() -> str:
    """A hash of what the inputs mean: their names, this module's VERSION and the
    observation they are read from (its own hash), so a value trained on other features,
    or on an observation that has changed since, is refused."""
    from .policy import observation_hash

    text = f"{VERSION}|{observation_hash('own')}|" + "|".join(feature_names())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _indices() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int, int, int]:
    from wasteland.observe.encoding import GLOBAL_FEATURES, SLOT_FEATURES

    g = np.array([GLOBAL_FEATURES.index(f) for f in OWN])
    s = np.array([SLOT_FEATURES.index(f) for f in SELF_BLOCK])
    n = np.array([SLOT_FEATURES.index(f) for f in NEAREST])
    m = np.array([SLOT_FEATURES.index(f) for f in MOST])
    return (g, s, n, m, SLOT_FEATURES.index("enemy"), SLOT_FEATURES.index("alive"),
            SLOT_FEATURES.index("distance"), SLOT_FEATURES.index("present"))


_IDX: list[Any] = []


def rows(b: Battle, enc: Any = None, memory: Any = None) -> tuple[np.ndarray, list[int]]:
    """One ROW per standing combatant (and its side), from its observation of the whole
    battle as it is (``Encoder.observe(full=True)``: a value judges the true state of a
    fork, as the fork's own dice do). Reads the battle, never changes it. Without ``enc``,
    an encoder with ``memory`` (what the combatants have seen: it orders the blocks)."""
    from wasteland.observe.encoding import MAX_COMBATANTS, B, Encoder, G

    if not _IDX:
        _IDX.extend(_indices())
    gi, si, ni, mi, enemy, alive, dist, _ = _IDX
    if enc is None:
        enc = Encoder(b, memory=memory)
    standing = [c for c in b.combatants if c.status == ACTIVE]
    n = len(standing)
    out = np.zeros((n, len(ROW)), np.float32)
    if not n:
        return out, []
    # every row at once: a row's own numpy calls, one by one, cost more than its observation
    obs = np.stack([enc.observe(c.slot, None, None, True) for c in standing])
    others = obs[:, G:].reshape(n, MAX_COMBATANTS, B)[:, 1:]
    foe = (others[:, :, enemy] > 0) & (others[:, :, alive] > 0)
    k = len(gi)
    out[:, :k] = obs[:, gi]
    out[:, k:k + len(si)] = obs[:, G + si]
    k += len(si)
    count = foe.sum(axis=1)
    has = count > 0
    if has.any():
        first = foe.argmax(axis=1)  # blocks are ordered nearest first
        near = others[np.arange(n), first]
        most = np.where(foe[:, :, None], others[:, :, mi], -np.inf).max(axis=1)
        out[has, k:k + len(ni)] = near[has][:, ni]
        out[has, k + len(ni):k + len(ni) + len(mi)] = most[has]
        # the mean distance as numpy's mean of the foes' column makes it, to the last bit:
        # a running float32 sum (the others' zeros add nothing), over the count in float64;
        # from 8 foes numpy sums pairwise, so those rows take its own mean
        d = np.where(foe, others[:, :, dist], np.float32(0)).cumsum(axis=1)[:, -1]
        mean = (d.astype(np.float64) / np.maximum(count, 1)).astype(np.float32)
        out[has, -1] = mean[has]
        for r in np.flatnonzero(count >= 8):
            out[r, -1] = others[r, foe[r], dist].mean()
    return out, [c.side for c in standing]


def assemble(b: Battle, side: int, table: np.ndarray, sides: list[int],
             decision: Any = None) -> np.ndarray:
    """The network's input for ``side`` from ``rows``: each camp's rows pooled (mean,
    max; zeros for a camp with none standing), then SCALARS."""
    from .standing import features

    mine = np.array([s == side for s in sides], dtype=bool)
    parts = []
    for camp in (table[mine], table[~mine]):
        if len(camp):
            parts += [camp.mean(axis=0), camp.max(axis=0)]
        else:
            parts += [np.zeros(len(ROW), np.float32)] * 2
    cs = b.combatants
    if decision is None and not b.over:
        from wasteland.rules.rulesets import get_ruleset

        decision = get_ruleset(b.ruleset).decider(b)
    who = cs[decision.combatant].side if decision is not None else -1
    order, turn = b.order, b.turn
    now = cs[order[turn]].side if 0 <= turn < len(order) else -1
    later = [cs[i] for i in order[turn + 1:]] if 0 <= turn < len(order) else []
    left_mine = sum(c.side == side and c.status == ACTIVE for c in later)
    left_theirs = sum(c.side != side and c.status == ACTIVE for c in later)
    econ = b.book.economy()
    pools = econ.pools if econ is not None else None
    if pools:
        pm = min(pools[side], 6) / 6
        pt = min(max([p for s, p in enumerate(pools) if s != side], default=0), 6) / 6
    else:
        pm = pt = 0.0
    up = int(mine.sum())
    scalars = (*features(b, side), float(who == side),
               float(decision is not None and decision.reaction is not None),
               float(now == side), left_mine / 10, left_theirs / 10, up / 10,
               (len(sides) - up) / 10, pm, pt)
    return np.concatenate([*parts, np.array(scalars, np.float32)])


def value_features(b: Battle, side: int, enc: Any = None, memory: Any = None) -> np.ndarray:
    """What the learned value weighs for ``side`` (``feature_names()``)."""
    table, sides = rows(b, enc, memory)
    return assemble(b, side, table, sides)


class ValueNet:
    """A side's chance to win, 0 to 1, from an MLP over ``value_features``; a finished
    battle is 1 won, 0 lost or drawn, exactly as the logistic value counts it."""

    def __init__(self, ruleset: str, weights: list[np.ndarray], biases: list[np.ndarray],
                 mean: np.ndarray, scale: np.ndarray, skip: np.ndarray,
                 manifest: dict[str, Any]) -> None:
        self.ruleset = ruleset
        self.manifest = manifest
        # a linear model of the raw features (its last number the intercept) added to the
        # MLP's output: trained from the logistic value's weights, so the network learns
        # what the logistic value misses rather than everything again
        self.skip_w, self.skip_b = skip[:-1], float(skip[-1])
        # standardizing folded into the first layer: one matrix product less a call
        w0 = weights[0] / scale[:, None]
        b0 = biases[0] - (mean / scale) @ weights[0]
        self.weights = [w0, *weights[1:]]
        self.biases = [b0, *biases[1:]]

    def logit(self, x: np.ndarray) -> np.ndarray:
        h = x.astype(np.float64)
        linear = h @ self.skip_w + self.skip_b
        last = len(self.weights) - 1
        for i, (w, bias) in enumerate(zip(self.weights, self.biases)):
            h = h @ w + bias
            if i < last:
                h = np.tanh(h)
        return h[..., 0] + linear

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Chances for rows of features (a batch, for training reports)."""
        return 1 / (1 + np.exp(-np.clip(self.logit(x), -50, 50)))

    def __call__(self, b: Battle, side: int, memory: Any = None) -> float:
        """``memory``: what ``b``'s combatants have seen (observe/memory.py)."""
        if b.over:
            return float(b.winner == side)
        z = float(self.logit(value_features(b, side, None, memory)))
        return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


MAX_WIDTH = 1024
MAX_LAYERS = 6


def _paths(ruleset: str, folder: str | Path | None) -> tuple[Path, Path]:
    root = Path(str(resources.files(SHIPPED))) if folder is None else Path(folder)
    return root / f"{ruleset}.npz", root / f"{ruleset}.json"


def load_value(ruleset: str, folder: str | Path | None = None) -> ValueNet:
    """The learned value for ``ruleset`` (wasteland/values/<ruleset>.npz + .json, or from
    ``folder``); one line naming what is wrong with a missing or mismatched file."""
    from wasteland.rules.names import RULESETS

    from .npz import Archive

    def fail(message: str) -> WastelandError:
        return WastelandError(f"learned value {ruleset}: {message}")

    if ruleset not in RULESETS:
        raise fail(f"no such ruleset; accepted: {', '.join(RULESETS)}")
    npz, js = _paths(ruleset, folder)
    if not js.exists() or not npz.exists():
        raise fail(f"no value file {npz if js.exists() else js} (python -m "
                   f"wasteland.training.value makes it)")
    m = load_json(read_text(js, "manifest", fail), str(js), fail)
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        raise fail(f"{js} is not a {FORMAT} manifest")
    if m.get("ruleset") != ruleset:
        raise fail(f"{js.name} is for ruleset {str(m.get('ruleset'))[:40]!r}, not {ruleset}")
    from .policy import check_version

    check_version(m, lambda msg: fail(f"{js.name}: {msg}"))
    if m.get("sight", SIGHT) != SIGHT:  # absent before issue 42
        raise fail(f"{js.name}: sight {str(m.get('sight'))[:40]!r}; a value reads the true "
                   f"state, sight {SIGHT!r}")
    if m.get("feature_hash") != feature_hash():
        raise fail(f"trained on other features (feature_hash {str(m.get('feature_hash'))[:40]} "
                   f"in {js.name}, {feature_hash()} in this version); retrain it")
    shapes = m.get("layers")
    if not (isinstance(shapes, list) and 2 <= len(shapes) <= MAX_LAYERS and all(
            isinstance(s, list) and len(s) == 2 and all(type(n) is int and 1 <= n <= MAX_WIDTH
                                                        for n in s) for s in shapes)):
        raise fail(f"{js.name}: layers must be 2 to {MAX_LAYERS} [inputs, outputs] pairs of "
                   f"1 to {MAX_WIDTH}")
    width = N_FEATURES
    for i, (a, k) in enumerate(shapes):
        last = i == len(shapes) - 1
        if a != width or (last and k != 1):
            want = f"[{width}, 1]" if last else f"[{width}, k]"
            raise fail(f"{js.name}: layer {i} has shape [{a}, {k}], expected {want}")
        width = k
    arrays = Archive(npz, fail)

    def exactly(key: str, shape: tuple[int, ...]) -> np.ndarray:
        if key not in arrays:
            raise fail(f"{npz.name} has no array {key}")

        def check(dtype: np.dtype, got: tuple[int, ...]) -> None:
            if dtype.kind != "f" or dtype.itemsize > 8:
                raise fail(f"array {key} holds {dtype} values; real numbers are read")
            if got != shape:
                raise fail(f"array {key} has shape {got}, its manifest says {shape}")
        a = arrays.read(key, check, math.prod(shape) * 8)
        if not np.isfinite(a).all():
            raise fail(f"array {key} holds inf or NaN")
        return np.asarray(a, dtype=np.float64)

    mean = exactly("mean", (N_FEATURES,))
    scale = exactly("scale", (N_FEATURES,))
    if not (scale > 0).all():
        raise fail("array scale holds a number that is not above 0")
    skip = exactly("skip", (N_FEATURES + 1,))
    weights = [exactly(f"w{i}", (a, k)) for i, (a, k) in enumerate(shapes)]
    biases = [exactly(f"b{i}", (k,)) for i, (_, k) in enumerate(shapes)]
    return ValueNet(ruleset, weights, biases, mean, scale, skip, m)


_LOADED: dict[str, ValueNet] = {}


def shipped_value(ruleset: str) -> ValueNet:
    """The shipped value of ``ruleset``, loaded once a process."""
    net = _LOADED.get(ruleset)
    if net is None:
        net = _LOADED[ruleset] = load_value(ruleset)
    return net
