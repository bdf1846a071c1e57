"""The timing stage: how long the ladder takes to prove each banked board unique."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.timing import time_boards

from .board import Board
from .ladder import solve


def timing(inputs: Mapping[str, Any], params: Mapping[str, Any],
           progress: Progress = no_progress) -> dict[str, Any]:
    """Best of ``repeats`` wall-clock runs of solve(limit=2) per board, by size."""
    return time_boards(inputs["bank"]["boards"], {"sizes": lambda b: solve(b, limit=2)},
                       Board.from_json, params["repeats"], progress)
