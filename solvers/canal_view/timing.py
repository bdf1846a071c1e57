"""The timing stage: how long the ladder (and the SAT engine) take per banked board.

These are the only figures that differ between two runs of the pipeline, so they live in
their own file; it is rewritten only when the code or the bank changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solvers.common import Progress
from solvers.timing import time_boards

from . import ladder as _ladder
from .board import Board
from .ladder import solve
from .sat import solve_sat


def _cold_solve(b: Board) -> Any:
    """The ladder from scratch: drop its cache of per-board precomputation first."""
    cache = getattr(_ladder, "_ctx_cached", None)
    if cache is not None:
        cache.cache_clear()
    return solve(b, limit=2)


def run_timing(inputs: Mapping[str, Any], params: Mapping[str, Any],
               progress: Progress) -> dict[str, Any]:
    return time_boards(inputs["bank"]["boards"],
                       {"ladder": _cold_solve, "sat": lambda b: solve_sat(b, limit=2)},
                       Board.from_json, params["repeats"], progress)
