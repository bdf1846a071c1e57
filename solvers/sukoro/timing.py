"""The timing stage: how long the ladder (and the SAT engine) take per banked board, and
how long the row transfer takes for the largest entry of the blank-board table."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.grid import parse_size
from solvers.timing import time_boards

from .board import Board
from .frontier import count_answers
from .ladder import solve
from .sat import solve_sat


def timing(inputs: Mapping[str, Any], params: Mapping[str, Any],
           progress: Progress = no_progress) -> dict[str, Any]:
    out = time_boards(inputs["bank"]["boards"],
                      {"ladder": lambda b: solve(b, limit=2),
                       "sat": lambda b: solve_sat(b, limit=2)},
                      Board.from_json, params["repeats"], progress)
    h, w = parse_size(params["blank"])
    t = time.perf_counter()
    count_answers(h, w)
    out["blank"] = {"size": params["blank"], "seconds": round(time.perf_counter() - t, 2)}
    return out
