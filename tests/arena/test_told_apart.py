"""The arena's "told apart" rule at its boundary (wasteland/arena/ratings.py): rating a is
clearly above b when a.mu - b.mu is more than Z = 1.959964 times the sigma of the
difference, sqrt(a.sigma^2 + b.sigma^2); at exactly that margin, or below it, the two share
a rank. Sigmas 3 and 4 make the combined sigma exactly 5, so the margin is Z * 5."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from wasteland.arena.ratings import ANCHOR, Z, clearly_above, rate_agents

MARGIN = Z * 5.0  # hypot(3, 4) == 5 exactly


def r(mu: float, sigma: float) -> SimpleNamespace:
    return SimpleNamespace(mu=mu, sigma=sigma)


def test_the_combined_sigma_is_exact_here():
    assert math.hypot(3.0, 4.0) == 5.0 and Z == 1.959964


@pytest.mark.parametrize("diff,apart", [
    (math.nextafter(MARGIN, 0.0), False),       # just under
    (MARGIN, False),                            # exactly at: not clearly above
    (math.nextafter(MARGIN, math.inf), True),   # just over
])
def test_clearly_above_at_the_boundary(diff, apart):
    assert clearly_above(r(diff, 3.0), r(0.0, 4.0)) is apart
    assert clearly_above(r(0.0, 4.0), r(diff, 3.0)) is False  # never the one below


@pytest.mark.parametrize("diff,apart", [(9.0, False), (9.9, True), (13.0, True)])
def test_the_two_sigmas_combine_as_the_square_root_of_their_squares(diff, apart):
    """Against 9.8 (Z x 5): the larger sigma alone (4: 7.84) or the one above alone (3:
    5.88) would tell 9.0 apart, the sum (7: 13.7) would not tell 9.9 or 13.0 apart."""
    assert clearly_above(r(diff, 3.0), r(0.0, 4.0)) is apart
    assert clearly_above(r(diff + 100.0, 4.0), r(100.0, 3.0)) is apart  # symmetric in sigmas


class _Fixed:
    """A stand-in for openskill's model: the ratings given, unchanged by games."""

    preset: dict[str, SimpleNamespace] = {}

    def rating(self, name: str) -> SimpleNamespace:
        return self.preset[name]

    def rate(self, teams, ranks):  # pragma: no cover - no games are played
        return teams


@pytest.mark.parametrize("diff,ranks", [
    (MARGIN, {"packet": 1, "policy": 1}),
    (math.nextafter(MARGIN, math.inf), {"policy": 1, "packet": 2}),
])
def test_ranks_at_the_boundary(monkeypatch, diff, ranks):
    """Exactly at the margin the two share rank 1 (tied, listed by name); just over it the
    one above is 1 and the other 2."""
    _Fixed.preset = {"packet": r(0.0, 4.0), "policy": r(diff, 3.0)}
    monkeypatch.setattr("openskill.models.PlackettLuce", _Fixed)
    rows = rate_agents([], ["packet", "policy"])["ratings"]
    assert {x["agent"]: x["rank"] for x in rows} == ranks
    assert all(x["tied"] is (len(set(ranks.values())) == 1) for x in rows)
    by = {x["agent"]: x for x in rows}
    assert by["packet"]["mu"] == ANCHOR and by["policy"]["mu"] == pytest.approx(ANCHOR + diff)
    assert by["policy"]["ci"] == pytest.approx([ANCHOR + diff - Z * 3.0, ANCHOR + diff + Z * 3.0])
