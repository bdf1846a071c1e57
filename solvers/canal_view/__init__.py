"""Canal View (カナルビュー): flood cells into one 2x2-free canal; each number counts the
flooded cells it can see along its four rays."""

from __future__ import annotations

from pathlib import Path

from solvers.common import Puzzle, lazy

from .board import RULES, Answer, Board, answer_rows, render_board, violations
from .brute import brute
from .ladder import RUNGS, solve
from .partial import irreparable
from .presentation import PLAY, RUNG_NAMES, draw_board
from .puzzlink import PID, decode, encode
from .stages import STAGES


# the independent confirmation `build-site verify` runs
def _confirm_sat(board: Board, answer: Answer) -> bool:
    from .sat import confirm  # the SAT solver loads only when verify asks for it

    return confirm(board, answer)


PUZZLE = Puzzle(
    slug="canal-view",
    names={"en": "Canal View", "ja": "カナルビュー"},
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
    generate=lazy("solvers.canal_view.generate:generate"),
    trace=lazy("solvers.canal_view.hints:trace"),
    stages=STAGES,
    brute_max_cells=36,
    irreparable=irreparable,
    confirm={"sat": _confirm_sat},
)

__all__ = ["PUZZLE", "RULES", "RUNGS", "Answer", "Board", "brute", "decode", "encode",
           "solve", "violations"]
