"""The check that tells wrong from unfinished: what no filling of the undecided cells can
repair. Play states (PlaySpec.input): 0 undecided, 1 flooded, 2 dry; clue cells fixed dry.

* every rule of ``violations()`` when no cell is undecided (the same ids, cells, params);
* otherwise only what is already settled: a numbered cell flooded, a closed 2x2, a
  number that already sees more than it says (``canal.over``: the number and the cells it
  sees), a number that can no longer see enough (``canal.short``: the number and the dry
  marks that end its views), and flooded cells that dry cells and the edge have walled
  apart (``canal.walled``: the flooded cells outside the largest part).

``templates/static/play/canal-view.js`` exports the same check as ``irreparable``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.common import Violation
from solvers.grid import connect_violations, neighbours

from .board import DIRS, Answer, Board
from .rules import RULES, violations

UNDECIDED, FLOODED, DRY = 0, 1, 2


def irreparable(board: Board, states: Sequence[int]) -> list[Violation]:
    h, w = board.h, board.w
    clue = [[board.clues[r][c] is not None for c in range(w)] for r in range(h)]
    # clue cells are fixed dry (the page forces them; so does this, for any caller)
    st = [DRY if s == UNDECIDED and clue[i // w][i % w] else s for i, s in enumerate(states)]
    if all(st[r * w + c] != UNDECIDED for r in range(h) for c in range(w) if not clue[r][c]):
        mask = sum(1 << i for i, s in enumerate(st) if s == FLOODED)
        return violations(board, Answer(h, w, mask))
    out: list[Violation] = []
    for r, c in board.clue_cells():
        if st[r * w + c] == FLOODED:
            out.append(RULES.make("canal.numbered", [(r, c)], row=r + 1, col=c + 1))
    for r in range(h - 1):
        for c in range(w - 1):
            cells = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            if all(st[y * w + x] == FLOODED for y, x in cells):
                out.append(RULES.make("canal.2x2", cells, row=r + 1, col=c + 1,
                                      row2=r + 2, col2=c + 2))
    for r, c in board.clue_cells():
        v = board.clues[r][c]  # type: int  # type: ignore[assignment]  # "?" is skipped just below
        if v == "?":
            continue
        lo = hi = 0
        seen: list[tuple[int, int]] = []
        ends: list[tuple[int, int]] = []
        for dr, dc in DIRS:
            y, x = r + dr, c + dc
            while 0 <= y < h and 0 <= x < w and st[y * w + x] == FLOODED:
                seen.append((y, x))
                lo += 1
                hi += 1
                y, x = y + dr, x + dc
            while 0 <= y < h and 0 <= x < w and st[y * w + x] != DRY:
                hi += 1
                y, x = y + dr, x + dc
            if 0 <= y < h and 0 <= x < w and not clue[y][x]:
                ends.append((y, x))
        if lo > v:
            out.append(RULES.make("canal.over", [(r, c), *seen], row=r + 1, col=c + 1,
                                  clue=v, seen=lo))
        elif hi < v:
            out.append(RULES.make("canal.short", [(r, c), *ends], row=r + 1, col=c + 1,
                                  clue=v, most=hi))
    # parts of the not-dry cells, in order of their first cell; those holding flooded cells
    nbrs = neighbours(h, w)
    part = [-1] * (h * w)
    wet: list[list[tuple[int, int]]] = []
    for s in range(h * w):
        if st[s] == DRY or part[s] >= 0:
            continue
        part[s] = s
        stack = [s]
        fl = []
        while stack:
            i = stack.pop()
            if st[i] == FLOODED:
                fl.append(divmod(i, w))
            for j in nbrs[i]:
                if part[j] < 0 and st[j] != DRY:
                    part[j] = s
                    stack.append(j)
        if fl:
            wet.append(sorted(fl))
    out += connect_violations(RULES, "canal.walled", wet)
    return RULES.sort(out)
