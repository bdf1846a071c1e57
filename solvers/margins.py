"""Margins for sampled figures: a 95% interval beside every rate and mean a study samples.

Rates (k boards of n) get the Wilson score interval, which stays inside [0, 1] and is
sensible at k = 0 or k = n, where the normal approximation collapses to a point. Means get
a percentile bootstrap, seeded from the sample itself, so that the same data always gives
the same interval (the stats stage must be byte-identical from run to run).

Every function returns plain JSON (floats and ints); the pages print the bounds through
the provenance filter like any other figure, and ``differs`` is how a sentence decides
whether two figures are apart.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054          # the two-sided 95% point of the normal distribution
RESAMPLES = 2000                 # bootstrap resamples for a mean

RATE_METHOD = "Wilson score interval, 95%"
MEAN_METHOD = f"percentile bootstrap, {RESAMPLES} resamples, seeded by the sample, 95%"
RATIO_METHOD = ("percentile bootstrap over items (boards) resampled whole, "
                f"{RESAMPLES} resamples, seeded by the sample, 95%")


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials ((0, 1) when n is 0). A
    fractional k is a share of n weighed as n draws (several correlated draws per item)."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"{k} successes out of {n} trials")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    # exact ends: k = 0 gives lo = 0 and k = n gives hi = 1, whatever the rounding
    return (0.0 if k == 0 else lo), (1.0 if k == n else hi)


def rate(k: int, n: int) -> dict[str, Any]:
    """A sampled rate with its count, sample size and Wilson interval."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": k / n if n else 0.0, "lo": lo, "hi": hi}


def rates(counts: dict[str, int], n: int) -> dict[str, dict[str, Any]]:
    """``rate`` for each named count over the same n boards."""
    return {name: rate(k, n) for name, k in counts.items()}


def _seed(values: Sequence[float]) -> int:
    text = ",".join(repr(float(v)) for v in values)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def mean_ci(values: Sequence[float], resamples: int = RESAMPLES) -> dict[str, Any]:
    """A sampled mean with its sample size and a seeded percentile-bootstrap interval
    (the 2.5th and 97.5th percentiles of the resampled means)."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        raise ValueError("the mean of no values")
    mean = math.fsum(xs) / n
    if n == 1 or min(xs) == max(xs):
        return {"n": n, "mean": mean, "lo": mean, "hi": mean}
    rng = random.Random(_seed(xs))
    means = sorted(math.fsum(rng.choices(xs, k=n)) / n for _ in range(resamples))
    lo = means[int(0.025 * resamples)]
    hi = means[min(resamples - 1, math.ceil(0.975 * resamples) - 1)]
    return {"n": n, "mean": mean, "lo": lo, "hi": hi}


def ratio_ci(nums: Sequence[float], dens: Sequence[float],
             resamples: int = RESAMPLES) -> dict[str, Any]:
    """A ratio of sums over items (numbers per board over cells per board, say) with a
    seeded percentile bootstrap over the items: the items are resampled whole, so values
    that share an item (the numbers of one board) move together, as they were drawn."""
    if len(nums) != len(dens) or not nums:
        raise ValueError("a ratio needs one numerator and one denominator per item")
    xs, ys = [float(v) for v in nums], [float(v) for v in dens]
    n = len(xs)
    total = math.fsum(ys)
    ratio = math.fsum(xs) / total if total else 0.0
    rng = random.Random(_seed(xs + ys))
    got = []
    for _ in range(resamples):
        idx = [rng.randrange(n) for _ in range(n)]
        d = math.fsum(ys[i] for i in idx)
        got.append(math.fsum(xs[i] for i in idx) / d if d else 0.0)
    got.sort()
    lo = got[int(0.025 * resamples)]
    hi = got[min(resamples - 1, math.ceil(0.975 * resamples) - 1)]
    return {"n": n, "ratio": ratio, "lo": lo, "hi": hi}


def interval_of(x: Any) -> tuple[float, float]:
    """(lo, hi) of a figure: a dict with ``lo``/``hi``, a pair, or a bare number."""
    if isinstance(x, dict):
        return float(x["lo"]), float(x["hi"])
    if isinstance(x, (list, tuple)):
        return float(x[0]), float(x[1])
    return float(x), float(x)


def differs(a: Any, b: Any) -> bool:
    """Whether two figures are apart: their 95% intervals do not overlap (a bare number is
    an interval of one point). Overlapping intervals do not prove the figures equal; they
    only leave the data unable to tell them apart, so a page says "differs" only here."""
    alo, ahi = interval_of(a)
    blo, bhi = interval_of(b)
    return ahi < blo or bhi < alo


def outside(x: float, a: Any) -> bool:
    """Whether a single value lies outside an interval."""
    lo, hi = interval_of(a)
    return x < lo or x > hi


def methods() -> dict[str, str]:
    """The names of the intervals, for the stats stage to record beside its figures."""
    return {"rates": RATE_METHOD, "means": MEAN_METHOD, "ratios": RATIO_METHOD}


__all__ = ["MEAN_METHOD", "RATE_METHOD", "RATIO_METHOD", "Z95", "differs", "interval_of",
           "mean_ci", "methods", "outside", "rate", "rates", "ratio_ci", "wilson"]
