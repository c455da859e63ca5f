"""A tournament as plain data: what `evaluate --json` prints and the tables and plots
read."""

from __future__ import annotations

from typing import Any

from .ratings import rate_agents
from .scores import tally
from .tournament import Tournament


def report(t: Tournament) -> dict[str, Any]:
    f = t.field
    names = f.names
    scenarios = [sc.id for sc in f.scenarios]
    scores = tally(t.games, len(names), scenarios)
    pairs = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            pairs.append({"agent": names[i], "opponent": names[j], **scores["matrix"][i][j]})
    return {
        "agents": names,
        "scenarios": scenarios,
        "rulesets": list(f.rulesets),
        "n": f.n,
        "seeds": [f.seed, f.seed + f.n - 1],
        "games": len(t.games),
        "fought": t.fought,
        "cached": len(t.games) - t.fought,
        "interrupted": t.interrupted,
        **rate_agents(t.games, names),
        "overall": [{"agent": n, **r} for n, r in zip(names, scores["overall"])],
        "pairs": pairs,
        "matrix": scores["matrix"],
        "by_scenario": {sc: {r: [{"agent": n, **rec} for n, rec in zip(names, recs)]
                             for r, recs in by_r.items()}
                        for sc, by_r in scores["by_scenario"].items()},
    }
