"""The generator: ``generate(h, w, rng)`` -> (Board, Answer).

Draw a random answer, print every number (unique by the full-print lemma: a rival answer
must contain all printed cells, and any extra cell next to them would raise a printed
count, so by connectivity there is none), then remove numbers one at a time in random
order while the board keeps exactly one answer.
"""

from __future__ import annotations

import random

from .board import Answer, Board
from .ladder import random_answer, solve


def full_print(answer: Answer) -> Board:
    return Board.from_flat(answer.h, answer.w, [v if v else None for v in answer.flat()])


def unique(board: Board) -> bool:
    return len(solve(board, limit=2).solutions) == 1


def minimize(answer: Answer, rng: random.Random) -> Board:
    flat: list = [v if v else None for v in answer.flat()]
    order = [i for i, v in enumerate(flat) if v is not None]
    rng.shuffle(order)
    for i in order:
        keep = flat[i]
        flat[i] = None
        if not unique(Board.from_flat(answer.h, answer.w, flat)):
            flat[i] = keep
    return Board.from_flat(answer.h, answer.w, flat)


def generate(h: int, w: int, rng: random.Random) -> tuple[Board, Answer]:
    answer = random_answer(h, w, rng)
    return minimize(answer, rng), answer
