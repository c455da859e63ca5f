"""A trained policy as an agent: the network's weights in a .npz file (plain arrays, read
with ``allow_pickle=False``) and a JSON manifest beside it, run in numpy.

Playing needs no torch and no stable-baselines3. The manifest names the ruleset, the
creature kinds the policy was trained for, and hashes of the observation features and
of the action table; a file whose hashes differ from the running code is refused in one
line, since its outputs would mean other actions. Combatants of other kinds on the same
side are played by the packet (a trained radscorpion does not know how to be a raider).

    policy = load_policy("super_mutant_pnp")         # shipped, or a path to NAME.npz
    agent = PolicyAgent(policy, seed=3)              # argmax; temperature > 0 samples
    agent = PolicyAgent("super_mutant")              # the family: super_mutant_pnp under
                                                     # PnP, super_mutant_simple under Simple
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from wasteland.limits import ID_PATTERN, ID_RULE, load_json, read_text
from wasteland.policies import shipped_names
from wasteland.rules.actions import ACTION_TABLE, Action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError, clip

from .base import View


def policy_words(name: str) -> str:
    """A policy's name as a reason says it, its words spaced ("radscorpion f2d20"): a
    GM reads no snake_case."""
    return name.replace("_", " ")


FORMAT = "wasteland-policy/1"
SHIPPED = "wasteland.policies"
ACTIVATIONS = ("tanh", "relu")


# The observation's version as a person says it, and the hash (own sight) it stands for.
# A change to the features or their order moves observation_hash(), and
# tests/training/test_manifest_fields.py fails until a new version is named here and in
# docs/training.md's changelog ("Observation versions").
OBSERVATION_VERSION = "obs v1"
OBSERVATION_VERSION_HASH = "446a21df2456bf20"
_VERSION_TEXT = re.compile(r"obs v\d{1,4}")


def check_version(manifest: dict[str, Any], fail: Callable[[str], WastelandError]) -> None:
    """A manifest's ``observation_version``, when it has one (those written before issue
    42 have none): text like "obs v1", else one line."""
    version = manifest.get("observation_version")
    if version is not None and not (isinstance(version, str) and _VERSION_TEXT.fullmatch(version)):
        raise fail(f"observation_version {clip(repr(version), 40)}; a version reads like "
                   f"{OBSERVATION_VERSION!r}")


def observation_hash(sight: str = "own") -> str:
    """A hash of what the observation means: every feature's name, the block order, and
    what a combatant knows of its enemies when it is not "own" sight (observe/encoding.py,
    ``SIGHTS``; the policies of own sight kept their hash when side sight was added)."""
    from wasteland.observe.encoding import ORDER_RULE, feature_names

    text = "\n".join(feature_names()) + "\norder: " + ORDER_RULE
    if sight != "own":
        text += "\nsight: " + sight
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def action_hash(n: int | None = None) -> str:
    """A hash of the action table (its first ``n`` entries: the table a policy with ``n``
    outputs was trained on), with egocentric targets (block k). The table only ever grows
    at the end, so a policy trained before an append still names the same actions."""
    table = ACTION_TABLE if n is None else ACTION_TABLE[:n]
    text = "\n".join(a.text() for a in table) + "\ntargets: observation blocks"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


UNKNOWN_LOGIT = -1e9  # actions appended to the table after a policy was trained


@dataclass
class Policy:
    """The arrays of an MLP policy head: hidden layers, then the action logits."""

    name: str
    manifest: dict[str, Any]
    weights: list[np.ndarray]
    biases: list[np.ndarray]
    activation: str = "tanh"
    kinds: frozenset[str] = field(default_factory=frozenset)

    @property
    def ruleset(self) -> str:
        return str(self.manifest["ruleset"])

    @property
    def sight(self) -> str:
        """What its combatants know of their enemies (observe/encoding.py, ``SIGHTS``)."""
        return str(self.manifest.get("sight", "own"))

    def training(self) -> dict[str, Any]:
        """How it was trained, from its manifest: algorithm, seed, PPO steps, the teacher's
        labels (expert iteration, which labels states before any PPO step) and the wall
        time to the exported checkpoint. Numbers outside 0..1e12 read as 0, so a
        hand-edited manifest cannot break a listing."""
        m = self.manifest
        tr, cfg = manifest_table(m, "training"), manifest_table(m, "config")
        algorithm = str(cfg.get("algorithm", "ppo"))
        labels = 0
        if algorithm == "expert_iteration":
            e = manifest_table(cfg, "expert")
            labels = int(manifest_count(e.get("iterations")) * manifest_count(e.get("decisions")))
        seed = cfg.get("seed")
        return {"algorithm": algorithm, "seed": seed if type(seed) is int else None,
                "steps": manifest_count(m.get("steps")), "labels": labels,
                "wall_s": manifest_count(m.get("checkpoint_wall_s", tr.get("wall_s")))}

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """One logit per entry of today's action table; the entries appended after the
        policy was trained get UNKNOWN_LOGIT, so it never prefers them."""
        from wasteland.rules.actions import N_ACTIONS

        x = forward(obs.astype(np.float64), list(zip(self.weights, self.biases)),
                    self.activation)
        if x.shape[-1] < N_ACTIONS:
            pad = np.full(x.shape[:-1] + (N_ACTIONS - x.shape[-1],), UNKNOWN_LOGIT)
            x = np.concatenate([x, pad], axis=-1)
        return x


def forward(x: np.ndarray, layers: list[tuple[np.ndarray, np.ndarray]],
            activation: str) -> np.ndarray:
    """An MLP's output for ``x``: each layer's weights and bias, ``activation`` between
    them (the policy's own float64 layers, or agents/guide.py's float32 copies)."""
    last = len(layers) - 1
    for i, (w, b) in enumerate(layers):
        x = x @ w + b
        if i < last:
            x = np.tanh(x) if activation == "tanh" else np.maximum(x, 0.0)
    return x


def manifest_table(table: dict[str, Any], key: str) -> dict[str, Any]:
    """A manifest's sub-table (training summary, config): {} when missing or not a table."""
    got = table.get(key)
    return got if isinstance(got, dict) else {}


