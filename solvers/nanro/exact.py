"""The ledger stage, exact counts: the legal answers of every empty region map of a small
grid (every partition of the cells into connected regions), by the ladder's search and by
the region product, which share no code."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.grid import neighbours

from .board import Board
from .brute import brute
from .ladder import solve


def _connected(cells: list[int], nbrs: tuple[tuple[int, ...], ...]) -> bool:
    todo = set(cells)
    stack = [cells[0]]
    todo.discard(cells[0])
    while stack:
        for j in nbrs[stack.pop()]:
            if j in todo:
                todo.discard(j)
                stack.append(j)
    return not todo


def partitions(h: int, w: int) -> Iterator[list[list[int]]]:
    """Every partition of the h×w cells into connected regions, as region-id grids
    (restricted growth strings in reading order)."""
    n = h * w
    nbrs = neighbours(h, w)
    label = [0] * n

    def rec(i: int, k: int) -> Iterator[list[int]]:
        if i == n:
            yield label[:]
            return
        for v in range(k + 1):
            label[i] = v
            yield from rec(i + 1, max(k, v + 1))

    for lab in rec(0, 0):
        groups: dict[int, list[int]] = {}
        for i, v in enumerate(lab):
            groups.setdefault(v, []).append(i)
        if all(_connected(g, nbrs) for g in groups.values()):
            yield [lab[r * w:(r + 1) * w] for r in range(h)]


def count_grid(h: int, w: int) -> dict[str, Any]:
    maps = answers_ladder = answers_product = zero = agree = 0
    most = 0
    by_regions: dict[str, list[int]] = {}
    for regions in partitions(h, w):
        b = Board.blank(regions)
        a = {tuple(x.rows()) for x in solve(b, limit=None).solutions}
        p = {tuple(x.rows()) for x in brute(b, limit=None, prune=False).solutions}
        maps += 1
        answers_ladder += len(a)
        answers_product += len(p)
        agree += a == p
        zero += not a
        most = max(most, len(a))
        k = str(b.region_count())
        row = by_regions.setdefault(k, [0, 0])
        row[0] += 1
        row[1] += len(a)
    return {"h": h, "w": w, "maps": maps, "answers": answers_ladder,
            "answers_product": answers_product, "maps_agree": agree, "zero": zero,
            "most": most, "by_regions": {k: {"maps": v[0], "answers": v[1]}
                                         for k, v in sorted(by_regions.items(),
                                                            key=lambda kv: int(kv[0]))}}


def ledger_data(grids: list[list[int]]) -> dict[str, Any]:
    return {f"{h}x{w}": count_grid(h, w) for h, w in grids}


def ledger(inputs: Mapping[str, Any], params: Mapping[str, Any],
           progress: Progress = no_progress) -> dict[str, Any]:
    grids = params["grids"]
    progress(0, len(grids), "ledger")
    return {"grids": ledger_data(grids)}
