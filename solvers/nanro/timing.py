"""The timing stage: how long the ladder takes to prove each banked board unique.

Times are the only figures that differ between two runs of the pipeline, so they live in
their own file (content/nanro/timing.json), rewritten only when the code or the bank
changes; every other file stays byte-identical across regenerations.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress

from .board import Board
from .ladder import solve

TIMING_PARAMS = {"repeats": 3}


def _machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {"system": platform.system(), "arch": platform.machine(), "cores": os.cpu_count(),
            "python": platform.python_version(), "load": round(load[0], 2)}


def timing(inputs: Mapping[str, Any], params: Mapping[str, Any],
           progress: Progress = no_progress) -> dict[str, Any]:
    """Best of ``repeats`` wall-clock runs of solve(limit=2) per board, by size."""
    boards = inputs["bank"]["boards"]
    before = _machine()
    by_size: dict[str, list[float]] = {}
    for k, e in enumerate(boards):
        progress(k, len(boards), f"timing {e['id']}")
        board = Board.from_json(e["board"])
        best = float("inf")
        for _ in range(params["repeats"]):
            t = time.perf_counter()
            solve(board, limit=2)
            best = min(best, time.perf_counter() - t)
        by_size.setdefault(e["size"], []).append(best)
    sizes = {s: {"boards": len(ts), "median_ms": round(statistics.median(ts) * 1000, 2),
                 "worst_ms": round(max(ts) * 1000, 2)} for s, ts in by_size.items()}
    return {"machine": {**before, "load_after": _machine()["load"]},
            "repeats": params["repeats"], "sizes": sizes}