def manifest_count(value: Any) -> float:
    """A manifest's number (steps, seconds, labels): 0 unless a number from 0 to 1e12."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1e12
    return value if ok else 0


def family(name: str) -> list[str]:
    """The shipped policies NAME_<ruleset> that ``policy:NAME`` stands for."""
    from wasteland.rules.names import RULESETS

    have = set(shipped_names())
    return [f"{name}_{r}" for r in RULESETS if f"{name}_{r}" in have]


def _paths(name_or_path: str | Path) -> tuple[Path, Path, str]:
    from wasteland.bestiary.models import policy_name_problem

    text = str(name_or_path)
    problem = policy_name_problem(text)
    if problem:
        raise WastelandError(problem)
    if "/" in text or text.endswith((".npz", ".json")):
        base = Path(text)
        stem = base.with_suffix("") if base.suffix in (".npz", ".json") else base
        return stem.with_suffix(".npz"), stem.with_suffix(".json"), stem.name
    if text not in shipped_names():
        names = ", ".join(shipped_names()) or "none"
        raise WastelandError(f"unknown policy {text!r}; shipped policies: {names} "
                             f"(or give a path to a NAME.npz)")
    root = Path(str(resources.files(SHIPPED)))
    return root / f"{text}.npz", root / f"{text}.json", text


MAX_LAYERS = 16
# the numbers a policy's arrays may hold in all: the largest network `wasteland train`
# makes (4 hidden layers of 1,024) has 4.2 million; the shipped ones 0.14 million. At 8
# bytes each (a float64 file) that is 40 MB to read and as much to play with.
MAX_POLICY_VALUES = 5_000_000
_HASH = re.compile(r"[0-9a-f]{1,64}")


def read_manifest(js: Path, name: str) -> dict[str, Any]:
    """The manifest at ``js``, every field the loader uses checked; one line naming the
    field otherwise. Read as a regular file under the manifest cap, as JSON under the
    depth and number caps (limits.load_json); the tables that only describe the training
    (config, training, steps) are read where they are listed, leniently."""
    from wasteland.observe.encoding import SIGHTS
    from wasteland.rules.names import RULESETS

    def fail(message: str) -> WastelandError:
        return WastelandError(f"policy {name}: {message}")

    if not js.exists():
        raise fail(f"no manifest {js}")
    manifest = load_json(read_text(js, "manifest", fail), str(js), fail)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise fail(f"{js} is not a {FORMAT} manifest")
    layers, creatures = manifest.get("layers"), manifest.get("creatures", [])
    if manifest.get("ruleset") not in RULESETS:
        raise fail(f"{js.name}: ruleset {clip(repr(manifest.get('ruleset')), 40)}; "
                   f"accepted: {', '.join(RULESETS)}")
    if type(layers) is not int or not 1 <= layers <= MAX_LAYERS:
        raise fail(f"{js.name}: layers {clip(repr(layers), 40)}; a whole number "
                   f"1..{MAX_LAYERS}")
    if not isinstance(creatures, list) or not all(
            isinstance(c, str) and re.fullmatch(ID_PATTERN, c) for c in creatures):
        raise fail(f"{js.name}: creatures must be a list of creature ids ({ID_RULE})")
    sight = manifest.get("sight", "own")
    if sight not in SIGHTS:
        raise fail(f"{js.name}: sight {clip(repr(sight), 40)}; accepted: {', '.join(SIGHTS)}")
    act = manifest.get("activation", "tanh")
    if act not in ACTIVATIONS:
        raise fail(f"unknown activation {clip(repr(act), 40)}; accepted: "
                   f"{', '.join(ACTIVATIONS)}")
    check_version(manifest, lambda m: fail(f"{js.name}: {m}"))
    for key in ("observation_hash", "action_hash"):
        value = manifest.get(key)
        if value is not None and not (isinstance(value, str) and _HASH.fullmatch(value)):
            raise fail(f"{js.name}: {key} {clip(repr(value), 40)}; a hash is 1 to 64 "
                       f"hex digits")
    return manifest


Check = Callable[[np.dtype, tuple[int, ...]], None]


def _real(fail: Callable[[str], WastelandError], key: str) -> Check:
    def check(dtype: np.dtype, shape: tuple[int, ...]) -> None:
        if dtype.kind not in "fiu" or dtype.itemsize > 8:
            raise fail(f"array {key} holds {dtype} values; weights are real numbers (float "
                       f"or integer arrays of at most 8 bytes a number)")
    return check


def _layer(fail: Callable[[str], WastelandError], i: int, last: bool, width: int,
           left: int) -> Check:
    """The check of layer ``i``'s weights from their header: ``width`` inputs (the
    observation's or the layer before's), at least one output (at most the action table's
    for the last layer), and with its bias at most ``left`` numbers."""
    from wasteland.rules.actions import N_ACTIONS

    real = _real(fail, f"w{i}")

    def check(dtype: np.dtype, shape: tuple[int, ...]) -> None:
        real(dtype, shape)
        if len(shape) != 2 or shape[0] != width:
            raise fail(f"layer {i} has shape {shape}, expected ({width}, k) with a bias of k")
        k = shape[1]
        if last and not 1 <= k <= N_ACTIONS:
            raise fail(f"its output has {k:,} actions, the table {N_ACTIONS}; a policy has "
                       f"1 to {N_ACTIONS} outputs, the first actions of the table")
        if k < 1:
            raise fail(f"layer {i} has shape {shape}: no outputs; every layer has at least 1")
        if width * k + k > left:
            raise fail(f"layer {i} of shape {shape} and its bias hold {width * k + k:,} "
                       f"numbers, past what is left of the {MAX_POLICY_VALUES:,} a policy's "
                       f"arrays may hold")
    return check


def _bias(fail: Callable[[str], WastelandError], i: int, k: int) -> Check:
    real = _real(fail, f"b{i}")

    def check(dtype: np.dtype, shape: tuple[int, ...]) -> None:
        real(dtype, shape)
        if shape != (k,):
            raise fail(f"layer {i} has {k} outputs but a bias of shape {shape}, expected "
                       f"({k},)")
    return check


def load_policy(name_or_path: str | Path, check: bool = True) -> Policy:
    """A shipped policy by name, or NAME.npz + NAME.json from a path. One-line errors for a
    missing, unreadable, oversized or mismatched file. Only the arrays the manifest's
    layers name are read, each only once its header's dtype and shape fit the layer
    before it (limits in docs/limits.md)."""
    from wasteland.observe.encoding import OBS_SIZE
    from wasteland.rules.actions import N_ACTIONS

    from .npz import Archive

    npz, js, name = _paths(name_or_path)
    manifest = read_manifest(js, name)
    obs_now = observation_hash(manifest.get("sight", "own"))
    if check and manifest.get("observation_hash") != obs_now:
        # before the shapes: a policy from before an observation change fails here, with
        # what to do about it rather than a layer shape
        theirs = manifest.get("observation_version")
        raise WastelandError(
            f"policy {name}: trained on another observation ("
            + (f"{theirs}, " if theirs else "")
            + f"observation_hash {manifest.get('observation_hash')} in {js.name}; "
            f"{OBSERVATION_VERSION}, {obs_now} in this version); retrain it (docs/training.md)")
    if not npz.exists():
        raise WastelandError(f"policy {name}: no weights file {npz}")
    arrays = Archive(npz, lambda m: WastelandError(f"policy {name}: {m}"))
    n = manifest["layers"]
    for key in [f"{k}{i}" for i in range(n) for k in "wb"]:
        if key not in arrays:
            raise WastelandError(f"policy {name}: {npz.name} has no array {key}")

    def fail(message: str) -> WastelandError:
        return WastelandError(f"policy {name}: {npz.name}: {message}")

    weights: list[np.ndarray] = []
    biases: list[np.ndarray] = []
    width, left = OBS_SIZE, MAX_POLICY_VALUES
    for i in range(n):
        w = arrays.read(f"w{i}", _layer(fail, i, i == n - 1, width, left), left * 8)
        width = w.shape[1]
        b = arrays.read(f"b{i}", _bias(fail, i, width), width * 8)
        for key, a in ((f"w{i}", w), (f"b{i}", b)):
            if not np.isfinite(a).all():
                raise fail(f"array {key} holds inf or NaN")
        weights.append(np.asarray(w, dtype=np.float64))
        biases.append(np.asarray(b, dtype=np.float64))
        left -= w.size + b.size
    if check:
        # its actions are the table's first `width` entries (the table grows only at the end)
        for key, now in (("observation_hash", obs_now),
                         ("action_hash", action_hash(width))):
            if manifest.get(key) != now:
                what = key.split("_")[0]
                ours = (f"{now} for the first {width} of this version's {N_ACTIONS}"
                        if key == "action_hash" and width < N_ACTIONS else
                        f"{now} in this version")
                raise WastelandError(
                    f"policy {name}: trained for another {what} table ({key} "
                    f"{manifest.get(key)} in {js.name}, {ours}); retrain it")
    act = manifest.get("activation", "tanh")
    return Policy(name, manifest, weights, biases, act, frozenset(manifest.get("creatures", [])))


class PolicyAgent:
    """Plays its creature kinds with the policy (the most likely legal action, or sampled
    with ``temperature``); other combatants of its side with the packet."""

    def __init__(self, policy: Policy | str | Path, seed: int = 0, temperature: float = 0.0,
                 fallback: Any = None) -> None:
        if isinstance(policy, Policy):
            policies = [policy]
        elif isinstance(policy, str) and policy not in shipped_names() and family(policy):
            policies = [load_policy(n) for n in family(policy)]
        else:
            policies = [load_policy(policy)]
        self.by_ruleset = {p.ruleset: p for p in policies}
        self.policy = policies[0]
        self.name = f"policy:{policy.name if isinstance(policy, Policy) else policy}"
        self.temperature = float(temperature)
        self.rng = random.Random(seed)
        self.last_reason = ""
        self.intent: Action | None = None  # the table action behind its last choice
        self._battle: Battle | None = None
        self._enc: Any = None
        # the memory a game handed it for its battle (share_memory); else its own
        self._memory: tuple[Battle, Any] | None = None
        if fallback is None:
            from .packets import PacketAgent

            fallback = PacketAgent(seed)
        self.fallback = fallback

    def ruleset_problem(self, ruleset: str) -> str | None:
        """Why it cannot play a battle under ``ruleset`` (None when it can): none of its
        policies was trained for it. base.check_ruleset asks, where a new battle's agents
        are made; the packet standing in for the kinds it was not trained for is another
        matter, and stays."""
        if ruleset in self.by_ruleset:
            return None
        from wasteland.rules.names import RULESETS

        have = [r for r in RULESETS if r in self.by_ruleset]
        text = (f"{self.name} was trained for {', '.join(have)}, not {ruleset} (the packet "
                f"would play in its place)")
        base, _, suffix = self.policy.name.rpartition("_")
        if suffix in RULESETS and f"{base}_{ruleset}" in family(base):
            return (f"{text}; use it under {', '.join(have)}, or policy:{base}_{ruleset}, or "
                    f"policy:{base} (the shipped policy of each ruleset)")
        return f"{text}; use it under {', '.join(have)}"

    def observe_with(self, battle: Battle, memory: Any) -> None:
        """Remember what it sees of ``battle`` in ``memory`` (agents/base.py
        ``share_memory``), the game's, shared with the game's other observers."""
        got = self._memory
        if got is None or got[0] is not battle or got[1] is not memory:
            self._memory = (battle, memory)
            self._enc = None

    def _encoder(self, view: View) -> Any:
        if self._battle is not view.battle or self._enc is None:
            from wasteland.observe.encoding import Encoder

            got = self._memory
            self._enc = Encoder(view.battle, view.ruleset,
                                memory=got[1] if got is not None and got[0] is view.battle
                                else None)
            self._battle = view.battle
        return self._enc

    def act(self, view: View) -> Action:
        me = view.me
        p = self.by_ruleset.get(view.battle.ruleset, self.policy)
        # another ruleset is refused where a new battle's agents are made (ruleset_problem);
        # here only for a fight saved before that check, which resumes as it was played
        if view.battle.ruleset != p.ruleset or (p.kinds and me.creature.id not in p.kinds):
            if p.sight == "side" and view.battle.ruleset == p.ruleset:
                # a member its policy does not play still sees for the side, as in training
                enc = self._encoder(view)
                enc.side_sight = True
                enc.look(me.slot)
            action = self.fallback.act(view)
            why = ("trained for " + p.ruleset if view.battle.ruleset != p.ruleset
                   else f"not trained for {me.creature.name}")
            self.last_reason = (f"packet ({policy_words(p.name)} {why}): "
                                f"{self.fallback.last_reason}")
            return action
        from wasteland.observe import fog
        from wasteland.observe.encoding import ego_ids, to_table

        enc = self._encoder(view)
        enc.side_sight = p.sight == "side"  # its policies may differ (one per ruleset)
        order = enc.order(me.slot)
        logits = p.logits(enc.observe(me.slot, view.decision, order))
        # the mask it was trained on: what is legal on the board as it knows it
        b = view.battle
        unseen = fog.hidden(b, me.slot, enc.side_sight)
        table_ids = (fog.legal_ids(view.ruleset, b, me.slot, enc.side_sight, unseen,
                                   memory=enc.memory) if unseen else view.legal_ids)
        legal = ego_ids(table_ids, order)
        while True:
            z = logits[legal]
            z = z - z.max()
            probs = np.exp(z)
            probs /= probs.sum()
            if self.temperature > 0:
                # one draw of the agent's own RNG, so a saved game resumes the same
                t = np.exp((z - z.max()) / self.temperature)
                t /= t.sum()
                u = self.rng.random()
                k = min(int(np.searchsorted(np.cumsum(t), u, side="right")), len(legal) - 1)
            else:
                k = int(np.argmax(z))
            table = to_table(legal[k], order)
            assert table is not None
            action = self.intent = ACTION_TABLE[table]
            if unseen:  # acting on what it knows (observe/fog.py): a stale move is a goto
                got = fog.resolve(view.ruleset, b, me.slot, table, enc.side_sight,
                                  memory=enc.memory)
                if got is None and len(legal) > 1:  # refused: someone unseen in the way
                    legal = [i for i in legal if i != legal[k]]
                    continue
                action = got or action
            break
        prob = float(probs[k])
        from wasteland.rules.words import plainly

        self.last_reason = (f"policy {policy_words(p.name)}: "
                            f"{plainly(view.battle, action, me.slot)}, "
                            f"p={prob:.2f}" + (f" (of {len(legal)} legal)" if len(legal) > 1 else ""))
        if math.isnan(prob):
            raise WastelandError(f"policy {p.name}: its network gave no number (NaN)")
        return action
