"""Sashigane (さしがね): divide the board into width-1 L pieces.

Seed rules: every piece holds one circle, on its corner, and one arrow, on one of its
two ends, pointing along its arm to the corner; a number in a circle is the piece's size.
Standard (puzz.link) rules allow clueless pieces and an arrow on each end.
"""

from __future__ import annotations

from pathlib import Path

from solvers.common import PlaySpec, Puzzle, Stage, lazy

from .board import Answer, Board
from .codec import decode, encode
from .draw import answer_rows, draw_board, render_board
from .ladder import RUNGS, size_budget, solve
from .params import BANK_PARAMS, LEDGER_PARAMS, STATS_PARAMS, SURVEY_BEYOND_PARAMS
from .partial import irreparable
from .play import PLAY
from .rules import RULES, violations
from .scanner import brute

RUNG_NAMES = {
    "en": {"fit": "fit", "cover": "cover", "area": "area", "probe": "probe",
           "search": "search", "circles": "touching circles", "arrow": "arrow",
           "reach": "reach", "common": "common cells", "number": "number"},
    "ja": {"fit": "当てはめ", "cover": "被覆", "area": "面積", "probe": "仮置き",
           "search": "探索", "circles": "隣り合う丸", "arrow": "矢印", "reach": "届く丸",
           "common": "共通マス", "number": "数字"},
}

PUZZLE = Puzzle(
    slug="sashigane",
    names={"en": "Sashigane", "ja": "さしがね"},
    pid="sashigane",
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
    generate=lazy("solvers.sashigane.generate:generate"),
    trace=lazy("solvers.sashigane.hints:trace"),
    stages=(
        Stage("bank", None, BANK_PARAMS, chunks="solvers.sashigane.stages:bank_chunks",
              map="solvers.sashigane.stages:bank_map",
              reduce="solvers.sashigane.stages:bank_reduce"),
        Stage("stats", None, STATS_PARAMS, deps=("bank",),
              chunks="solvers.sashigane.stages:stats_chunks",
              map="solvers.sashigane.stages:stats_map",
              reduce="solvers.sashigane.stages:stats_reduce"),
        Stage("ledger", None, LEDGER_PARAMS, chunks="solvers.sashigane.ledger:ledger_chunks",
              map="solvers.sashigane.ledger:ledger_map",
              reduce="solvers.sashigane.ledger:ledger_reduce"),
        Stage("timing", "solvers.sashigane.timing:timing", {"repeats": 3}, deps=("bank",)),
    ),
    brute_max_cells=144,
    irreparable=irreparable,
    on_request=(
        Stage("survey_beyond", None, SURVEY_BEYOND_PARAMS,
              chunks="solvers.sashigane.stages:survey_beyond_chunks",
              map="solvers.sashigane.stages:survey_beyond_map",
              reduce="solvers.sashigane.stages:survey_beyond_reduce"),
    ),
)

__all__ = ["PUZZLE", "RULES", "RUNGS", "Answer", "Board", "PlaySpec", "brute", "decode",
           "encode", "size_budget", "solve", "violations"]
