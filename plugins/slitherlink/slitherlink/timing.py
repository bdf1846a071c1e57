"""The timing stage: how long the ladder (graded and not) and the colour SAT encoding
take per banked board, and how long the frontier count of 10×10 loops takes."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.timing import time_boards

from .board import Board
from .exact import count_loops
from .ladder import solve
from .sat import solve_sat


def timing(inputs: Mapping[str, Any], params: Mapping[str, Any],
           progress: Progress = no_progress) -> dict[str, Any]:
    out = time_boards(inputs["bank"]["boards"],
                      {"ladder": lambda b: solve(b, limit=2),
                       "ungraded": lambda b: solve(b, limit=2, grade=False),
                       "sat": lambda b: solve_sat(b, limit=2)},
                      Board.from_json, params["repeats"], progress)
    t = time.perf_counter()
    count_loops(10, 10)
    out["loops"] = {"size": "10x10", "seconds": round(time.perf_counter() - t, 3)}
    return out
