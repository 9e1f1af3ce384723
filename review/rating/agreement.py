"""Krippendorff's alpha: agreement between raters, pure (docs/human_rating.md, "Agreement").

Written from Krippendorff's own recipe (the coincidence matrix of the values that can be paired): alpha is
1 - (n - 1) * sum(o_ck * d(c, k)) / sum(n_c * n_k * d(c, k)), where o_ck counts, over every unit rated at least twice,
each ordered pair of values c, k given by two different raters to that unit, weighted by 1 / (m_u - 1) for a unit
with m_u values; n_c sums o_ck over k, and n is the number of pairable values. A unit rated once pairs with nothing
and is left out, so a rater who has not finished lowers no figure. d is the metric's squared difference: nominal
(0 when equal, else 1) for logic correctness, interval ((c - k)^2) for grammar.
"""

from collections import Counter
from collections.abc import Callable, Iterable, Sequence


def nominal(c, k) -> float:
    return 0.0 if c == k else 1.0


def interval(c, k) -> float:
    return float(c - k) ** 2


METRICS: dict[str, Callable] = {"nominal": nominal, "interval": interval}


def krippendorff_alpha(units: Iterable[Sequence], metric: str = "nominal") -> float | None:
    """Alpha of `units` (each the values its raters gave it, a missing rating simply absent) under `metric`
    ("nominal" or "interval"). None when it is not defined: fewer than two pairable values, or all of them the same
    (no disagreement is possible, so agreement says nothing)."""
    distance = METRICS[metric]
    coincidences: Counter = Counter()
    for unit in units:
        counts = Counter(unit)
        pairable = sum(counts.values())
        if pairable < 2:
            continue
        for c, count_c in counts.items():
            for k, count_k in counts.items():
                pairs = count_c * (count_k - (1 if c == k else 0))
                if pairs:
                    coincidences[c, k] += pairs / (pairable - 1)
    totals: Counter = Counter()
    for (c, _), weight in coincidences.items():
        totals[c] += weight
    n = sum(totals.values())
    if n < 2:
        return None
    observed = sum(weight * distance(c, k) for (c, k), weight in coincidences.items())
    expected = sum(totals[c] * totals[k] * distance(c, k) for c in totals for k in totals)
    if expected == 0:
        return None
    return 1.0 - (n - 1) * observed / expected
