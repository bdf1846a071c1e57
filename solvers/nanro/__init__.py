"""Nanro (ナンロー): numbers that count their own region.

The board is a partition into regions. An answer is the set S of numbered cells; every
number is its region's count of numbered cells, every region holds one, the numbers form
one group with no 2×2 of numbers, and equal numbers never touch across a region border.
"""

from __future__ import annotations

from pathlib import Path

from solvers.common import Puzzle, Stage, lazy

from .board import Answer, Board, answer_rows, render_board
from .brute import brute
from .codec import PID, decode, encode
from .ladder import RUNGS, solve
from .partial import irreparable
from .presentation import PLAY, RUNG_NAMES, draw_board
from .rules import RULES, violations
from .stages import (
    BANK_PARAMS,
    LEDGER_PARAMS,
    STATS_PARAMS,
    bank_chunks,
    bank_map,
    bank_reduce,
    stats_chunks,
    stats_map,
    stats_reduce,
)
from .timing import TIMING_PARAMS, timing

PUZZLE = Puzzle(
    slug="nanro",
    names={"en": "Nanro", "ja": "ナンロー"},
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
    generate=lazy("solvers.nanro.generate:generate"),
    trace=lazy("solvers.nanro.hints:trace"),
    stages=(
        Stage("bank", None, BANK_PARAMS, chunks=bank_chunks, map=bank_map,
              reduce=bank_reduce),
        Stage("stats", None, STATS_PARAMS, deps=("bank",), chunks=stats_chunks, map=stats_map,
              reduce=stats_reduce),
        Stage("ledger", "solvers.nanro.stages:ledger", LEDGER_PARAMS),
        Stage("timing", timing, TIMING_PARAMS, deps=("bank",)),
    ),
    brute_max_cells=36,
    irreparable=irreparable,
    ungraded=True,
)

__all__ = ["PUZZLE", "RULES", "RUNGS", "Answer", "Board", "brute", "decode", "encode",
           "solve", "violations"]
