"""Trains the learned value (agents/valuenet.py) of each ruleset and scores it on held-out maps.

States are sampled from whole fights on the training maps (the built-in scenarios and the
seat maps of bestiary/seats/maps, and one fight each on random arenas of training/arenas.py:
other maps and line-ups of one to four a side) played by a mix of agents, each side drawn per fight: the
packet most often, sloppy, random, a shipped policy where one plays a creature of that
side, and now and then a mild search. Each sampled state is recorded from both sides' points
of view and labelled with how that fight ended for the side (won 1; lost or drawn 0, as the
search counts it). Fights on the held-out maps (wasteland/training/heldout) are played the
same way and kept out of training: they score the value, next to the logistic value of
agents/search.py and a constant. The fights of two training maps (VALIDATION_MAPS) are the
validation split that stops training early. Seeds are fixed, so a run makes the same file.

    python -m wasteland.training.value --rulesets pnp,simple,f2d20

writes wasteland/values/<ruleset>.npz + .json (``--out`` elsewhere) and prints the report
docs/search.md quotes. Needs torch (the ``train`` extra); playing needs only numpy.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import timeit
from pathlib import Path
from typing import Any

import numpy as np

from wasteland.agents import loop
from wasteland.agents.base import share_memory
from wasteland.agents.make import make_agent
from wasteland.agents.policy import OBSERVATION_VERSION
from wasteland.agents.search import value as logistic_value
from wasteland.agents.valuenet import (
    FORMAT,
    N_FEATURES,
    SIGHT,
    ValueNet,
    assemble,
    feature_hash,
    rows,
    value_features,
)
from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.bestiary.models import Scenario
from wasteland.rules.battle import Battle
from wasteland.rules.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parent.parent
HELDOUT = ROOT / "training" / "heldout"
SEAT_MAPS = ROOT / "bestiary" / "seats" / "maps"
SAMPLE_P = 0.12   # a decision's chance to be sampled
PER_FIGHT = 16    # at most this many states a fight (neighbouring states say much the same)
# a side's agent, drawn per fight: mostly the packet (the search's continuations are
# packets), with weaker, stronger and different players so the value has seen their states
MIX = (("packet", 0.55), ("sloppy", 0.17), ("random", 0.05), ("policy", 0.20),
       ("search:rollouts=4,candidates=2,horizon=1,full=0,taper=0", 0.03))
# one small hidden layer: on the held-out maps (pnp, 60 fights a map and 1,500 arenas)
# 16 units scored a Brier of 0.181, 8 0.184, 32 0.186, two layers of 64 0.186, against
# the logistic value's 0.195: the larger networks learn the training line-ups better
# and unseen maps no better
HIDDEN = (16,)
# the training maps whose fights are the validation split: maps, not fights, since
# fights of a map training has seen reward learning that map by heart (validated on
# other fights of the same maps, or on arenas, the network did worse than the logistic
# value on the held-out maps)
VALIDATION_MAPS = ("duel", "vault_corridor")


def training_maps() -> list[str]:
    return scenario_names() + sorted(str(p) for p in SEAT_MAPS.glob("*.yaml"))


def heldout_maps() -> list[str]:
    return sorted(str(p) for p in HELDOUT.glob("*.yaml"))


def _policies(ruleset: str) -> list[Any]:
    from wasteland.agents.policy import load_policy, shipped_names

    return [p for p in (load_policy(n) for n in shipped_names()) if p.ruleset == ruleset]


def _agent(kind: str, seed: int, creatures: set[str], policies: list[Any]) -> tuple[str, Any]:
    if kind == "policy":
        mine = [p for p in policies if p.kinds & creatures]
        if not mine:
            kind = "packet"
        else:
            from wasteland.agents.policy import PolicyAgent

            p = mine[seed % len(mine)]
            return f"policy:{p.name}", PolicyAgent(p, seed)
    return kind, make_agent(kind, seed)


def play(ruleset: str, scenario: str | Scenario, seed: int, policies: list[Any]) -> dict[str, Any]:
    """One fight of ``scenario`` on ``seed``: the sampled states' features for each side,
    the logistic value there, and the fight's end."""
    rs = get_ruleset(ruleset)
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    pick = random.Random(seed * 7 + 3)
    b = rs.new_battle(sc, seed, keep_log=False)
    b.quiet = True
    from wasteland.observe.encoding import Encoder

    enc = Encoder(b, rs)
    names, agents = [], []
    for s in range(len(b.side_names)):
        kind = pick.choices([k for k, _ in MIX], [w for _, w in MIX])[0]
        creatures = {c.creature.id for c in b.combatants if c.side == s}
        name, agent = _agent(kind, seed * 31 + s, creatures, policies)
        names.append(name)
        agents.append(agent)
    share_memory(agents, b, enc.memory)  # the policies remember with the sampler's encoder
    xs: list[list[np.ndarray]] = [[] for _ in b.side_names]
    old: list[list[float]] = [[] for _ in b.side_names]
    def sample(b: Battle) -> bool:  # a look before each decision; never stops the fight
        if len(xs[0]) < PER_FIGHT and pick.random() < SAMPLE_P:
            table, sides = rows(b, enc)
            dec = rs.decider(b)
            for s in range(len(b.side_names)):
                xs[s].append(assemble(b, s, table, sides, dec))
                old[s].append(logistic_value(b, s))
        return False

    loop.play(rs, b, loop.by_side(b, agents), forced=[True] * len(b.combatants), stop=sample)
    return {"x": xs, "old": old, "won": [float(b.winner == s) for s in range(len(b.side_names))],
            "agents": names}


