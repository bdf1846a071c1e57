"""Engine 2: the region product. Shares no code with the ladder.

A region's label is its count of numbered cells, so choosing a non-empty subset of a
region's cells chooses its label too. The whole answer space is the product, over the
regions, of their non-empty subsets. Walk it region by region (ids in reading order of
first appearance). With ``prune`` (the default) a partial product is cut only by the
rules read literally on what is already chosen: a region's own printed clues, a 2×2 block
whose cells are all chosen numbers, two chosen regions touching with equal counts, and
chosen numbers that can no longer meet through cells of regions not chosen yet. Every
leaf is scored by ``violations()``.
"""

from __future__ import annotations

from itertools import combinations

from solvers.common import SolveResult, node
from solvers.grid import neighbours

from .board import Answer, Board
from .rules import violations


class BruteCapped(Exception):
    """The product walk passed its node cap."""


def brute(board: Board, limit: int | None = 2, cap: int | None = None,
          prune: bool = True) -> SolveResult:
    """Answers of ``board`` by walking the product of the regions' subsets (up to
    ``limit``); ``stats["capped"]`` is True when ``cap`` nodes did not suffice."""
    h, w = board.h, board.w
    n = h * w
    bit = [1 << i for i in range(n)]
    near = [0] * n
    for i, nb in enumerate(neighbours(h, w)):
        for j in nb:
            near[i] |= bit[j]
    blocks_at: list[list[int]] = [[] for _ in range(n)]
    for r in range(h - 1):
        for c in range(w - 1):
            m = (bit[r * w + c] | bit[r * w + c + 1] | bit[(r + 1) * w + c]
                 | bit[(r + 1) * w + c + 1])
            for i in (r * w + c, r * w + c + 1, (r + 1) * w + c, (r + 1) * w + c + 1):
                blocks_at[i].append(m)
    left_ok = sum(bit[i] for i in range(n) if i % w)           # may receive from the left
    right_ok = sum(bit[i] for i in range(n) if i % w != w - 1)
    cells_of: dict[int, list[int]] = {}
    for r in range(h):
        for c in range(w):
            cells_of.setdefault(board.regions[r][c], []).append(r * w + c)
    order = sorted(cells_of)
    touching: dict[int, set[int]] = {k: set() for k in order}
    for k, cells in cells_of.items():
        for i in cells:
            for j in range(n):
                if near[i] >> j & 1 and board.regions[j // w][j % w] != k:
                    touching[k].add(board.regions[j // w][j % w])

    def printed(k: int, sub: tuple[int, ...]) -> bool:
        """The region's own clues, read literally, allow this subset."""
        for i in cells_of[k]:
            v = board.clues[i // w][i % w]
            if v is not None and (i not in sub or (v != "?" and v != len(sub))):
                return False
        lab = board.labels[k] if board.labels else None
        return lab is None or lab == len(sub)

    # per region: (mask, size, cells beside it, the 2×2 blocks it touches)
    options: list[list[tuple[int, int, int, list[int]]]] = []
    for k in order:
        cells = cells_of[k]
        opts = []
        for size in range(1, len(cells) + 1):
            for sub in combinations(cells, size):
                if prune and not printed(k, sub):
                    continue
                m = 0
                side = 0
                blocks: set[int] = set()
                for i in sub:
                    m |= bit[i]
                    side |= near[i]
                    blocks.update(blocks_at[i])
                opts.append((m, size, side & ~m, sorted(blocks)))
        options.append(opts)
    region_mask = {k: sum(bit[i] for i in cells) for k, cells in cells_of.items()}
    chosen: dict[int, tuple[int, int]] = {}          # region -> (mask, size)
    state = {"on": 0, "open": (1 << n) - 1}
    found: list[Answer] = []
    nodes = 0

    def joined(on: int, free: int) -> bool:
        """The chosen numbers can still meet through numbers and unchosen cells."""
        if not on:
            return True
        allowed = on | free
        grown = on & -on
        while True:
            step = (grown | ((grown << 1) & left_ok) | ((grown >> 1) & right_ok)
                    | (grown << w) | (grown >> w)) & allowed
            if step == grown:
                return on & ~grown == 0
            grown = step

    def walk(i: int) -> bool:
        nonlocal nodes
        nodes += 1
        node()
        if cap is not None and nodes > cap:
            raise BruteCapped
        if i == len(order):
            on = state["on"]
            ans = Answer.from_flat(h, w, [on >> j & 1 for j in range(n)])
            if not violations(board, ans):
                found.append(ans)
                return limit is not None and len(found) >= limit
            return False
        k = order[i]
        on0, free0 = state["on"], state["open"]
        free = free0 & ~region_mask[k]
        for m, size, side, blocks in options[i]:
            if prune:
                on = on0 | m
                if any(on & b == b for b in blocks):
                    continue
                if any(j in chosen and chosen[j][1] == size and side & chosen[j][0]
                       for j in touching[k]):
                    continue
                if not joined(on, free):
                    continue
            chosen[k] = (m, size)
            state["on"], state["open"] = on0 | m, free
            if walk(i + 1):
                return True
            del chosen[k]
        state["on"], state["open"] = on0, free0
        return False

    capped = False
    try:
        walk(0)
    except BruteCapped:
        capped = True
    found.sort(key=lambda a: a.rows())
    return SolveResult(found, nodes=nodes, rung=None if capped else "brute",
                       stats={"capped": capped})
