"""The confirm stage: every banked board re-proved unique by engines that share no code
with the ladder — the scanner (engine 2) where the board is small enough for it to finish
quickly, and the SAT engine on every board. A board either engine cannot confirm stops the
build."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress

from .board import Answer, Board
from .brute import brute
from .sat import solve_sat


class ConfirmError(AssertionError):
    """An independent engine does not find the banked answer alone: the build must stop."""


def confirm_board(board: Board, answer: Answer, brute_max_cells: int) -> dict[str, Any]:
    """Per method: True (unique, the banked answer), or None where it was not run."""
    out: dict[str, Any] = {"brute": None}
    if board.h * board.w <= brute_max_cells:
        res = brute(board, limit=2)
        out["brute"] = len(res.solutions) == 1 and res.solutions[0].flat() == answer.flat()
    sat = solve_sat(board, limit=2)
    out["sat"] = len(sat.answers) == 1 and sat.answers[0] == answer.flat()
    out["sat_calls"] = sat.calls
    out["sat_cuts"] = sat.cuts
    return out


def confirm(inputs: Mapping[str, Any], params: Mapping[str, Any],
            progress: Progress = no_progress) -> dict[str, Any]:
    boards = inputs["bank"]["boards"]
    rows = []
    for k, e in enumerate(boards):
        progress(k, len(boards), f"confirm {e['id']}")
        row = confirm_board(Board.from_json(e["board"]), Answer.from_json(e["answer"]),
                            params["brute_max_cells"])
        bad = [m for m in params["methods"] if row[m] is False]
        if bad:
            raise ConfirmError(f"{e['id']}: not confirmed by {', '.join(bad)}")
        rows.append({"id": e["id"], "size": e["size"], **row})
    sizes = sorted({r["size"] for r in rows}, key=lambda s: int(s.split("x")[0]))
    by_size = {s: {"boards": sum(1 for r in rows if r["size"] == s),
                   **{m: sum(1 for r in rows if r["size"] == s and r[m])
                      for m in params["methods"]},
                   "sat_cuts": sum(r["sat_cuts"] for r in rows if r["size"] == s)}
               for s in sizes}
    independent = sum(1 for r in rows if any(r[m] for m in params["methods"]))
    return {"boards": rows, "total": len(rows),
            "by_method": {m: sum(1 for r in rows if r[m]) for m in params["methods"]},
            "by_size": by_size, "independent": independent,
            "all": independent == len(rows)}
