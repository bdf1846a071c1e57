"""The ledger stage: enumeration facts checked against published sequences, canals in
small grids counted two independent ways, and the two engines compared."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.grid import neighbours, parse_size

from .board import NO_2X2, STANDARD
from .brute import brute
from .generate import generate
from .ladder import solve

# OEIS, used only to refuse output that disagrees with them.
A001168 = {1: 1, 2: 2, 3: 6, 4: 19, 5: 63, 6: 216, 7: 760, 8: 2725, 9: 9910, 10: 36446,
           11: 135268, 12: 505861}
A066158 = {1: 1, 2: 2, 3: 6, 4: 18, 5: 55, 6: 174, 7: 570, 8: 1908, 9: 6473, 10: 22202}
# free tree-like polyominoes (classes under rotation and reflection)
A131482 = {1: 1, 2: 1, 3: 2, 4: 4, 5: 11, 6: 27, 7: 83, 8: 255, 9: 847, 10: 2829, 11: 9734,
           12: 33724}


class LedgerError(AssertionError):
    """An enumeration disagrees with a published sequence or with its twin count."""


# ---------------------------------------------------------------- polyominoes ----------
def free_key(cells: Iterable[tuple[int, int]]) -> list[int]:
    """The same key for a polyomino and every rotation, reflection and translation of it:
    the least, over the eight symmetries, of its sorted cells after translation."""
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    nx = [-x for x in xs]
    ny = [-y for y in ys]
    best: list[int] | None = None
    for us, vs in ((xs, ys), (xs, ny), (nx, ys), (nx, ny), (ys, xs), (ys, nx), (ny, xs),
                   (ny, nx)):
        mu = min(us)
        mv = min(vs)
        key = sorted((u - mu) * 64 + v - mv for u, v in zip(us, vs, strict=True))
        if best is None or key < best:
            best = key
    return best  # type: ignore[return-value]  # set: the loop runs eight times


def polyominoes(nmax: int, free_trees_from: int | None = None) -> dict[int, dict[str, int]]:
    """Fixed polyominoes by Redelmeier's method, classified on the fly by 2x2 blocks and
    cycles (a polyomino is tree-like when its cell graph has n - 1 edges). From
    ``free_trees_from`` cells on, also the free tree-like ones (``free_tree``: classes under
    rotation and reflection, counted by a canonical key)."""
    out = {n: {"all": 0, "no2x2": 0, "tree": 0, "cycle_no2x2": 0} for n in range(1, nmax + 1)}
    free: dict[int, set] = {n: set() for n in range(free_trees_from or nmax + 1, nmax + 1)}
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
                if n1 in free:
                    free[n1].add(tuple(free_key(cells)))
            if n1 < nmax:
                new = [d for d in nb if ok(d) and d not in seen and d not in cells]
                for d in new:
                    seen.add(d)
                rec(untried + new, n1, e1, b1)
                for d in new:
                    seen.discard(d)
            cells.discard(c)

    rec([(0, 0)], 0, 0, 0)
    for n, keys in free.items():
        out[n]["free_tree"] = len(keys)
    return out


# ---------------------------------------------------------------- small grids ----------
def count_subsets(h: int, w: int, chunk_bits: int = 22) -> tuple[int, int]:
    """(connected non-empty sets, of those 2x2-free), testing all 2^hw subsets (numpy, in
    chunks of 2^chunk_bits subsets so that 5x5 fits in memory)."""
    import numpy as np  # here, so that loading the puzzle to solve a board stays light

    n = h * w
    col0 = sum(1 << (r * w) for r in range(h))
    colw = sum(1 << (r * w + w - 1) for r in range(h))
    nl = np.uint64(((1 << n) - 1) & ~col0)
    nr = np.uint64(((1 << n) - 1) & ~colw)
    one, wsh = np.uint64(1), np.uint64(w)
    blocks = []
    for r in range(h - 1):
        for c in range(w - 1):
            i = r * w + c
            blocks.append(np.uint64((1 << i) | (1 << (i + 1)) | (1 << (i + w))
                                    | (1 << (i + w + 1))))
    step = 1 << min(chunk_bits, n)
    connected_total = free_total = 0
    for lo in range(0, 1 << n, step):
        x = np.arange(max(lo, 1), lo + step, dtype=np.uint64)
        reach = x & (~x + one)              # lowest set bit
        while True:
            grown = (reach | ((reach << one) & nl) | ((reach >> one) & nr) | (reach << wsh)
                     | (reach >> wsh)) & x
            if np.array_equal(grown, reach):
                break
            reach = grown
        connected = reach == x
        free = connected.copy()
        for b in blocks:
            free &= (x & b) != b
        connected_total += int(connected.sum())
        free_total += int(free.sum())
    return connected_total, free_total


def count_grown(h: int, w: int) -> tuple[int, int]:
    """The same two counts by growing each connected set outwards from its first cell."""
    n = h * w
    nbrs = neighbours(h, w)     # any order: each connected set is grown exactly once
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
def ledger_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The polyomino enumeration, one chunk per grid, one per rule set of the engines."""
    grids = list(params["grids"]) + list(params.get("grids_beyond", []))
    return ([{"key": "polyominoes"}] + [{"key": f"grid/{g}", "grid": g} for g in grids]
            + [{"key": f"engines/{name}", "rules": name} for name in ("standard", "no2x2")])


