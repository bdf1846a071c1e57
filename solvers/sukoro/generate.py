"""The generator and the hint trace.

Draw a random answer, print every number (unique by the full-print lemma: a rival answer
must contain all printed cells, and any extra cell next to them would raise a printed
count, so by connectivity there is none), then remove numbers one at a time in random
order while the board keeps exactly one answer.
"""

from __future__ import annotations

import random
from typing import Any

from . import hints
from .board import Answer, Board, encode
from .ladder import (
    BLANK,
    LEVEL,
    NUMS,
    RUNGS,
    decided,
    initial,
    neighbours,
    propagate,
    random_answer,
    solve,
)


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


_WHY = {
    "deg": (("Counting: each number needs exactly that many numbered neighbours, so these "
            "cells are forced."),
            "数を数える: 数字は隣の数字マスの個数そのものなので、これらのマスが決まります。"),
    "neq": (("Neighbours differ: a known number rules its own value out next door, which "
            "settles these cells."),
            "隣は別の数: 確定した数字は隣に同じ値を許さないので、これらのマスが決まります。"),
    "conn": (("One group: cells that cannot join the numbers are blank, and cells that hold "
             "the group together must be numbers."),
             "ひとつながり: 数字の塊に届かないマスは空き、塊をつなぐ唯一の通り道は数字です。"),
    "probe": ("Try and see: every other choice for these cells leads to a contradiction.",
              "仮定してみる: これらのマスは、ほかの選択をすると必ず矛盾します。"),
    "search": ("Only search is left here: the remaining cells follow from the unique answer.",
               "ここから先は探索のみ: 残りのマスは唯一の答えから決まります。"),
}


def trace(board: Board, answer: Answer) -> list[dict[str, Any]]:
    """The ladder's deduction from the untouched board, one step per rung application."""
    h, w = board.h, board.w
    nb = neighbours(h, w)
    dom = initial(board)
    flat = answer.flat()
    steps: list[dict[str, Any]] = []
    known = decided(dom)
    while not all(known):
        for k in range(LEVEL["probe"] + 1):
            trial = dom[:]
            if not propagate(trial, nb, k):
                raise ValueError("the board contradicts itself")
            now = decided(trial)
            new = [i for i in range(h * w) if now[i] and not known[i]]
            if new:
                dom, known = trial, now
                steps.append(_step(RUNGS[k], new, dom, w))
                break
        else:
            rest = [i for i in range(h * w) if not known[i]]
            for i in rest:
                dom[i] = (1 << flat[i]) if flat[i] else BLANK
            known = [True] * (h * w)
            steps.append(_step("search", rest, dom, w))
    return steps


def _step(rung: str, cells: list[int], dom: list[int], w: int) -> dict[str, Any]:
    en, ja = _WHY[rung]
    return {"rung": rung, "cells": [[i // w, i % w] for i in cells],
            "states": ["number" if not dom[i] & BLANK and dom[i] & NUMS else "blank"
                       for i in cells],
            "en": en, "ja": ja}


def bank_entry(board: Board, answer: Answer, ident: str) -> dict[str, Any]:
    res = solve(board, limit=2)
    return {"id": ident, "size": f"{board.h}x{board.w}", "h": board.h, "w": board.w,
            "grade": res.rung, "clues": board.clue_count(), "url": encode(board),
            "board": board.to_json(), "answer": answer.to_json(),
            "trace": hints.trace(board, answer)}
