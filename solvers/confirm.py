"""The confirm stage, said once for every puzzle that has one: every banked board
re-proved unique by engines that share no code with the ladder (the second engine where
the board is small enough, the puzzle's independent SAT encoding on every board). A board
any method cannot confirm stops the build."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from solvers.common import Progress
from solvers.grid import size_key


class ConfirmError(AssertionError):
    """An independent engine does not find the banked answer alone: the build must stop."""


def confirm_bank(inputs: Mapping[str, Any], params: Mapping[str, Any], progress: Progress,
                 confirm_board: Callable[[dict[str, Any], dict[str, Any], int],
                                         dict[str, Any]]) -> dict[str, Any]:
    """Per board, ``confirm_board(board JSON, answer JSON, brute_max_cells)`` (per method:
    True, False, or None where it did not run); then the counts per method and size."""
    boards = inputs["bank"]["boards"]
    methods = params["methods"]
    rows = []
    for k, e in enumerate(boards):
        progress(k, len(boards), f"confirm {e['id']}")
        row = confirm_board(e["board"], e["answer"], params["brute_max_cells"])
        bad = [m for m in methods if row[m] is False]
        if bad:
            raise ConfirmError(f"{e['id']}: not confirmed by {', '.join(bad)}")
        rows.append({"id": e["id"], "size": e["size"], **row})
    sizes = sorted({r["size"] for r in rows}, key=size_key)
    by_size = {s: {"boards": sum(1 for r in rows if r["size"] == s),
                   **{m: sum(1 for r in rows if r["size"] == s and r[m]) for m in methods},
                   "sat_cuts": sum(r["sat_cuts"] for r in rows if r["size"] == s)}
               for s in sizes}
    independent = sum(1 for r in rows if any(r[m] for m in methods))
    return {"boards": rows, "total": len(rows),
            "by_method": {m: sum(1 for r in rows if r[m]) for m in methods},
            "by_size": by_size, "independent": independent, "all": independent == len(rows)}


def confirm_one(board: Any, answer: Any, brute_max_cells: int, brute: Callable[..., Any],
                solve_sat: Callable[..., Any], key: Callable[[Any], Any]) -> dict[str, Any]:
    """One board, per method: True (the banked answer and no other), False, or None where
    the method did not run; ``key`` turns an answer into what ``solve_sat`` returns."""
    out: dict[str, Any] = {"brute": None}
    if board.h * board.w <= brute_max_cells:
        res = brute(board, limit=2)
        out["brute"] = len(res.solutions) == 1 and key(res.solutions[0]) == key(answer)
    sat = solve_sat(board, limit=2)
    out["sat"] = len(sat.answers) == 1 and sat.answers[0] == key(answer)
    out["sat_calls"] = sat.calls
    out["sat_cuts"] = sat.cuts
    return out
