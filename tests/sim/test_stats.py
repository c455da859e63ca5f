"""Wilson intervals, percentiles and histograms on known values."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from wasteland.sim.stats import distribution, histogram, percentile, rate, wilson


@pytest.mark.parametrize(("wins", "n", "lo", "hi"), [
    (0, 10, 0.0, 0.27753),  # the textbook rows (Newcombe 1998, Table I; Brown, Cai, DasGupta)
    (5, 10, 0.23659, 0.76341),
    (10, 10, 0.72247, 1.0),
    (1, 1000, 0.000177, 0.005643),  # by hand: centre 0.0029096, half-width 0.0027330
])
def test_wilson_on_known_values(wins, n, lo, hi):
    got = wilson(wins, n)
    assert got == pytest.approx((lo, hi), abs=2e-5)


def test_wilson_is_symmetric_and_holds_the_share():
    for k, n in ((3, 7), (40, 50), (1, 2)):
        lo, hi = wilson(k, n)
        assert lo < k / n < hi
        assert wilson(n - k, n) == pytest.approx((1 - hi, 1 - lo))


def test_rate_holds_count_share_and_interval():
    assert rate(71, 100) == {"count": 71, "rate": 0.71, "ci": list(wilson(71, 100))}
    assert rate(0, 0) == {"count": 0, "rate": 0.0, "ci": [0.0, 1.0]}


@pytest.mark.parametrize("seed", range(5))
def test_percentiles_agree_with_numpy(seed):
    rng = random.Random(seed)
    xs = [rng.randint(0, rng.choice((3, 30, 300))) for _ in range(rng.randint(1, 200))]
    c = Counter(xs)
    for q in (0.0, 0.1, 0.25, 0.5, 0.9, 1.0):
        assert percentile(c, q) == pytest.approx(float(np.percentile(xs, 100 * q)))


def test_histogram_bins_of_whole_width():
    assert histogram(Counter({3: 2, 4: 1, 9: 5})) == {
        "edges": [3, 4, 5, 6, 7, 8, 9, 10], "counts": [2, 1, 0, 0, 0, 0, 5]}
    h = histogram(Counter(range(100)), max_bins=20)  # 100 values: 20 bins of 5
    assert h["edges"][:3] == [0, 5, 10] and h["counts"] == [5] * 20
    assert histogram(Counter()) == {"edges": [], "counts": []}


def test_distribution_of_rounds():
    d = distribution(Counter({4: 1, 5: 2, 6: 1, 10: 1}))
    assert d["n"] == 5 and d["mean"] == 6.0 and d["median"] == 5.0
    assert (d["min"], d["max"]) == (4, 10)
    assert d["p10"] == pytest.approx(4.4) and d["p90"] == pytest.approx(8.4)
    assert sum(d["histogram"]["counts"]) == 5
    assert distribution(Counter()) == {"n": 0}