def ledger_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
               progress: Progress = no_progress) -> Any:
    key = chunk["key"]
    if key == "polyominoes":
        ns = list(params["poly_n"])
        beyond = list(params.get("poly_beyond", []))
        poly = polyominoes(max(ns + beyond), free_trees_from=min(beyond) if beyond else None)
        return {str(n): poly[n] for n in ns + beyond}
    if key.startswith("grid/"):
        g = chunk["grid"]
        h, w = parse_size(g)
        a = count_subsets(h, w)
        b = count_grown(h, w)  # type: object  # a tuple here, a Board below
        if a != b:
            raise LedgerError(f"{g}: subset count {a} disagrees with growth count {b}")
        return {"connected": a[0], "canal": a[1], "share": round(a[1] / a[0], 4)}
    e = params["engines"]
    h, w = parse_size(e["size"])
    rng = random.Random(e["seed"])
    boards = [generate(h, w, rng)[0] for _ in range(e["boards"])]
    rules = {"standard": STANDARD, "no2x2": NO_2X2}[chunk["rules"]]
    agree = disagree = nodes = answers = 0
    for b in boards:
        s1 = solve(b, limit=e["cap"], rules=rules)
        s2 = brute(b, limit=e["cap"], rules=rules)
        nodes += s2.nodes
        answers += len(s2.solutions)
        if [a.mask for a in s1.solutions] == [a.mask for a in s2.solutions]:
            agree += 1
        else:
            disagree += 1
    return {"agree": agree, "disagree": disagree, "brute_nodes": nodes, "answers": answers}


def ledger_reduce(partials: list[Any], inputs: Mapping[str, Any],
                  params: Mapping[str, Any]) -> dict[str, Any]:
    got = {c["key"]: p for c, p in zip(ledger_chunks(inputs, params), partials, strict=True)}
    ns = list(params["poly_n"])
    beyond = list(params.get("poly_beyond", []))
    rows = {}
    for n in ns + beyond:
        p = got["polyominoes"][str(n)]
        if n in A001168 and p["all"] != A001168[n]:
            raise LedgerError(f"fixed polyominoes of {n} cells: counted {p['all']}, "
                              f"OEIS A001168 says {A001168[n]}")
        if n in A066158 and p["tree"] != A066158[n]:
            raise LedgerError(f"tree-like polyominoes of {n} cells: counted {p['tree']}, "
                              f"OEIS A066158 says {A066158[n]}")
        if "free_tree" in p and n in A131482 and p["free_tree"] != A131482[n]:
            raise LedgerError(f"free tree-like polyominoes of {n} cells: counted "
                              f"{p['free_tree']}, OEIS A131482 says {A131482[n]}")
        rows[str(n)] = p
    e = params["engines"]
    eng: dict[str, Any] = {"size": e["size"], "boards": e["boards"],
                           "standard": got["engines/standard"], "no2x2": got["engines/no2x2"]}
    if eng["standard"]["disagree"] or eng["no2x2"]["disagree"]:
        raise LedgerError(f"the two engines disagree: {eng}")
    return {"polyominoes": rows, "poly_n": ns, "poly_beyond": beyond,
            "grids": {g: got[f"grid/{g}"] for g in params["grids"]},
            "grids_beyond": {g: got[f"grid/{g}"] for g in params.get("grids_beyond", [])},
            "oeis": {"all": "A001168", "tree": "A066158", "free_tree": "A131482"},
            "checked": {"all": [n for n in ns + beyond if n in A001168],
                        "tree": [n for n in ns + beyond if n in A066158],
                        "free_tree": [n for n in beyond if n in A131482]},
            "engines": eng}


def run_ledger(inputs: Mapping[str, Any], params: Mapping[str, Any],
               progress: Progress = no_progress) -> dict[str, Any]:
    """The whole ledger in this process (the pipeline runs it chunk by chunk)."""
    chunks = ledger_chunks(inputs, params)
    partials = []
    for i, c in enumerate(chunks):
        partials.append(ledger_map(c, inputs, params))
        progress(i + 1, len(chunks), c["key"])
    return ledger_reduce(partials, inputs, params)
