"""Sukoro (数コロ): numbers that count their numbered neighbours.

An answer is a set of numbered cells; each number is its cell's count of numbered
orthogonal neighbours, equal numbers never touch, and the numbers form one group.
"""

from __future__ import annotations

from pathlib import Path

from solvers.common import Puzzle, Stage, lazy

from .board import PID, RULES, Answer, Board, answer_rows, decode, encode, render_board, violations
from .brute import brute
from .ladder import RUNGS, solve
from .partial import irreparable
from .presentation import PLAY, RUNG_NAMES, draw_board
from .stages import (
    BANK_PARAMS,
    CONFIRM_PARAMS,
    LEDGER_PARAMS,
    STATS_PARAMS,
    TIMING_PARAMS,
    bank_chunks,
    bank_map,
    bank_reduce,
    stats_chunks,
    stats_map,
    stats_reduce,
)


# the independent confirmation `build-site verify` runs
def _confirm_sat(board: Board, answer: Answer) -> bool:
    from .sat import confirm  # the SAT solver loads only when verify asks for it

    return confirm(board, answer)


PUZZLE = Puzzle(
    slug="sukoro",
    names={"en": "Sukoro", "ja": "数コロ"},
    pid=PID,
    package_dir=Path(__file__).parent,
    rungs=RUNGS,
    rung_names=RUNG_NAMES,
    rules=RULES,
    board_from_json=Board.from_json,
    answer_from_json=Answer.from_json,
    decode=decode,
    encode=encode,
    violations=violations,
    solve=solve,
    brute=brute,
    answer_rows=answer_rows,
    render_board=render_board,
    draw_board=draw_board,
    play=PLAY,
    generate=lazy("solvers.sukoro.generate:generate"),
    trace=lazy("solvers.sukoro.hints:trace"),
    irreparable=irreparable,
    stages=(
        Stage("bank", None, BANK_PARAMS, chunks=bank_chunks, map=bank_map,
              reduce=bank_reduce),
        # these import numpy or the SAT solver, so they load only when they run
        Stage("confirm", "solvers.sukoro.confirm:confirm", CONFIRM_PARAMS, deps=("bank",)),
        Stage("stats", None, STATS_PARAMS, deps=("bank",), chunks=stats_chunks, map=stats_map,
              reduce=stats_reduce),
        Stage("ledger", None, LEDGER_PARAMS, chunks="solvers.sukoro.exact:ledger_chunks",
              map="solvers.sukoro.exact:ledger_map", reduce="solvers.sukoro.exact:ledger_reduce"),
        Stage("timing", "solvers.sukoro.timing:timing", TIMING_PARAMS, deps=("bank",)),
    ),
    confirm={"sat": _confirm_sat},
    ungraded=True,
)

__all__ = ["PUZZLE", "RULES", "RUNGS", "Answer", "Board", "brute", "decode", "encode",
           "solve", "violations"]