def arenas(ruleset: str, n: int, seed: int) -> list[Scenario]:
    """``n`` random arenas (training/arenas.py): a family's creatures against the usual
    foes, one to four a side, a tenth of them mirrors of a family."""
    from wasteland.training.arenas import FAMILIES, FOES, random_arena
    from wasteland.training.mirror import mirror_arena

    rng = np.random.default_rng(seed)
    kinds = list(FAMILIES.values())
    out = []
    for i in range(n):
        family = kinds[i % len(kinds)]
        if rng.random() < 0.1:
            out.append(mirror_arena(rng, family, (1, 4), name=f"mirror{i}"))
        else:
            out.append(random_arena(rng, family, FOES, creature_count=(1, 4),
                                    foe_count=(1, 4), name=f"arena{i}", ruleset=ruleset))
    return out


def generate(ruleset: str, maps: list[str | Scenario], fights: int, first_seed: int,
             policies: list[Any]) -> dict[str, np.ndarray]:
    """Features, labels, logistic values and fight numbers of states from ``fights``
    fights a map."""
    X: list[np.ndarray] = []
    y: list[float] = []
    old: list[float] = []
    fight: list[int] = []
    used: dict[str, int] = {}
    for m, scenario in enumerate(maps):
        for g in range(fights):
            seed = first_seed + 100_000 * m + g
            out = play(ruleset, scenario, seed, policies)
            for name in out["agents"]:
                used[name.split(":")[0]] = used.get(name.split(":")[0], 0) + 1
            for s, rows_s in enumerate(out["x"]):
                X += rows_s
                y += [out["won"][s]] * len(rows_s)
                old += out["old"][s]
                fight += [m * fights + g] * len(rows_s)
    return {"X": np.array(X, np.float32).reshape(-1, N_FEATURES), "y": np.array(y, np.float32),
            "old": np.array(old), "fight": np.array(fight), "agents": used}  # type: ignore[dict-item]


def logistic_skip(ruleset: str) -> np.ndarray:
    """The logistic value (agents/search.py WEIGHTS) as weights of the raw features, the
    intercept last: its features are the first SCALARS."""
    from wasteland.agents.search import FALLBACK, WEIGHTS
    from wasteland.agents.valuenet import SCALARS

    w = WEIGHTS.get(ruleset, FALLBACK)
    skip = np.zeros(N_FEATURES + 1)
    at = N_FEATURES - len(SCALARS)
    skip[at:at + len(w) - 1] = w[1:]
    skip[-1] = w[0]
    return skip


