"""Engine 2: a reading-order scanner that only ever chooses whether a cell holds a number.

It shares no code with the ladder. Values are never chosen: a numbered cell's value is
read off the grid as its count of numbered neighbours once all four neighbours are
decided, and checked then (against its clue, against zero, against equal neighbours).
Connectivity is checked on the finished grid.
"""

from __future__ import annotations

from solvers.common import SolveResult

from .board import Answer, Board


def brute(board: Board, limit: int | None = 2, *, neq: bool = True,
          connect: bool = True) -> SolveResult:
    """Up to ``limit`` answers of ``board`` (``None``: all of them)."""
    h, w = board.h, board.w
    n = h * w
    clue = board.flat()
    on = [0] * n           # 1 when the cell holds a number
    cnt = [0] * n          # final counts, filled when a cell's neighbourhood is decided
    sols: list[Answer] = []
    nodes = 0

    def count(i: int) -> int:
        r, c = divmod(i, w)
        k = 0
        if r > 0:
            k += on[i - w]
        if r + 1 < h:
            k += on[i + w]
        if c > 0:
            k += on[i - 1]
        if c + 1 < w:
            k += on[i + 1]
        return k

    def settle(i: int) -> bool:
        """Cell i's neighbourhood is now decided: check it."""
        if not on[i]:
            return True
        k = count(i)
        cnt[i] = k
        if k == 0:
            return False
        cv = clue[i]
        if isinstance(cv, int) and cv != k:
            return False
        if neq:
            r, c = divmod(i, w)
            # neighbours settled before i: the one above and the one to the left
            if r > 0 and on[i - w] and cnt[i - w] == k:
                return False
            if c > 0 and on[i - 1] and cnt[i - 1] == k:
                return False
        return True

    def partial_ok(i: int) -> bool:
        """Clued cells above and to the left may not already exceed their clue."""
        for j in (i - w, i - 1):
            if j >= 0 and (j != i - 1 or i % w) and on[j] and isinstance(clue[j], int):
                r, c = divmod(j, w)
                k = on[j - w] if r > 0 else 0
                k += on[j - 1] if c > 0 else 0
                k += on[j + 1] if c + 1 < w and j + 1 <= i else 0
                k += on[j + w] if j + w <= i else 0
                if k > clue[j]:  # type: ignore[operator]  # an int: the isinstance above
                    return False
        return True

    def connected() -> bool:
        cells = [i for i in range(n) if on[i]]
        if not cells:
            return False
        if not connect:
            return True
        seen = {cells[0]}
        todo = [cells[0]]
        while todo:
            i = todo.pop()
            r, c = divmod(i, w)
            for j, ok in ((i - w, r > 0), (i + w, r + 1 < h), (i - 1, c > 0),
                          (i + 1, c + 1 < w)):
                if ok and on[j] and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return len(seen) == len(cells)

    def finish() -> None:
        # the last row is settled once the grid is full
        for i in range(max(0, n - w), n):
            if not settle(i):
                return
        if h == 1:
            pass
        if connected():
            sols.append(Answer.from_flat(h, w, [cnt[i] if on[i] else 0 for i in range(n)]))

    def step(i: int) -> None:
        nonlocal nodes
        if i == n:
            finish()
            return
        choices = (1,) if clue[i] is not None else (0, 1)
        for bit in choices:
            nodes += 1
            on[i] = bit
            if bit and not partial_ok(i):
                continue
            if i - w >= 0 and not settle(i - w):
                continue
            step(i + 1)
            if limit is not None and len(sols) >= limit:
                break
        on[i] = 0

    step(0)
    return SolveResult(sols, nodes=nodes, rung="search" if sols else None)
