"""What every puzzle's timing stage shares: the machine, best-of timing, per-size summaries.

Times are the only figures that differ between two runs of the pipeline, so each puzzle
keeps them in their own file (``content/<slug>/timing.json``), rewritten only when the
code or the bank changes; every other file stays byte-identical across regenerations.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from solvers.common import Progress, no_progress


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


def summary(ts: list[float]) -> dict[str, float]:
    return {"boards": len(ts), "median_ms": round(statistics.median(ts) * 1000, 2),
            "worst_ms": round(max(ts) * 1000, 2)}


def time_boards(boards: Sequence[Mapping[str, Any]], engines: Mapping[str, Callable[[Any], Any]],
                board_from_json: Callable[[Any], Any], repeats: int,
                progress: Progress = no_progress) -> dict[str, Any]:
    """For each engine, the best of ``repeats`` runs per banked board, summarised by size:
    ``{"machine", "repeats", <engine name>: {size: summary}}``."""
    before = machine()
    times: dict[str, dict[str, list[float]]] = {name: {} for name in engines}
    for k, e in enumerate(boards):
        progress(k, len(boards), f"timing {e['id']}")
        b = board_from_json(e["board"])
        for name, run in engines.items():
            times[name].setdefault(e["size"], []).append(
                # the defaults bind this turn's b and run; mypy infers no lambda defaults
                best_of(lambda b=b, run=run: run(b), repeats))  # type: ignore[misc]
    out: dict[str, Any] = {"machine": {**before, "load_after": machine()["load"]},
                           "repeats": repeats}
    for name, by_size in times.items():
        out[name] = {s: summary(ts) for s, ts in by_size.items()}
    return out
