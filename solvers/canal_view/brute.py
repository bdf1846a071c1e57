"""The second engine: plain backtracking over cells in reading order.

Each cell is tried flooded, then dry. The only pruning: a 2x2 block that has just closed
fully flooded, and a number whose count can no longer land (counting undecided cells as
dry gives the least it can still see, as flooded the most). Finished grids are checked
with ``violations``. Shares no code with the ladder.
"""

from __future__ import annotations

from solvers.common import SolveResult

from .board import STANDARD, Answer, Board, Rules
from .rules import violations


def brute(board: Board, limit: int = 2, rules: Rules = STANDARD,
          node_cap: int | None = None) -> SolveResult:
    h, w = board.h, board.w
    n = h * w
    grid = [-1] * n      # -1 undecided, 1 flooded, 0 dry
    numbered = []
    for r in range(h):
        for c in range(w):
            v = board.clues[r][c]
            if v is not None:
                grid[r * w + c] = 0
            if isinstance(v, int):
                numbered.append((r, c, v))
    # which numbers watch each cell (its row or column)
    watch: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    for r, c, v in numbered:
        for i in range(n):
            rr, cc = divmod(i, w)
            if (rr == r) != (cc == c):
                watch[i].append((r, c, v))

    def bounds(r: int, c: int) -> tuple[int, int]:
        lo = hi = 0
        if rules.whole_line:
            for rr in range(h):
                for cc in range(w):
                    if (rr == r) != (cc == c):
                        x = grid[rr * w + cc]
                        lo += x == 1
                        hi += x != 0
            return lo, hi
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            still_lo = True
            while 0 <= rr < h and 0 <= cc < w:
                x = grid[rr * w + cc]
                if x == 0:
                    break
                if x == 1 and still_lo:
                    lo += 1
                else:
                    still_lo = False
                hi += 1
                rr += dr
                cc += dc
        return lo, hi

    sols: list[int] = []
    nodes = 0
    capped = False

    def go(i: int) -> None:
        nonlocal nodes, capped
        if len(sols) >= limit or capped:
            return
        while i < n and grid[i] != -1:
            i += 1
        if i == n:
            mask = sum(1 << j for j in range(n) if grid[j] == 1)
            if not violations(board, Answer(h, w, mask), rules):
                sols.append(mask)
            return
        r, c = divmod(i, w)
        for x in (1, 0):
            if node_cap is not None and nodes >= node_cap:
                capped = True
                return
            nodes += 1
            if x == 1 and rules.two_by_two and r > 0 and c > 0 and grid[i - 1] == 1 \
                    and grid[i - w] == 1 and grid[i - w - 1] == 1:
                continue
            grid[i] = x
            ok = True
            for rr, cc, v in watch[i]:
                lo, hi = bounds(rr, cc)
                if not lo <= v <= hi:
                    ok = False
                    break
            if ok:
                go(i + 1)
            grid[i] = -1
            if len(sols) >= limit or capped:
                return

    go(0)
    answers = [Answer(h, w, m) for m in sorted(sols)]
    return SolveResult(answers, nodes, None, [], {"capped": capped})
