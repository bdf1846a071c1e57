"""The ledger stage: enumeration facts checked against published sequences, canals in
small grids counted two independent ways, and the two engines compared."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress

from .board import NO_2X2, STANDARD
from .brute import brute
from .generate import generate
from .ladder import solve

LEDGER_PARAMS = {"poly_n": [7, 8, 9, 10], "grids": ["3x3", "3x4", "4x4", "4x5"],
                 "engines": {"size": "6x6", "boards": 30, "seed": 66, "cap": 100000}}

# OEIS, used only to refuse output that disagrees with them.
A001168 = {1: 1, 2: 2, 3: 6, 4: 19, 5: 63, 6: 216, 7: 760, 8: 2725, 9: 9910, 10: 36446,
           11: 135268, 12: 505861}
A066158 = {1: 1, 2: 2, 3: 6, 4: 18, 5: 55, 6: 174, 7: 570, 8: 1908, 9: 6473, 10: 22202}


class LedgerError(AssertionError):
    """An enumeration disagrees with a published sequence or with its twin count."""


# ---------------------------------------------------------------- polyominoes ----------
def polyominoes(nmax: int) -> dict[int, dict[str, int]]:
    """Fixed polyominoes by Redelmeier's method, classified on the fly by 2x2 blocks and
    cycles (a polyomino is tree-like when its cell graph has n - 1 edges)."""
    out = {n: {"all": 0, "no2x2": 0, "tree": 0, "cycle_no2x2": 0} for n in range(1, nmax + 1)}
    # cells (x, y) with y > 0 or (y == 0 and x >= 0)
    def ok(c):
        return c[1] > 0 or (c[1] == 0 and c[0] >= 0)

    cells: set = set()
    seen: set = {(0, 0)}

    def rec(untried: list, n: int, edges: int, blocks: int) -> None:
        while untried:
            c = untried.pop()
            x, y = c
            nb = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            e = sum(1 for d in nb if d in cells)
            b = 0
            for dx in (-1, 1):
                for dy in (-1, 1):
                    if (x + dx, y) in cells and (x, y + dy) in cells and (x + dx, y + dy) in cells:
                        b += 1
            cells.add(c)
            n1, e1, b1 = n + 1, edges + e, blocks + b
            rec_out = out[n1]
            rec_out["all"] += 1
            if b1 == 0:
                rec_out["no2x2"] += 1
                if e1 != n1 - 1:
                    rec_out["cycle_no2x2"] += 1
            if e1 == n1 - 1:
                rec_out["tree"] += 1
            if n1 < nmax:
                new = [d for d in nb if ok(d) and d not in seen and d not in cells]
                for d in new:
                    seen.add(d)
                rec(untried + new, n1, e1, b1)
                for d in new:
                    seen.discard(d)
            cells.discard(c)

    rec([(0, 0)], 0, 0, 0)
    return out


# ---------------------------------------------------------------- small grids ----------
def count_subsets(h: int, w: int) -> tuple[int, int]:
    import numpy as np  # here, so that loading the puzzle to solve a board stays light
    """(connected non-empty sets, of those 2x2-free), testing all 2^hw subsets (numpy)."""
    n = h * w
    x = np.arange(1, 1 << n, dtype=np.uint64)
    col0 = sum(1 << (r * w) for r in range(h))
    colw = sum(1 << (r * w + w - 1) for r in range(h))
    nl = np.uint64(((1 << n) - 1) & ~col0)
    nr = np.uint64(((1 << n) - 1) & ~colw)
    one, wsh = np.uint64(1), np.uint64(w)
    reach = x & (~x + one)              # lowest set bit
    for _ in range(n):
        grown = reach | ((reach << one) & nl) | ((reach >> one) & nr) | (reach << wsh) \
            | (reach >> wsh)
        reach = grown & x
    connected = reach == x
    free = np.ones_like(connected)
    for r in range(h - 1):
        for c in range(w - 1):
            i = r * w + c
            b = np.uint64((1 << i) | (1 << (i + 1)) | (1 << (i + w)) | (1 << (i + w + 1)))
            free &= (x & b) != b
    return int(connected.sum()), int((connected & free).sum())


def count_grown(h: int, w: int) -> tuple[int, int]:
    """The same two counts by growing each connected set outwards from its first cell."""
    n = h * w
    nbrs = []
    for i in range(n):
        r, c = divmod(i, w)
        nbrs.append([rr * w + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                     if 0 <= rr < h and 0 <= cc < w])
    total = free = 0

    def has_block(s: int, i: int) -> bool:
        r, c = divmod(i, w)
        for rr in (r - 1, r):
            for cc in (c - 1, c):
                if 0 <= rr < h - 1 and 0 <= cc < w - 1:
                    j = rr * w + cc
                    b = (1 << j) | (1 << (j + 1)) | (1 << (j + w)) | (1 << (j + w + 1))
                    if s & b == b:
                        return True
        return False

    def rec(s: int, untried: list, forbidden: int, blocked: bool) -> None:
        nonlocal total, free
        while untried:
            v = untried.pop()
            s2 = s | (1 << v)
            b2 = blocked or has_block(s2, v)
            total += 1
            free += not b2
            new = [u for u in nbrs[v] if u > anchor and not forbidden >> u & 1]
            f2 = forbidden
            for u in new:
                f2 |= 1 << u
            rec(s2, untried + new, f2, b2)
            forbidden |= 1 << v

    for anchor in range(n):
        rec(0, [anchor], 1 << anchor, False)
    return total, free


# ---------------------------------------------------------------- the stage -----------
def run_ledger(inputs: Mapping[str, Any], params: Mapping[str, Any],
               progress: Progress) -> dict[str, Any]:
    ns = params["poly_n"]
    progress(0, 3, "polyominoes")
    poly = polyominoes(max(ns))
    rows = {}
    for n in ns:
        p = poly[n]
        if n in A001168 and p["all"] != A001168[n]:
            raise LedgerError(f"fixed polyominoes of {n} cells: counted {p['all']}, "
                              f"OEIS A001168 says {A001168[n]}")
        if n in A066158 and p["tree"] != A066158[n]:
            raise LedgerError(f"tree-like polyominoes of {n} cells: counted {p['tree']}, "
                              f"OEIS A066158 says {A066158[n]}")
        rows[str(n)] = p
    grids = {}
    for g in params["grids"]:
        progress(1, 3, f"canals in {g}")
        h, w = (int(x) for x in g.split("x"))
        a = count_subsets(h, w)
        b = count_grown(h, w)
        if a != b:
            raise LedgerError(f"{g}: subset count {a} disagrees with growth count {b}")
        grids[g] = {"connected": a[0], "canal": a[1], "share": round(a[1] / a[0], 4)}
    e = params["engines"]
    h, w = (int(x) for x in e["size"].split("x"))
    rng = random.Random(e["seed"])
    eng: dict[str, Any] = {"size": e["size"], "boards": e["boards"]}
    boards = []
    for i in range(e["boards"]):
        boards.append(generate(rng, h, w)[0])
    for name, rules in (("standard", STANDARD), ("no2x2", NO_2X2)):
        agree = disagree = nodes = answers = 0
        for i, b in enumerate(boards):
            progress(i, len(boards), f"engines {name}")
            s1 = solve(b, limit=e["cap"], rules=rules)
            s2 = brute(b, limit=e["cap"], rules=rules)
            nodes += s2.nodes
            answers += len(s2.solutions)
            if [a.mask for a in s1.solutions] == [a.mask for a in s2.solutions]:
                agree += 1
            else:
                disagree += 1
        eng[name] = {"agree": agree, "disagree": disagree, "brute_nodes": nodes,
                     "answers": answers}
    if eng["standard"]["disagree"] or eng["no2x2"]["disagree"]:
        raise LedgerError(f"the two engines disagree: {eng}")
    progress(3, 3, "done")
    return {"polyominoes": rows, "poly_n": list(ns), "grids": grids, "engines": eng,
            "oeis": {"all": "A001168", "tree": "A066158"}}
