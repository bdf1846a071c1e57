"""Sashigane (さしがね): divide the board into width-1 L pieces.

Seed rules: every piece holds one circle, on its corner, and one arrow, on one of its
two ends, pointing along its arm to the corner; a number in a circle is the piece's size.
Standard (puzz.link) rules allow clueless pieces and an arrow on each end.
"""

from __future__ import annotations

from typing import Any

from solvers.common import Puzzle

from .ladder import RUNGS

PUZZLE = Puzzle.from_package(__name__, slug="sashigane",
                             names={"en": "Sashigane", "ja": "さしがね"}, brute_max_cells=144)

__all__ = ["PUZZLE", "RULES", "RUNGS"]


def __getattr__(name: str) -> Any:
    """``RULES``, imported on first use: a solve never reads the rules table."""
    if name == "RULES":
        return PUZZLE.rules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
