"""The hint trace and the bank entry of a board.

A trace step is one rung application from the untouched board (the lowest rung that
fixes new cells), listing the cells whose owner it fixed and, for each, the cell of the
owning circle; and, for the play page's edges model, the lines between two cells whose
owners are now both known (``edges`` as [r, c, "r" | "b"], ``states`` "line" where the
pieces differ, "none" inside a piece). When only search can go on, the last step fixes
the rest from the answer.
"""

from __future__ import annotations

from typing import Any

from .board import CIRCLE, Answer, Board
from .codec import encode
from .fit import fit
from .ladder import LEVEL, RUNGS, Problem, grade, owners, propagate

_WHY = {
    "fit": (("Fit: these cells lie only in Ls that one circle can own, with its arrow and "
            "number."),
            "当てはめ: これらのマスは、矢印と数字に合う L 字を持てる丸が 1 つしかありません。"),
    "cover": (("Cover: every cell belongs to exactly one piece, so a cell only one circle "
              "reaches goes to it, and a cell all of one circle's shapes use is closed to "
              "the others."),
              ("被覆: どのマスもちょうど 1 つのピースに属します。1 つの丸しか届かないマスは"
              "その丸のもの、ある丸のどの形も使うマスは他の丸には渡りません。")),
    "area": (("Area: the piece sizes must add up to the whole board, which rules out shapes "
             "that are too small or too large."),
             ("面積: ピースの大きさの合計は盤全体と等しいので、小さすぎる形と大きすぎる形が"
             "消えます。")),
    "probe": ("Try and see: every other shape for these cells leads to a contradiction.",
              "仮定してみる: これらのマスは、ほかの形を選ぶと必ず矛盾します。"),
    "search": ("Only search is left here: the remaining cells follow from the unique answer.",
               "ここから先は探索のみ: 残りのマスは唯一の答えから決まります。"),
}


def trace(board: Board, answer: Answer) -> list[dict[str, Any]]:
    p = Problem.of(fit(board))
    w = board.w
    alive: list[int] = list(range(len(p.cand.masks)))
    known: dict[int, int] = {}
    steps: list[dict[str, Any]] = []
    n = board.h * w
    h = board.h
    seen: set[int] = set()
    while len(known) < n:
        for k in range(LEVEL["probe"] + 1):
            nxt = propagate(p, alive, k)
            if nxt is None:
                raise ValueError("the board contradicts itself")
            now = owners(p, nxt)
            new = sorted(c for c in now if c not in known)
            if new:
                alive = nxt
                by_owner: dict[int, list[int]] = {}
                for c in new:
                    by_owner.setdefault(now[c], []).append(c)
                for owner in sorted(by_owner):   # one step per piece, small hints
                    cells = by_owner[owner]
                    known.update((c, owner) for c in cells)
                    steps.append(_step(RUNGS[k], cells, now, w))
                    _edges(steps[-1], answer, seen, set(known), h, w)
                break
        else:
            circle_of = {}
            for cells in answer.groups():
                circ = [i for i in cells if board.cells[i].kind == CIRCLE]
                for i in cells:
                    circle_of[i] = circ[0] if circ else -1
            rest = [i for i in range(n) if i not in known]
            by_piece: dict[int, list[int]] = {}
            for i in rest:
                by_piece.setdefault(answer.pieces[i], []).append(i)
            for piece in sorted(by_piece, key=lambda q: by_piece[q][0]):
                cells = by_piece[piece]
                known.update((c, circle_of[c]) for c in cells)
                steps.append(_step("search", cells, circle_of, w))
                _edges(steps[-1], answer, seen, set(known), h, w)
            break
    return steps


def _step(rung: str, cells: list[int], owner: dict[int, int], w: int) -> dict[str, Any]:
    en, ja = _WHY[rung]
    return {"rung": rung, "cells": [list(divmod(i, w)) for i in cells],
            "owners": [list(divmod(owner[i], w)) if owner[i] >= 0 else None for i in cells],
            "en": en, "ja": ja}


def _edges(step: dict[str, Any], answer: Answer, seen: set[int], known: set[int],
           h: int, w: int) -> None:
    """Add to ``step`` the lines between known cells not listed by an earlier step."""
    edges, states = [], []
    p = answer.pieces
    for i in sorted(known):
        r, c = divmod(i, w)
        for j, side, ok in ((i + 1, "r", c + 1 < w), (i + w, "b", r + 1 < h)):
            key = i * 2 + (side == "b")
            if ok and j in known and key not in seen:
                seen.add(key)
                edges.append([r, c, side])
                states.append("line" if p[i] != p[j] else "none")
    step["edges"] = edges
    step["states"] = states


def bank_entry(board: Board, answer: Answer, ident: str) -> dict[str, Any]:
    pieces = len(answer.groups())
    return {"id": ident, "size": f"{board.h}x{board.w}", "h": board.h, "w": board.w,
            "grade": grade(board), "pieces": pieces, "numbers": board.numbers(),
            "clues": sum(1 for k in board.cells if k.kind),
            "url": encode(board), "board": board.to_json(), "answer": answer.to_json(),
            "trace": trace(board, answer)}


__all__ = ["RUNGS", "bank_entry", "trace"]
