"""Ratings with openskill's Plackett-Luce model: every game a match of two one-agent
teams (a draw a tie), read in the schedule's order, from the same starting ratings.

The scale's origin is arbitrary (adding the same number to every rating changes no
prediction), so it is anchored: every rating is shifted by one amount that puts the
packet agent at ANCHOR. The uncertainties are openskill's sigmas, unchanged by the
shift; the interval is mu +- 1.96 sigma.

Two agents whose ratings differ by less than 1.96 times the sigma of their difference
are not told apart: an agent's rank is one more than the number of agents clearly above
it, tied agents share it and are listed by name, so that noise between equals (the
packet and a policy that plays like it) does not reorder the table from run to run.
"""

from __future__ import annotations

import math
from typing import Any

from .tournament import Played

ANCHOR_AGENT = "packet"
ANCHOR = 25.0  # openskill's starting mu: above 25 reads "better than the packet"
Z = 1.959964


def clearly_above(a: Any, b: Any) -> bool:
    """Whether rating ``a`` is above ``b`` by more than 1.96 sigmas of their difference."""
    return bool(a.mu - b.mu > Z * math.hypot(a.sigma, b.sigma))


def rate_agents(games: list[Played], names: list[str]) -> dict[str, Any]:
    """Each agent's rank, mu, sigma and 95% interval, best first, with the anchor used (None
    when the packet is not in the field: openskill's raw scale, everyone started at 25)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=n) for n in names]
    for g in games:
        a, b = g.sides
        # rank 1 is first: side 0 won, side 1 won, or a tie
        places = [1.0, 1.0] if g.winner is None else ([1.0, 2.0] if g.winner == 0 else [2.0, 1.0])
        [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=places)
        ratings[a], ratings[b] = ra, rb
    shift = 0.0
    anchor = None
    if ANCHOR_AGENT in names:
        shift = ANCHOR - ratings[names.index(ANCHOR_AGENT)].mu
        anchor = {"agent": ANCHOR_AGENT, "mu": ANCHOR}
    ranks = [1 + sum(clearly_above(o, r) for o in ratings) for r in ratings]
    rows = []
    for i in sorted(range(len(names)), key=lambda i: (ranks[i], names[i])):
        mu, sigma = ratings[i].mu + shift, ratings[i].sigma
        rows.append({"agent": names[i], "rank": ranks[i], "tied": ranks.count(ranks[i]) > 1,
                     "mu": mu, "sigma": sigma, "ci": [mu - Z * sigma, mu + Z * sigma]})
    return {"anchor": anchor, "ratings": rows}
