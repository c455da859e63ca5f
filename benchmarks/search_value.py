"""Calibrates the search's evaluation against full playouts (docs/search.md, "The value").

States are sampled from packet-vs-packet fights (every built-in and held-out map, each
ruleset); from each, a continuation is played by packets for ``--horizon`` rounds, its
features read where the search would cut it (agents/search.py ``features``), and then
played on to the end for the label (won 1; lost or drawn 0, as the search counts it). A
logistic model of the label on the features is fitted per ruleset (Newton's method, from
both sides' points of view) on even fights and scored on odd ones against the old rule
(0.5 plus half the HP share difference). It prints the weights to paste into agents/search.py ``WEIGHTS``.

    .venv/bin/python benchmarks/search_value.py --fights 60 --horizon 2
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.agents.base import view_of  # noqa: E402
from wasteland.agents.make import make_agent  # noqa: E402
from wasteland.agents.standing import FEATURES, features  # noqa: E402
from wasteland.bestiary.loader import load_scenario, scenario_names  # noqa: E402
from wasteland.rules.actions import ACTION_TABLE  # noqa: E402
from wasteland.rules.fork import fork  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402

HELDOUT = Path(__file__).resolve().parent.parent / "wasteland" / "training" / "heldout"
SAMPLE_P = 0.06
PER_FIGHT = 4


def _play(rs, b, agents, stop: int) -> None:
    while not b.over and b.round < stop:
        v = view_of(rs, b)
        ids = v.legal_ids
        who = b.combatants[v.decision.combatant].side
        rs.apply(b, ACTION_TABLE[ids[0]] if len(ids) == 1 else agents[who].act(v), check=False)


def samples(ruleset: str, scenario: str, fights: int, horizon: int):
    """(fight, features for side 0, features for side 1, old value for side 0, side 0
    won, side 1 won) of states sampled from packet fights of ``scenario``."""
    rs = get_ruleset(ruleset)
    sc = load_scenario(scenario)
    out = []
    for g in range(fights):
        pick = random.Random(1000 + g)
        b = rs.new_battle(sc, g, keep_log=False)
        b.quiet = True
        agents = [make_agent("packet", g + s) for s in range(len(b.side_names))]
        taken = 0
        while not b.over:
            if taken < PER_FIGHT and pick.random() < SAMPLE_P:
                taken += 1
                f = fork(b, pick.getrandbits(62))
                fa = [make_agent("packet", pick.getrandbits(30)) for _ in b.side_names]
                _play(rs, f, fa, f.round + horizon)
                if not f.over:
                    x0, x1 = features(f, 0), features(f, 1)
                    v0 = 0.5 + 0.5 * (x0[0] - x0[1])
                    _play(rs, f, fa, 1 << 30)
                    out.append((g, x0, x1, v0, float(f.winner == 0), float(f.winner == 1)))
            v = view_of(rs, b)
            ids = v.legal_ids
            who = b.combatants[v.decision.combatant].side
            rs.apply(b, ACTION_TABLE[ids[0]] if len(ids) == 1 else agents[who].act(v),
                     check=False)
    return out


def fit(X: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Logistic regression by Newton's method (fractional labels allowed)."""
    w = np.zeros(X.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-X @ w))
        g = X.T @ (p - y) + ridge * w
        H = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.eye(len(w))
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return (float(np.mean((p - y) ** 2)),
            float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fights", type=int, default=60)
    ap.add_argument("--horizon", type=int, default=2)
    ap.add_argument("--rulesets", default="pnp,simple,f2d20")
    a = ap.parse_args(argv)
    maps = scenario_names() + sorted(str(p) for p in HELDOUT.glob("*.yaml"))
    print(f"features: {', '.join(FEATURES)}")
    for ruleset in a.rulesets.split(","):
        rows = []
        for m in maps:
            rows += samples(ruleset, m, a.fights, a.horizon)
        X = np.array([[1.0, *r[1]] for r in rows] + [[1.0, *r[2]] for r in rows])
        y = np.array([r[4] for r in rows] + [r[5] for r in rows])
        old = np.array([r[3] for r in rows] + [1 - r[3] for r in rows])
        odd = np.array([r[0] % 2 for r in rows] * 2, dtype=bool)
        w = fit(X[~odd], y[~odd])
        new = 1 / (1 + np.exp(-X[odd] @ w))
        b_old, l_old = scores(old[odd], y[odd])
        b_new, l_new = scores(new, y[odd])
        base = scores(np.full(odd.sum(), y[~odd].mean()), y[odd])
        w_all = fit(X, y)
        print(f"{ruleset}: {len(rows)} states; held-out Brier / log loss: constant "
              f"{base[0]:.4f} / {base[1]:.4f}, old {b_old:.4f} / {l_old:.4f}, "
              f"fitted {b_new:.4f} / {l_new:.4f}")
        bins = np.linspace(0, 1, 6)
        for lo, hi in zip(bins[:-1], bins[1:]):
            m = (new >= lo) & (new < hi + (hi == 1))
            if m.any():
                print(f"  predicted {lo:.1f}-{hi:.1f}: {m.sum():5d} states, won "
                      f"{y[odd][m].mean():.2f} (mean prediction {new[m].mean():.2f})")
        print(f"  WEIGHTS[{ruleset!r}] = ({', '.join(f'{x:.3f}' for x in w_all)})")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
