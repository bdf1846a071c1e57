"""Nanro's study code: the engine-agreement counts of section A, per size and per engine."""

from __future__ import annotations

import random

import pytest

from solvers.nanro import studies
from solvers.satcut import SatResult


def _law(sizes: list[str], n: int = 4, seed: int = 5) -> dict:
    """Section A at a few boards per size, one chunk per size as the stage runs it, merged."""
    parts = [studies.section_a([s], [0.8], n, 100000, 5000, 25, 20000,
                               random.Random(f"{seed}-{s}"), lambda _note: None)
             for s in sizes]
    return studies._merge_law(parts)


def test_sat_compares_every_size_and_the_region_product_the_small_ones() -> None:
    law = _law(["5x5", "8x8"])
    by = law["agreement_sizes"]
    assert list(by) == ["5x5", "8x8"]
    for s, row in by.items():
        assert row["boards"] == 4
        done = row["boards"] - row["skipped_search_capped"]
        assert row["sat"]["compared"] == done == row["sat"]["agree"], s
        assert row["sat"]["disagree"] == 0
    assert by["5x5"]["brute"]["every_board"] and not by["8x8"]["brute"]["every_board"]
    assert by["5x5"]["brute"]["compared"] + by["5x5"]["brute"]["skipped_capped"] == 4
    # the totals are the sums over the sizes
    assert law["agreement_sat"]["compared"] == sum(r["sat"]["compared"] for r in by.values())
    assert law["agreement"]["compared"] == sum(r["brute"]["compared"] for r in by.values())
    assert law["agreement"]["skipped_search_capped"] == law["agreement_sat"][
        "skipped_search_capped"]


def test_a_sat_count_unlike_the_search_is_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that always answers "no answer" must be caught on every board that has one."""
    monkeypatch.setattr(studies, "solve_sat", lambda board, limit=2: SatResult([], 1, 0))
    law = _law(["5x5"])
    row = law["agreement_sizes"]["5x5"]
    assert row["sat"]["disagree"] > 0
    assert row["sat"]["agree"] + row["sat"]["disagree"] == row["sat"]["compared"]
    assert law["agreement_sat"]["disagree"] == row["sat"]["disagree"]
