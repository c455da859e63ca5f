"""Proportions with their intervals and distributions of whole numbers, kept as counts of
each value so that a million fights cost kilobytes and percentiles stay exact."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from wasteland.training.stats import wilson

__all__ = ["rate", "distribution", "percentile", "histogram", "wilson"]


def rate(count: int, n: int) -> dict[str, Any]:
    """``count`` of ``n`` as a share with its Wilson 95% interval."""
    lo, hi = wilson(count, n)
    return {"count": count, "rate": count / n if n else 0.0, "ci": [lo, hi]}


def percentile(values: Counter[int], q: float) -> float:
    """The ``q`` quantile (0..1) with linear interpolation between ranks, as numpy's
    default ("linear") computes it from the sorted values."""
    n = sum(values.values())
    if n == 0:
        return math.nan
    pos = q * (n - 1)
    lo_rank, frac = int(pos), pos - int(pos)
    seen = 0
    lo_value: int | None = None
    for v in sorted(values):
        seen += values[v]
        if lo_value is None and seen > lo_rank:
            lo_value = v
            if frac == 0 or seen > lo_rank + 1:
                return float(v)
        elif lo_value is not None:
            return lo_value + frac * (v - lo_value)
    assert lo_value is not None
    return float(lo_value)


def histogram(values: Counter[int], max_bins: int = 20) -> dict[str, list[int]]:
    """Counts in bins of equal whole width from the smallest value: ``edges[i]`` is where
    bin i starts (it holds edges[i] .. edges[i+1] - 1), at most ``max_bins`` bins."""
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / max_bins))
    bins = (hi - lo) // width + 1
    counts = [0] * bins
    for v, k in values.items():
        counts[(v - lo) // width] += k
    return {"edges": [lo + i * width for i in range(bins + 1)], "counts": counts}


def distribution(values: Counter[int]) -> dict[str, Any]:
    """Mean, median, 10th and 90th percentiles, extremes and a histogram."""
    n = sum(values.values())
    if n == 0:
        return {"n": 0}
    return {
        "n": n,
        "mean": sum(v * k for v, k in values.items()) / n,
        "median": percentile(values, 0.5),
        "p10": percentile(values, 0.1),
        "p90": percentile(values, 0.9),
        "min": min(values),
        "max": max(values),
        "histogram": histogram(values),
    }
