"""The confirm stage: every banked board re-proved unique by engines that share no code
with the ladder — the second engine (plain backtracking) where the board is small enough
for it, and the SAT engine on every board (the loop and the counts: ``solvers.confirm``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.confirm import ConfirmError, confirm_bank

from .board import Answer, Board
from .brute import brute
from .sat import solve_sat

__all__ = ["ConfirmError", "confirm_board", "run_confirm"]


def confirm_board(board: Board, answer: Answer, brute_max_cells: int) -> dict[str, Any]:
    """Per method: True (unique, the banked answer), or None where it was not run."""
    out: dict[str, Any] = {"brute": None}
    if board.h * board.w <= brute_max_cells:
        res = brute(board, limit=2)
        out["brute"] = len(res.solutions) == 1 and res.solutions[0].mask == answer.mask
    sat = solve_sat(board, limit=2)
    out["sat"] = len(sat.answers) == 1 and sat.answers[0] == answer.mask
    out["sat_calls"] = sat.calls
    out["sat_cuts"] = sat.cuts
    return out


def _from_json(board: dict[str, Any], answer: dict[str, Any], brute_max_cells: int
               ) -> dict[str, Any]:
    return confirm_board(Board.from_json(board), Answer.from_json(answer), brute_max_cells)


def run_confirm(inputs: Mapping[str, Any], params: Mapping[str, Any],
                progress: Progress = no_progress) -> dict[str, Any]:
    return confirm_bank(inputs, params, progress, _from_json)
