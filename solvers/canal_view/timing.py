"""The timing stage: how long the ladder (and the SAT engine) take per banked board.

These are the only figures that differ between two runs of the pipeline, so they live in
their own file; it is rewritten only when the code or the bank changes.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from solvers.common import Progress

from . import ladder as _ladder
from .board import Board
from .ladder import solve
from .sat import solve_sat


def machine() -> dict[str, Any]:
    """What the figures were measured on, and how busy it was."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {"system": platform.system(), "arch": platform.machine(),
            "cores": os.cpu_count(), "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "load": round(load[0], 2)}


def best_of(f: Callable[[], Any], repeats: int) -> float:
    """Seconds of the fastest of ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def _cold_solve(b: Board) -> Any:
    """The ladder from scratch: drop its cache of per-board precomputation first."""
    cache = getattr(_ladder, "_ctx_cached", None)
    if cache is not None:
        cache.cache_clear()
    return solve(b, limit=2)


def summary(ts: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(ts) * 1000, 2),
            "worst_ms": round(max(ts) * 1000, 2), "boards": len(ts)}


def run_timing(inputs: Mapping[str, Any], params: Mapping[str, Any],
               progress: Progress) -> dict[str, Any]:
    boards = inputs["bank"]["boards"]
    before = machine()
    ladder: dict[str, list[float]] = {}
    sat: dict[str, list[float]] = {}
    for k, e in enumerate(boards):
        progress(k, len(boards), f"timing {e['id']}")
        b = Board.from_json(e["board"])
        ladder.setdefault(e["size"], []).append(
            best_of(lambda b=b: _cold_solve(b), params["repeats"]))
        sat.setdefault(e["size"], []).append(
            best_of(lambda b=b: solve_sat(b, limit=2), params["repeats"]))
    after = machine()
    return {"machine": {**before, "load_after": after["load"]},
            "repeats": params["repeats"],
            "ladder": {s: summary(ts) for s, ts in ladder.items()},
            "sat": {s: summary(ts) for s, ts in sat.items()}}