def train(X: np.ndarray, y: np.ndarray, val: np.ndarray, seed: int, start: np.ndarray
          ) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                     int, float]:
    """The logit of a linear model (from ``start``: raw-feature weights, intercept last)
    plus an MLP (HIDDEN, tanh; its last layer from zero, so training starts at the linear
    model) by Adam on binary cross-entropy; the weights of the epoch with the lowest
    validation loss (epoch 0: the start), stopped after 8 epochs without a better one."""
    import torch

    torch.manual_seed(seed)
    mean = X[~val].mean(axis=0)
    scale = X[~val].std(axis=0)
    scale[scale < 1e-3] = 1.0
    Z = torch.tensor((X - mean) / scale, dtype=torch.float32)
    t = torch.tensor(y, dtype=torch.float32)
    tr = torch.tensor(np.flatnonzero(~val))
    va = torch.tensor(np.flatnonzero(val))
    layers: list[torch.nn.Module] = []
    width = X.shape[1]
    for h in HIDDEN:
        layers += [torch.nn.Linear(width, h), torch.nn.Tanh()]
        width = h
    out = torch.nn.Linear(width, 1)
    torch.nn.init.zeros_(out.weight)
    torch.nn.init.zeros_(out.bias)
    mlp = torch.nn.Sequential(*layers, out)
    linear = torch.nn.Linear(X.shape[1], 1)
    with torch.no_grad():  # the start's weights on standardized inputs
        linear.weight[0] = torch.tensor(start[:-1] * scale, dtype=torch.float32)
        linear.bias[0] = float(start[-1] + start[:-1] @ mean)

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.mlp, self.linear = mlp, linear

        def forward(self, z: torch.Tensor) -> torch.Tensor:
            return self.mlp(z) + self.linear(z)

    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-4)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    best, best_state, stale, epochs = float("inf"), None, 0, 0
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(201):
        if epoch:
            net.train()
            for batch in tr[torch.randperm(len(tr), generator=gen)].split(256):
                opt.zero_grad()
                loss = loss_fn(net(Z[batch])[:, 0], t[batch])
                loss.backward()
                opt.step()
        net.eval()
        with torch.no_grad():
            v = float(loss_fn(net(Z[va])[:, 0], t[va]))
        epochs = epoch
        if v < best - 1e-5:
            best, stale = v, 0
            best_state = {k: p.detach().clone() for k, p in net.state_dict().items()}
        else:
            stale += 1
            if stale >= 8:
                break
    assert best_state is not None
    net.load_state_dict(best_state)
    lin = [m for m in mlp if isinstance(m, torch.nn.Linear)]
    weights = [m.weight.detach().numpy().T.astype(np.float32) for m in lin]
    biases = [m.bias.detach().numpy().astype(np.float32) for m in lin]
    w = linear.weight.detach().numpy()[0].astype(np.float64)
    skip = np.append(w / scale, float(linear.bias.detach()[0]) - (w / scale) @ mean)
    return (weights, biases, mean.astype(np.float32), scale.astype(np.float32),
            skip.astype(np.float32), epochs, best)


def scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return {"brier": round(float(np.mean((p - y) ** 2)), 4),
            "log_loss": round(float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), 4)}


def reliability(p: np.ndarray, y: np.ndarray) -> list[dict[str, Any]]:
    out = []
    for k in range(5):
        lo, hi = k / 5, (k + 1) / 5
        m = (p >= lo) & ((p < hi) if k < 4 else (p <= hi))
        out.append({"predicted": f"{lo:.1f}-{hi:.1f}", "states": int(m.sum()),
                    "won": round(float(y[m].mean()), 3) if m.any() else None,
                    "mean_prediction": round(float(p[m].mean()), 3) if m.any() else None})
    return out


