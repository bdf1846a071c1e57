"""The confirm stage: every banked board re-proved unique by engines that share no code
with the ladder: the cell-colouring second engine where the board is small enough, and
the colour SAT encoding on every board (``solvers.confirm``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.confirm import ConfirmError, confirm_bank, confirm_one

from .board import Answer, Board
from .brute import brute
from .sat import solve_sat

__all__ = ["ConfirmError", "confirm", "confirm_board"]


def confirm_board(board: Board, answer: Answer, brute_max_cells: int) -> dict[str, Any]:
    """Per method: True (unique, the banked answer), or None where it was not run."""
    return confirm_one(board, answer, brute_max_cells, brute, solve_sat, lambda a: a.on)


def confirm(inputs: Mapping[str, Any], params: Mapping[str, Any],
            progress: Progress = no_progress) -> dict[str, Any]:
    return confirm_bank(inputs, params, progress, lambda b, a, n: confirm_board(
        Board.from_json(b), Answer.from_json(a), n))
