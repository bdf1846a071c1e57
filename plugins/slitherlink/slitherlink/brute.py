"""Engine 2: shares no code with the ladder.

A single loop is the outline of one region of cells, and the region determines it: the
cells inside form one orthogonally joined group, the cells outside (with everything
beyond the board) another, and no 2×2 block is a checkerboard (the outline would touch
itself at a corner). So this engine colours the cells in reading order, inside or
outside, and checks each clue (how many of its four neighbours, the world beyond the
board counting outside, differ from it) as soon as its last neighbour is coloured, and
each 2×2 block when its last cell is; a full colouring whose two sides are each joined
is an answer, its lines the sides between cells of different colours.
"""

from __future__ import annotations

from solvers.common import SolveResult, node

from .board import Answer, Board


def brute(board: Board, limit: int = 2) -> SolveResult:
    h, w = board.h, board.w
    n = h * w
    clue = [v if isinstance(v, int) else -1 for v in board.flat()]

    def nbrs(i: int) -> list[int]:
        r, c = divmod(i, w)
        return [rr * w + cc if 0 <= rr < h and 0 <= cc < w else -1
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))]

    nb = [nbrs(i) for i in range(n)]
    checks: list[list[int]] = [[] for _ in range(n)]
    for j in range(n):
        if clue[j] >= 0:
            last = max([j] + [k for k in nb[j] if k >= 0])
            checks[last].append(j)
    colour = [0] * n
    found: list[list[int]] = []
    nodes = [0]

    def clue_ok(j: int) -> bool:
        me = colour[j]
        diff = sum(1 for k in nb[j] if (colour[k] if k >= 0 else 0) != me)
        return diff == clue[j]

    def block_ok(i: int) -> bool:
        r, c = divmod(i, w)
        if r == 0 or c == 0:
            return True
        a, b, x, d = colour[i - w - 1], colour[i - w], colour[i - 1], colour[i]
        return not (a == d and b == x and a != b)

    def joined(side: int) -> bool:
        cells = [i for i in range(n) if colour[i] == side]
        if side == 1 and not cells:
            return False
        seen = set()
        if side == 1:
            stack = [cells[0]]
        else:   # outside: grown from the world beyond the board
            stack = [i for i in cells if -1 in nb[i]]
        seen.update(stack)
        while stack:
            i = stack.pop()
            for k in nb[i]:
                if k >= 0 and colour[k] == side and k not in seen:
                    seen.add(k)
                    stack.append(k)
        return len(seen) == len(cells)

    def go(i: int) -> bool:
        node()
        nodes[0] += 1
        if i == n:
            if joined(1) and joined(0):
                found.append(list(colour))
                return len(found) >= limit
            return False
        for v in (0, 1):
            colour[i] = v
            if block_ok(i) and all(clue_ok(j) for j in checks[i]) and go(i + 1):
                return True
        colour[i] = 0
        return False

    import sys
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, n + 100))
    try:
        go(0)
    finally:
        sys.setrecursionlimit(old)
    return SolveResult([_lines(h, w, col) for col in found], nodes=nodes[0])


def _lines(h: int, w: int, col: list[int]) -> Answer:
    """The answer whose lines are the sides between different colours."""
    def at(r: int, c: int) -> int:
        return col[r * w + c] if 0 <= r < h and 0 <= c < w else 0
    vert = ["".join("1" if at(r, x - 1) != at(r, x) else "0" for x in range(w + 1))
            for r in range(h)]
    horiz = ["".join("1" if at(y - 1, c) != at(y, c) else "0" for c in range(w))
             for y in range(h + 1)]
    return Answer.from_json({"vert": vert, "horiz": horiz})