def timing(ruleset: str, net: ValueNet, n: int = 200) -> dict[str, float]:
    """Microseconds an evaluation on states of a held-out fight: the features, the network
    alone, and the logistic value, timed in one run."""
    from wasteland.rules.fork import fork

    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(heldout_maps()[0]), 1, keep_log=False)
    b.quiet = True
    agents = [make_agent("packet", s) for s in range(len(b.side_names))]
    states: list[Any] = []
    def sample(b: Battle) -> bool:  # a fork of some positions with a choice; 20 are enough
        if len(states) >= 20:
            return True
        if len(rs.legal_ids(b)) > 1 and random.Random(len(states) + b.round).random() < 0.3:
            states.append(fork(b, 1))
        return False

    loop.play(rs, b, loop.by_side(b, agents), stop=sample)
    xs = [value_features(s, 0) for s in states]

    def each(f: Any, items: list[Any]) -> float:
        return min(timeit.repeat(lambda: [f(i) for i in items], number=max(1, n // len(items)),
                                 repeat=3)) / (max(1, n // len(items)) * len(items)) * 1e6
    feats = each(lambda s: value_features(s, 0), states)
    network = each(lambda x: float(net.logit(x)), xs)
    whole = each(lambda s: net(s, 0), states)
    logistic = each(lambda s: logistic_value(s, 0), states)
    return {"features_us": round(feats, 1), "network_us": round(network, 1),
            "learned_us": round(whole, 1), "logistic_us": round(logistic, 1),
            "ratio_to_logistic": round(whole / logistic, 1)}


def run(ruleset: str, fights: int, n_arenas: int, heldout_fights: int, out: Path,
        seed: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    policies = _policies(ruleset)
    maps: list[str | Scenario] = list(training_maps())
    tr = generate(ruleset, maps, fights, 0, policies)
    ar = generate(ruleset, list(arenas(ruleset, n_arenas, seed)), 1, 2_000_000, policies)
    ho = generate(ruleset, list(heldout_maps()), heldout_fights, 5_000_000, policies)
    gen_s = time.perf_counter() - t0
    held = [i for i, m in enumerate(maps) if Path(str(m)).stem in VALIDATION_MAPS]
    val = np.concatenate([np.isin(tr["fight"] // fights, held), np.zeros(len(ar["y"]), bool)])
    tr = {k: (np.concatenate([tr[k], ar[k]]) if k != "agents" else
              {a: tr[k].get(a, 0) + ar[k].get(a, 0) for a in {*tr[k], *ar[k]}})  # type: ignore
          for k in tr}
    weights, biases, mean, scale, skip, epochs, val_loss = train(
        tr["X"], tr["y"], val, seed, logistic_skip(ruleset))
    t1 = time.perf_counter()
    shapes = [list(w.shape) for w in weights]
    manifest: dict[str, Any] = {
        "format": FORMAT, "ruleset": ruleset, "feature_hash": feature_hash(),
        "observation_version": OBSERVATION_VERSION, "sight": SIGHT,
        "inputs": N_FEATURES, "layers": shapes, "activation": "tanh",
        "command": f"python -m wasteland.training.value --rulesets {ruleset} --fights {fights} "
                   f"--arenas {n_arenas} --heldout-fights {heldout_fights} --seed {seed}",
    }
    net = ValueNet(ruleset, [w.astype(np.float64) for w in weights],
                   [b.astype(np.float64) for b in biases], mean.astype(np.float64),
                   scale.astype(np.float64), skip.astype(np.float64), manifest)
    p = net.predict(ho["X"])
    y = ho["y"]
    const = np.full(len(y), float(tr["y"][~val].mean()))
    manifest["training"] = {
        "maps": [Path(m).stem for m in training_maps()], "fights_a_map": fights,
        "arenas": n_arenas, "validation_maps": list(VALIDATION_MAPS), "hidden": list(HIDDEN),
        "states": int(len(tr["y"]) // 2), "rows": int(len(tr["y"])),
        "validation_rows": int(val.sum()), "epochs": epochs,
        "validation_log_loss": round(val_loss, 4), "seed": seed,
        "agents_by_side": tr["agents"], "mix": dict(MIX),
        "generation_s": round(gen_s, 1), "training_s": round(t1 - t0 - gen_s, 1),
    }
    manifest["heldout"] = {
        "maps": [Path(m).stem for m in heldout_maps()], "fights_a_map": heldout_fights,
        "states": int(len(y) // 2), "rows": int(len(y)), "won_share": round(float(y.mean()), 3),
        "learned": scores(p, y), "logistic": scores(ho["old"], y), "constant": scores(const, y),
        "reliability": reliability(p, y),
        "logistic_reliability": reliability(ho["old"], y),
    }
    manifest["timing"] = timing(ruleset, net)
    write_value(out, manifest, weights, biases, mean, scale, skip)
    return manifest


def write_value(out: Path, manifest: dict[str, Any], weights: list[np.ndarray],
                biases: list[np.ndarray], mean: np.ndarray, scale: np.ndarray,
                skip: np.ndarray) -> None:
    """``out``/<ruleset>.npz and .json, as agents/valuenet.py's ``load_value`` reads them."""
    ruleset = manifest["ruleset"]
    out.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {"mean": mean, "scale": scale, "skip": skip}
    for i, (w, b) in enumerate(zip(weights, biases)):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    np.savez_compressed(out / f"{ruleset}.npz", **arrays)  # type: ignore[arg-type]
    (out / f"{ruleset}.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def report(m: dict[str, Any]) -> str:
    h, t = m["heldout"], m["training"]
    lines = [f"{m['ruleset']}: {t['states']} training states ({t['epochs']} epochs), "
             f"{h['states']} held-out states (won share {h['won_share']:.2f}); "
             f"generation {t['generation_s']} s, training {t['training_s']} s",
             "  held-out Brier / log loss: " + ", ".join(
                 f"{k} {h[k]['brier']:.4f} / {h[k]['log_loss']:.4f}"
                 for k in ("learned", "logistic", "constant"))]
    for r, o in zip(h["reliability"], h["logistic_reliability"]):
        lines.append(f"  predicted {r['predicted']}: learned {r['states']:5d} states won "
                     f"{r['won'] if r['won'] is not None else '-'}; logistic {o['states']:5d} "
                     f"won {o['won'] if o['won'] is not None else '-'}")
    lines.append("  us an evaluation: " + ", ".join(f"{k} {v}" for k, v in m["timing"].items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rulesets", default="pnp,simple,f2d20")
    ap.add_argument("--fights", type=int, default=150, help="fights a training map")
    ap.add_argument("--arenas", type=int, default=3000, help="random arenas, a fight each")
    ap.add_argument("--heldout-fights", type=int, default=120, help="fights a held-out map")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=ROOT / "values")
    a = ap.parse_args(argv)
    from wasteland.limits import MAX_FIGHTS, MAX_SEED
    from wasteland.rules.names import RULESETS

    rulesets = [r for r in a.rulesets.split(",") if r]
    unknown = [r for r in rulesets if r not in RULESETS]
    if unknown or not rulesets:
        ap.error(f"--rulesets: {', '.join(unknown) or 'none given'}; accepted: "
                 f"{', '.join(RULESETS)}")
    for flag, n, lo in (("--fights", a.fights, 1), ("--arenas", a.arenas, 0),
                        ("--heldout-fights", a.heldout_fights, 1)):
        if not lo <= n <= MAX_FIGHTS:
            ap.error(f"{flag} must be {lo} to {MAX_FIGHTS:,}, got {n}")
    if not 0 <= a.seed <= MAX_SEED:
        ap.error(f"--seed must be 0 to {MAX_SEED}, got {a.seed}")
    if a.out.exists() and not a.out.is_dir():
        ap.error(f"--out {a.out}: a file, not a folder")
    for ruleset in rulesets:
        m = run(ruleset, a.fights, a.arenas, a.heldout_fights, a.out, a.seed)
        print(report(m), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
