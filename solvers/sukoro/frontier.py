"""Answers of the empty board: a row-by-row transfer count and a row-by-row enumerator.

Both walk the grid one row at a time along its longer side (the grid is transposed so the
row is the shorter side). Once row r+1 is chosen, every cell of row r has all four
neighbours decided, so its number (its count of numbered neighbours) is known and the
rules can be checked for it: count at least one, differs from its left neighbour and from
the cell above.

``count_answers`` keeps, per state, (numbers of the previous row, component labels of the
current row); a component that leaves the frontier must be the only one and then the rest
of the grid stays blank.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache

import numpy as np


@cache
def _row_tables(w: int):
    """For each row mask: horizontal neighbour counts per cell."""
    return [tuple(((m >> (c - 1)) & 1 if c > 0 else 0)
                  + ((m >> (c + 1)) & 1 if c + 1 < w else 0) for c in range(w))
            for m in range(1 << w)]


def _degrees(w: int, prev: int, cur: int, nxt: int, cache_: dict):
    """Numbers of row ``cur`` given its neighbours, or None if a rule inside the row fails."""
    key = (prev, cur, nxt)
    got = cache_.get(key, 0)
    if got != 0:
        return got
    hdeg = _row_tables(w)[cur]
    out = []  # type: list[int]
    res = None
    ok = True
    for c in range(w):
        if cur >> c & 1:
            d = hdeg[c] + (prev >> c & 1) + (nxt >> c & 1)
            if d == 0 or (c > 0 and out[c - 1] == d):
                ok = False
                break
            out.append(d)
        else:
            out.append(0)
    if ok:
        res = tuple(out)
    cache_[key] = res
    return res


def _vert_ok(a: tuple, b: tuple) -> bool:
    # the enumeration's inner loop: all() over a generator takes about three times as long
    for x, y in zip(a, b, strict=True):  # noqa: SIM110  (see above)
        if x and x == y:
            return False
    return True


def _relabel(w: int, labels: tuple, nxt: int, cache_: dict):
    """Labels of the next row, and whether some component left the frontier.

    Returns (new_labels, closed) where closed is the number of components that did not
    reach the next row, and ``nlive`` the number of components in the new row.
    """
    key = (labels, nxt)
    got = cache_.get(key)
    if got is not None:
        return got
    parent = {}  # type: dict[tuple[str, int], tuple[str, int]]

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for lab in labels:
        if lab:
            parent[("o", lab)] = ("o", lab)
    for c in range(w):
        if nxt >> c & 1:
            parent[("n", c)] = ("n", c)
    for c in range(w):
        if nxt >> c & 1:
            if c > 0 and nxt >> (c - 1) & 1:
                a, b = find(("n", c)), find(("n", c - 1))
                if a != b:
                    parent[a] = b
            if labels[c]:
                a, b = find(("n", c)), find(("o", labels[c]))
                if a != b:
                    parent[a] = b
    roots_new = {}  # type: dict[tuple[str, int], int]
    new = []
    for c in range(w):
        if nxt >> c & 1:
            r = find(("n", c))
            if r not in roots_new:
                roots_new[r] = len(roots_new) + 1
            new.append(roots_new[r])
        else:
            new.append(0)
    old_roots = {find(("o", lab)) for lab in labels if lab}
    closed = sum(1 for r in old_roots if r not in roots_new)
    res = (tuple(new), closed, len(roots_new))
    cache_[key] = res
    return res


def _transitions(w: int, pdeg: tuple, cur: int, dcache: dict) -> list[tuple[int, tuple]]:
    """Every next row ``nxt`` that finishes row ``cur`` legally, with the numbers of row
    ``cur`` it gives: each number at least one, unequal to its left neighbour and to the
    number above it (``pdeg``). Built column by column, so that a column that already
    breaks a rule cuts off every row that would extend it."""
    hdeg = _row_tables(w)[cur]
    out: list[tuple[int, tuple]] = []
    degs = [0] * w

    def go(c: int, nxt: int) -> None:
        if c == w:
            out.append((nxt, tuple(degs)))
            return
        if not cur >> c & 1:
            degs[c] = 0
            go(c + 1, nxt)
            go(c + 1, nxt | 1 << c)
            return
        base = hdeg[c] + (1 if pdeg[c] else 0)
        for bit in (0, 1):
            d = base + bit
            if d == 0 or d == pdeg[c] or (c > 0 and degs[c - 1] == d):
                continue
            degs[c] = d
            go(c + 1, nxt | bit << c)

    go(0, 0)
    return out


def count_answers(h: int, w: int, progress=None, transpose: bool = True) -> int:
    """Number of answers of the empty h×w board (exact, by transfer over rows).

    Rows run along the shorter side unless ``transpose`` is False (then rows are w wide:
    the same count by a different set of states, a check on the transfer)."""
    if transpose and w > h:
        h, w = w, h
    zero = (0,) * w
    states: dict = defaultdict(int)
    states[(zero, zero)] = 1      # (numbers of previous row, labels of current row)
    total = 0
    dcache: dict = {}
    rcache: dict = {}
    tcache: dict = {}
    for r in range(h + 1):
        last = r == h
        new_states: dict = defaultdict(int)
        for (pdeg, labels), ways in states.items():
            cur = 0
            for c in range(w):
                if labels[c]:
                    cur |= 1 << c
            key = (pdeg, cur)
            trans = tcache.get(key)
            if trans is None:
                trans = tcache[key] = _transitions(w, pdeg, cur, dcache)
            nlab = len(set(labels) - {0})
            for nxt, deg in trans:
                if last and nxt:
                    continue
                got = rcache.get((labels, nxt))
                if got is None:
                    got = _relabel(w, labels, nxt, rcache)
                new, closed, live = got
                if closed:
                    # a finished component: valid only if it is the only one and the
                    # rest of the grid stays blank
                    if closed == 1 and live == 0 and nlab == 1:
                        total += ways
                    continue
                if cur == 0 and nxt == 0 and pdeg != zero:
                    continue
                new_states[(deg, new)] += ways
        states = new_states
        if progress:
            progress(r + 1, h + 1, f"{h}x{w} row {r}")
    return total


def enumerate_answers(h: int, w: int) -> np.ndarray:
    """Every answer of the empty h×w board, as an (N, h*w) uint8 array of values (row-major).

    Rows are in a fixed order (the order of the search), so the result is deterministic.
    """
    hdeg = _row_tables(w)
    dcache: dict = {}
    out: list[list[int]] = []
    rows: list[int] = []
    degs: list[tuple] = []
    zero = (0,) * w

    def connected(masks: list[int]) -> bool:
        full = 0
        for r, m in enumerate(masks):
            full |= m << (r * w)
        if not full:
            return False
        start = full & -full
        seen = start
        frontier = start
        left = ~0
        notleft = 0
        notright = 0
        for r in range(h):
            notleft |= 1 << (r * w)
            notright |= 1 << (r * w + w - 1)
        left = ~notleft
        right = ~notright
        while frontier:
            grow = ((frontier << 1) & left) | ((frontier >> 1) & right) | (frontier << w) \
                | (frontier >> w)
            grow &= full & ~seen
            seen |= grow
            frontier = grow
        return seen == full

    def rec(r: int) -> None:
        # rows[0..r-1] chosen; degs[0..r-2] known
        if r == h:
            prev = rows[r - 2] if r >= 2 else 0
            d = _degrees(w, prev, rows[r - 1], 0, dcache)
            if d is None or (r >= 2 and not _vert_ok(degs[r - 2], d)):
                return
            if connected(rows):
                vals = []  # type: list[int]
                for k in range(h - 1):
                    vals.extend(degs[k])
                vals.extend(d)
                out.append(vals)
            return
        for m in range(1 << w):
            if r >= 1:
                prev = rows[r - 2] if r >= 2 else 0
                d = _degrees(w, prev, rows[r - 1], m, dcache)
                if d is None or (r >= 2 and not _vert_ok(degs[r - 2], d)):
                    continue
                degs.append(d)
            rows.append(m)
            rec(r + 1)
            rows.pop()
            if r >= 1:
                degs.pop()

    del hdeg, zero
    rec(0)
    if not out:
        return np.zeros((0, h * w), dtype=np.uint8)
    return np.array(out, dtype=np.uint8)
