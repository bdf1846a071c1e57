"""Engine 2: the region product. Shares no code with the ladder.

A region's label is its count of numbered cells, so choosing a non-empty subset of a
region's cells chooses its label too. The whole answer space is the product, over the
regions, of their non-empty subsets. Walk it region by region (ids in reading order of
first appearance); a partial product is cut only by the rules read literally on the
regions already chosen (a clue of a chosen region, a 2×2 block whose cells are all
chosen, two chosen regions touching with equal counts); every leaf is scored by
``violations()``.
"""

from __future__ import annotations

from itertools import combinations

from solvers.common import SolveResult

from .board import Answer, Board
from .rules import violations


class BruteCapped(Exception):
    """The product walk passed its node cap."""


def brute(board: Board, limit: int | None = 2, cap: int | None = None,
          prune: bool = True) -> SolveResult:
    """Answers of ``board`` by walking the product of the regions' subsets (up to
    ``limit``); ``stats["capped"]`` is True when ``cap`` nodes did not suffice."""
    h, w = board.h, board.w
    cells_of: dict[int, list[tuple[int, int]]] = {}
    for r in range(h):
        for c in range(w):
            cells_of.setdefault(board.regions[r][c], []).append((r, c))
    order = sorted(cells_of)
    options: list[list[frozenset[tuple[int, int]]]] = []
    for k in order:
        cells = cells_of[k]
        opts = []
        for size in range(1, len(cells) + 1):
            for sub in combinations(cells, size):
                opts.append(frozenset(sub))
        options.append(opts)
    chosen: dict[int, frozenset[tuple[int, int]]] = {}
    found: list[Answer] = []
    nodes = 0

    def fits(k: int, sub: frozenset[tuple[int, int]]) -> bool:
        for (r, c) in cells_of[k]:
            v = board.clues[r][c]
            if v is not None and ((r, c) not in sub or (v != "?" and v != len(sub))):
                return False
        lab = board.labels[k] if board.labels else None
        if lab is not None and lab != len(sub):
            return False
        on = set().union(*chosen.values()) | sub
        for (r, c) in sub:
            for x, y in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)):
                if not (0 <= x < h and 0 <= y < w):
                    continue
                j = board.regions[x][y]
                if j != k and j in chosen and (x, y) in chosen[j] and len(chosen[j]) == len(sub):
                    return False
            for r0 in (r - 1, r):
                for c0 in (c - 1, c):
                    block = ((r0, c0), (r0, c0 + 1), (r0 + 1, c0), (r0 + 1, c0 + 1))
                    if all(0 <= a < h and 0 <= b < w for a, b in block) and all(
                            x in on for x in block):
                        return False
        return True

    def walk(i: int) -> bool:
        nonlocal nodes
        nodes += 1
        if cap is not None and nodes > cap:
            raise BruteCapped
        if i == len(order):
            ans = Answer(h, w, frozenset().union(*chosen.values()))
            if not violations(board, ans):
                found.append(ans)
                return limit is not None and len(found) >= limit
            return False
        k = order[i]
        for sub in options[i]:
            if prune and not fits(k, sub):
                continue
            chosen[k] = sub
            if walk(i + 1):
                return True
            del chosen[k]
        return False

    capped = False
    try:
        walk(0)
    except BruteCapped:
        capped = True
    found.sort(key=lambda a: a.rows())
    return SolveResult(found, nodes=nodes, rung=None if capped else "brute",
                       stats={"capped": capped})
