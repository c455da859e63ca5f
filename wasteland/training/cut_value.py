"""A learned value for the search's cuts: trained on the states where a continuation is cut,
labelled by how the continuation went on when played to the end.

The shipped learned value (training/value.py) is trained on states of whole fights played by
a mix of agents and labelled with those fights' ends. The search asks something else: at a
continuation's cut (a candidate taken, then ``horizon`` rounds of the packets), how would
the packets' full playout end from here? benchmarks/search_regret.py found the cut picking
the full playouts' best candidate in 35% of decisions with either value (docs/search.md):
the states at a cut, after a candidate the packet would not take (holding, backing off),
are not the states whole packet fights visit, and the label of a whole fight says how a mix
of players finished it. So here (docs/search.md, "A value for the cut"):

- decision states are sampled from packet fights on the training maps (the built-in
  scenarios, the seat maps and the suite's built-in seats' line-ups) and random arenas;
- at each, one of the candidates the search weighs (the packet's choice, a plan's first
  action, a single action; search.candidates) is taken on a fork, and the packets play
  ``horizon`` rounds: the features are read there, from both sides' points of view;
- the packets play that fork on to the end: the label is how it ended for each side (the
  Monte Carlo target of the full playout the cut stands for).

Held-out maps (wasteland/training/heldout) are played the same way and kept out, to score
it next to the shipped value and the logistic one. The network, its training and its file
are training/value.py's; only the states and their labels differ.

    python -m wasteland.training.cut_value --rulesets f2d20 --out /tmp/cut_values
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from wasteland.agents import loop
from wasteland.agents.base import view_of
from wasteland.agents.packets import PacketAgent
from wasteland.agents.search import SearchAgent, candidates
from wasteland.agents.search import value as logistic_value
from wasteland.agents.valuenet import N_FEATURES, value_features
from wasteland.bestiary.loader import load_scenario
from wasteland.bestiary.models import Scenario
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE
from wasteland.rules.battle import Battle
from wasteland.rules.fork import fork
from wasteland.rules.rulesets import get_ruleset

SAMPLE_P = 0.15   # a decision's chance to be sampled (one with more than one legal action)
PER_FIGHT = 8     # at most this many cut states a fight
PACKET_SHARE = 1 / 3  # the packet's own choice; the rest one of the other candidates
MAX_DECISIONS = 4000
ARMS = 12         # as benchmarks/search_regret.py weighs them


def arms(view: Any, seed: int) -> list[tuple[int, Any]]:
    """(first action, plan or None): the packet's choice, the plans' first actions, then
    single actions, at most ARMS (the candidates search_regret.py scores)."""
    base_id = ACTION_INDEX[PacketAgent(seed).act(view)]
    probe = SearchAgent(f"search:plans=2,candidates={ARMS}", 0)
    got: list[tuple[int, Any]] = [(base_id, None)]
    got += [(a.id, a.plan) for a in probe._plans(view, seed, {base_id}, ARMS)]
    seen = {a for a, _ in got}
    got += [(i, None) for i in candidates(view, base_id, 64) if i not in seen]
    return got[:ARMS]


def cut_and_finish(rs: Any, b: Battle, first: int, plan: Any, slot: int, seed: int,
                   horizon: int) -> tuple[list[np.ndarray], list[float], list[float]] | None:
    """A fork of ``b`` after ``first``, played by packets (``slot`` by its plan's, if any)
    for ``horizon`` rounds: each side's features and logistic value there; then on to the
    end: each side's label. None where the fight ended before the cut (no cut to judge)."""
    f = fork(b, seed)
    rs.apply(f, ACTION_TABLE[first], check=False)
    agents = [PacketAgent(seed + s) for s in range(len(f.side_names))]
    mine = PacketAgent(seed + 99, {f.combatants[slot].id: plan.fields}) if plan else None
    seats = [mine if c.slot == slot and mine is not None else agents[c.side]
             for c in f.combatants]
    last = f.round + horizon
    forced = [True] * len(seats)
    loop.play(rs, f, seats, forced=forced, limit=MAX_DECISIONS, stop=lambda g: g.round >= last)
    if f.over:
        return None
    sides = range(len(f.side_names))
    xs = [value_features(f, s) for s in sides]
    old = [logistic_value(f, s) for s in sides]
    loop.play(rs, f, seats, forced=forced, limit=MAX_DECISIONS)
    return xs, old, [float(f.winner == s) for s in sides]


def play(ruleset: str, scenario: Scenario, seed: int, horizon: int) -> dict[str, list[Any]]:
    """One packet fight of ``scenario`` on ``seed`` and the cut states sampled from it."""
    rs = get_ruleset(ruleset)
    pick = random.Random(seed * 13 + 5)
    b = rs.new_battle(scenario, seed, keep_log=False)
    b.quiet = True
    players = [PacketAgent(seed * 7 + s) for s in range(len(b.side_names))]
    X: list[np.ndarray] = []
    y: list[float] = []
    old: list[float] = []
    taken = [0]

    def sample(b: Battle) -> bool:  # before each decision; never stops the fight
        if taken[0] >= PER_FIGHT:
            return False
        v = view_of(rs, b)
        if len(v.legal_ids) > 1 and pick.random() < SAMPLE_P:
            taken[0] += 1
            s = pick.getrandbits(40)
            options = arms(v, s)
            first, plan = (options[0] if len(options) == 1 or pick.random() < PACKET_SHARE
                           else options[1 + pick.randrange(len(options) - 1)])
            got = cut_and_finish(rs, b, first, plan, v.me.slot, s, horizon)
            if got is not None:
                X.extend(got[0])
                old.extend(got[1])
                y.extend(got[2])
        return False

    loop.play(rs, b, loop.by_side(b, players), forced=[True] * len(b.combatants),
              stop=sample, limit=MAX_DECISIONS)
    return {"X": X, "y": y, "old": old}


def generate(ruleset: str, scenarios: list[Scenario], fights: int, first_seed: int,
             horizon: int) -> dict[str, np.ndarray]:
    """Cut states of ``fights`` fights on each scenario; ``fight``: which fight each came
    from, numbered scenario by scenario."""
    X: list[np.ndarray] = []
    y: list[float] = []
    old: list[float] = []
    fight: list[int] = []
    for m, sc in enumerate(scenarios):
        for g in range(fights):
            out = play(ruleset, sc, first_seed + 100_000 * m + g, horizon)
            X += out["X"]
            y += out["y"]
            old += out["old"]
            fight += [m * fights + g] * len(out["y"])
    return {"X": np.array(X, np.float32).reshape(-1, N_FEATURES), "y": np.array(y, np.float32),
            "old": np.array(old), "fight": np.array(fight, np.int64)}


def training_scenarios(ruleset: str) -> list[tuple[str, Scenario]]:
    """(map name, scenario): the training maps (training/value.py's) and the line-ups of
    the suite's built-in seats under ``ruleset`` (never a held-out seat's)."""
    from wasteland.bestiary.suite import load_suite
    from wasteland.training.value import training_maps

    out = [(Path(m).stem, load_scenario(m)) for m in training_maps()]
    out += [(s.map, s.load()) for s in load_suite()
            if s.ruleset == ruleset and s.kind == "built-in"]
    return out


def run(ruleset: str, fights: int, n_arenas: int, heldout_fights: int, horizon: int,
        out: Path, seed: int) -> dict[str, Any]:
    from wasteland.agents.policy import OBSERVATION_VERSION
    from wasteland.agents.valuenet import FORMAT, SIGHT, ValueNet, feature_hash, load_value
    from wasteland.training.value import (
        HIDDEN,
        VALIDATION_MAPS,
        arenas,
        heldout_maps,
        logistic_skip,
        reliability,
        scores,
        timing,
        train,
        write_value,
    )

    t0 = time.perf_counter()
    named = training_scenarios(ruleset)
    scenarios = [sc for _, sc in named]
    tr = generate(ruleset, scenarios, fights, 0, horizon)
    ar = generate(ruleset, arenas(ruleset, n_arenas, seed), 1, 2_000_000, horizon)
    ho = generate(ruleset, [load_scenario(m) for m in heldout_maps()], heldout_fights,
                  5_000_000, horizon)
    gen_s = time.perf_counter() - t0
    held = [i for i, (name, _) in enumerate(named) if name in VALIDATION_MAPS]
    val = np.concatenate([np.isin(tr["fight"] // fights, held), np.zeros(len(ar["y"]), bool)])
    X = np.concatenate([tr["X"], ar["X"]])
    y = np.concatenate([tr["y"], ar["y"]])
    weights, biases, mean, scale, skip, epochs, val_loss = train(
        X, y, val, seed, logistic_skip(ruleset))
    t1 = time.perf_counter()
    manifest: dict[str, Any] = {
        "format": FORMAT, "ruleset": ruleset, "feature_hash": feature_hash(),
        "observation_version": OBSERVATION_VERSION, "sight": SIGHT,
        "inputs": N_FEATURES, "layers": [list(w.shape) for w in weights], "activation": "tanh",
        "command": f"python -m wasteland.training.cut_value --rulesets {ruleset} --fights "
                   f"{fights} --arenas {n_arenas} --heldout-fights {heldout_fights} "
                   f"--horizon {horizon} --seed {seed}",
    }
    net = ValueNet(ruleset, [w.astype(np.float64) for w in weights],
                   [b.astype(np.float64) for b in biases], mean.astype(np.float64),
                   scale.astype(np.float64), skip.astype(np.float64), manifest)
    p = net.predict(ho["X"])
    shipped = load_value(ruleset).predict(ho["X"])
    const = np.full(len(ho["y"]), float(y[~val].mean()))
    manifest["training"] = {
        "targets": f"cut at {horizon} rounds after a candidate, packets to the end",
        "scenarios": [name for name, _ in named], "fights_a_map": fights,
        "arenas": n_arenas, "validation_maps": list(VALIDATION_MAPS), "hidden": list(HIDDEN),
        "rows": int(len(y)), "validation_rows": int(val.sum()), "epochs": epochs,
        "validation_log_loss": round(val_loss, 4), "seed": seed,
        "generation_s": round(gen_s, 1), "training_s": round(t1 - t0 - gen_s, 1),
    }
    manifest["heldout"] = {
        "maps": [Path(m).stem for m in heldout_maps()], "fights_a_map": heldout_fights,
        "rows": int(len(ho["y"])), "won_share": round(float(ho["y"].mean()), 3),
        "learned": scores(p, ho["y"]), "shipped_learned": scores(shipped, ho["y"]),
        "logistic": scores(ho["old"], ho["y"]), "constant": scores(const, ho["y"]),
        "reliability": reliability(p, ho["y"]),
        "shipped_reliability": reliability(shipped, ho["y"]),
    }
    manifest["timing"] = timing(ruleset, net)
    write_value(out, manifest, weights, biases, mean, scale, skip)
    return manifest


def report(m: dict[str, Any]) -> str:
    h, t = m["heldout"], m["training"]
    lines = [f"{m['ruleset']}: {t['rows']} training rows ({t['epochs']} epochs), {h['rows']} "
             f"held-out rows (won share {h['won_share']:.2f}); generation "
             f"{t['generation_s']} s, training {t['training_s']} s",
             "  held-out cut states, Brier / log loss: " + ", ".join(
                 f"{k} {h[k]['brier']:.4f} / {h[k]['log_loss']:.4f}"
                 for k in ("learned", "shipped_learned", "logistic", "constant"))]
    for r, o in zip(h["reliability"], h["shipped_reliability"]):
        lines.append(f"  predicted {r['predicted']}: this {r['states']:5d} rows won "
                     f"{r['won'] if r['won'] is not None else '-'}; shipped {o['states']:5d} "
                     f"won {o['won'] if o['won'] is not None else '-'}")
    lines.append("  us an evaluation: " + ", ".join(f"{k} {v}" for k, v in m["timing"].items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rulesets", default="f2d20")
    ap.add_argument("--fights", type=int, default=40, help="fights a training scenario")
    ap.add_argument("--arenas", type=int, default=1500, help="random arenas, a fight each")
    ap.add_argument("--heldout-fights", type=int, default=40, help="fights a held-out map")
    ap.add_argument("--horizon", type=int, default=2, help="rounds before the cut")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    from wasteland.limits import MAX_FIGHTS, MAX_SEED
    from wasteland.rules.names import RULESETS

    rulesets = [r for r in a.rulesets.split(",") if r]
    bad = [r for r in rulesets if r not in RULESETS]
    if not rulesets or bad:
        ap.error(f"--rulesets: {', '.join(RULESETS)}, separated by commas; got {a.rulesets!r}")
    for key, lo, hi in (("fights", 1, MAX_FIGHTS), ("arenas", 0, MAX_FIGHTS),
                        ("heldout_fights", 1, MAX_FIGHTS), ("horizon", 1, 100),
                        ("seed", 0, MAX_SEED)):
        if not lo <= getattr(a, key) <= hi:
            ap.error(f"--{key.replace('_', '-')}: {lo} to {hi}, got {getattr(a, key)}")
    for r in rulesets:
        print(report(run(r, a.fights, a.arenas, a.heldout_fights, a.horizon, a.out, a.seed)),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
