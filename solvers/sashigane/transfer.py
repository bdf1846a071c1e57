"""Counting L tilings row by row (a transfer matrix over column profiles).

Between two rows each column is in one of four states:

* ``F`` nothing crosses the line;
* ``A`` the cell above is the corner of an L whose other arm runs along its row; the
  vertical arm must go on (an arm has at least one cell beyond the corner);
* ``B`` the cell above ends such a vertical arm so far; the arm may go on or stop;
* ``C`` the cell above belongs to a vertical arm whose corner is still below; it must go
  on, either straight or by turning into the corner of a horizontal arm in this row.

A row is filled left to right; horizontal arms are runs of cells with the corner at one
end. The count is the number of ways from all-``F`` above the first row to only ``F``
or ``B`` below the last. Alongside each count it keeps the most pieces of any tiling.
"""

from __future__ import annotations

from functools import cache

F, A, B, C = 0, 1, 2, 3
# horizontal run in progress
NONE, LEFT0, LEFT1, RIGHT = 0, 1, 2, 3


@cache
def _moves(state: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Every (state below, pieces started, number of ways) reachable by filling one row."""
    w = len(state)
    out: list[tuple[tuple[int, ...], int]] = []
    below = [F] * w

    def free_cell(j: int, run: int, new: int) -> None:
        # the cell (row, j) is free: start a downward arm, a corner, or an arm cell
        if run == NONE:
            below[j] = C
            go(j + 1, NONE, new + 1)                 # top end of an arm turning below
            below[j] = A
            go(j + 1, LEFT0, new + 1)                # ┌ corner, arm to the right
            below[j] = F
            go(j + 1, RIGHT, new)                    # left end of an arm going right
        elif run in (LEFT0, LEFT1):
            below[j] = F
            go(j + 1, LEFT1, new)                    # arm cell
        elif run == RIGHT:
            below[j] = F
            go(j + 1, RIGHT, new)                    # arm cell
            below[j] = A
            go(j + 1, NONE, new + 1)                 # ┐ corner closes the arm
        below[j] = F

    def go(j: int, run: int, new: int) -> None:
        if run == LEFT1:
            cell(j, NONE, new)                       # the arm may end before column j
        if j == w:
            if run == NONE:
                out.append((tuple(below), new))
            return
        cell(j, run, new)

    def cell(j: int, run: int, new: int) -> None:
        if j == w:
            if run == NONE:
                out.append((tuple(below), new))
            return
        s = state[j]
        if s == A:
            if run == NONE:
                below[j] = B
                go(j + 1, NONE, new)
                below[j] = F
            return
        if s == C:
            if run == NONE:
                below[j] = C
                go(j + 1, NONE, new)                 # arm goes straight on
                below[j] = F
                go(j + 1, LEFT0, new)                # └ corner, arm to the right
            elif run == RIGHT:
                below[j] = F
                go(j + 1, NONE, new)                 # ┘ corner closes the arm
            return
        if s == B and run == NONE:
            below[j] = B
            go(j + 1, NONE, new)                     # vertical arm goes on
            below[j] = F
        free_cell(j, run, new)

    cell(0, NONE, 0)
    ways: dict[tuple[tuple[int, ...], int], int] = {}
    for key in out:
        ways[key] = ways.get(key, 0) + 1
    return tuple((b, n, k) for (b, n), k in sorted(ways.items()))


def count(h: int, w: int) -> tuple[int, int]:
    """(number of L tilings of an h×w board, most pieces in one of them); (0, -1) if none."""
    if w > h:
        h, w = w, h                     # fewer profiles along the shorter side
    layer: dict[tuple[int, ...], tuple[int, int]] = {tuple([F] * w): (1, 0)}
    for _ in range(h):
        nxt: dict[tuple[int, ...], tuple[int, int]] = {}
        for st, (n, most) in layer.items():
            for below, new, k in _moves(st):
                have = nxt.get(below)
                if have is None:
                    nxt[below] = (n * k, most + new)
                else:
                    nxt[below] = (have[0] + n * k, max(have[1], most + new))
        layer = nxt
    total, most = 0, -1
    for st, (n, m) in layer.items():
        if all(s in (F, B) for s in st):
            total += n
            most = max(most, m)
    return total, (most if total else -1)
