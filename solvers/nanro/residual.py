"""The ladder's SAT step: Nanro as a SAT problem (python-sat), with connectivity added
lazily as cuts. ``ladder.solve`` hands it the board after the cheap rungs.

It shares no deduction with the ladder's own search. Variables: ``x_i`` (cell i is
numbered) is variable i + 1; ``L_{k,v}`` (region k holds v numbers) follows. Each region
takes exactly one label, and label v holds exactly when v of its cells are numbered
(regions with few undecided cells: every pattern of those cells written out; others: a
sequential counter over them). A printed number fixes its cell and its region's label,
a ``?`` its cell, a label hint the label; the cells and labels the cheap rungs decided
go in the same way, and each count is written over the cells left undecided (``encode``;
the same clauses serve the pure-Python ``learn.py``). No 2×2 block is all numbered; two
numbered cells that touch across a border never carry the same label. Connectivity is
added lazily, as in ``solvers.satcut`` but on bitboards: a model whose numbers fall into
several groups gets, for each group G, the cut "if a cell of G and a numbered cell
outside G are both numbered, some neighbour of G is numbered", and the solver goes on.
Implied by connectivity and written up front (it spares most cuts): when the board has
two regions or more, a numbered cell has a numbered neighbour. python-sat is imported
only when ``solve_sat`` runs.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from solvers.common import node
from solvers.satcut import SatResult, neighbours

from .board import Answer, Board

SPELL_OUT = 8     # a count over up to this many undecided cells is written out pattern by pattern
# MiniSat: lazy cuts make a board dozens of short incremental calls, which it answers in
# less time than CaDiCaL (ungraded medians, hard 16x16 / 20x20 / 30x30 and outside
# 20x20: 12.5 / 19.9 / 39.4 / 18.9 ms against 14.9 / 21.9 / 46.5 / 22.1 ms of CPU)
SOLVER = "minisat22"


def _counter(xs: list[int], top: int, cls: list[list[int]]) -> tuple[list[int], int]:
    """Sequential counter over ``xs``: literals ``r[t]`` (t = 0..len) true exactly when at
    least t of ``xs`` are true, through r_{j,t} = r_{j-1,t} or (r_{j-1,t-1} and x_j).
    ``r[0]`` is an extra variable that stands for "true". Returns (r, top)."""
    top += 1
    true = top
    cls.append([true])
    prev = [true]                       # r_{0,0} true; r_{0,t} for t > 0 false
    for j, x in enumerate(xs, 1):
        cur = [true]
        for t in range(1, j + 1):
            top += 1
            r = top
            a = prev[t] if t < len(prev) else -true
            b = prev[t - 1]
            cls.extend([[-a, r], [-b, -x, r], [-r, a, b], [-r, a, x]])
            cur.append(r)
        prev = cur
    return prev, top


def encode(board: Board, num: int = 0, blank: int = 0, dom: list[int] | None = None
           ) -> tuple[list[list[int]], int]:
    """(clauses for every rule except connectivity, variable count). ``num``/``blank``:
    cells known numbered/blank (bitmasks), ``dom``: per region the labels still possible
    (bit v), as a state the ladder's sound rungs closed has them; they go in as unit
    clauses, and every clause they already satisfy is left out (each region's count is
    written over its undecided cells alone, which shrinks its 2^s patterns most), so the
    answers are those of the bare board."""
    h, w = board.h, board.w
    n = h * w
    fr = board.flat_regions()
    k_count = board.region_count()
    cells: list[list[int]] = [[] for _ in range(k_count)]
    for i, k in enumerate(fr):
        cells[k].append(i)
    ok = [dom[k] if dom is not None else (1 << (len(cells[k]) + 1)) - 2
          for k in range(k_count)]
    for k, v in enumerate(board.labels):
        if v is not None:
            ok[k] &= 1 << v
    for i, v in enumerate(board.flat()):
        if v is not None:
            num |= 1 << i
            if isinstance(v, int):
                ok[fr[i]] &= 1 << v
    top = n
    lab: list[list[int]] = []          # lab[k][v]: variable of "region k holds v numbers"
    for k in range(k_count):
        lab.append([0] + [top + v for v in range(1, len(cells[k]) + 1)])
        top += len(cells[k])
    cls: list[list[int]] = []
    cls.extend([i + 1] for i in range(n) if num >> i & 1)
    cls.extend([-(i + 1)] for i in range(n) if blank >> i & 1)
    done = num | blank
    for k in range(k_count):
        lk = lab[k]
        ls = [lk[v] for v in range(1, len(lk)) if ok[k] >> v & 1]
        und = [i for i in cells[k] if not done >> i & 1]
        c0 = sum(num >> i & 1 for i in cells[k])
        xs = [i + 1 for i in und]
        if not ls or not xs and not ok[k] >> c0 & 1:
            return [[1], [-1]], top        # no label left: no answer (no empty clause)
        cls.extend([-lk[v]] for v in range(1, len(lk)) if not ok[k] >> v & 1)
        cls.append(ls)                                        # some label
        cls.extend([-a, -b] for j, a in enumerate(ls) for b in ls[j + 1:])  # at most one
        if not c0:
            cls.append(xs)                                    # a number in every region
        if len(und) <= SPELL_OUT:
            # this pattern of the undecided cells -> its count's label (or, when that
            # label is ruled out, not this pattern)
            for lits, c in zip(product(*[(x, -x) for x in xs]), _counts(len(xs)),
                               strict=True):
                v = c0 + c
                if v:
                    cls.append([*lits, lk[v]] if ok[k] >> v & 1 else list(lits))
        else:
            r, top = _counter(xs, top, cls)
            last = len(xs)
            for t in range(last + 1):
                v = c0 + t
                lit = lk[v] if v and ok[k] >> v & 1 else 0
                if lit:
                    if t:
                        cls.append([-lit, r[t]])
                    if t < last:
                        cls.append([-lit, -r[t + 1]])
                # exactly t of them -> label v (or not exactly t)
                c = [-r[t]] + ([r[t + 1]] if t < last else [])
                cls.append(c + [lit] if lit else c)
    nbrs = [neighbours(h, w, i) for i in range(n)]
    for i in range(n):
        if blank >> i & 1:
            continue
        r, c = divmod(i, w)
        if r + 1 < h and c + 1 < w and not blank & (0b11 << i | 0b11 << (i + w)):
            cls.append([-(i + 1), -(i + 2), -(i + w + 1), -(i + w + 2)])
        for j in nbrs[i]:
            if j > i and fr[j] != fr[i] and not blank >> j & 1:
                a, b = lab[fr[i]], lab[fr[j]]
                both = ok[fr[i]] & ok[fr[j]]
                cls.extend([-(i + 1), -(j + 1), -a[v], -b[v]]
                           for v in range(1, min(len(a), len(b))) if both >> v & 1)
        if k_count > 1 and not any(num >> j & 1 for j in nbrs[i]):
            cls.append([-(i + 1)] + [j + 1 for j in nbrs[i] if not blank >> j & 1])
    return cls, top


@lru_cache(maxsize=SPELL_OUT + 1)
def _counts(s: int) -> tuple[int, ...]:
    """The number of ones in each pattern of ``s`` bits, in ``product((0, 1))`` order."""
    return tuple(sum(bits) for bits in product((0, 1), repeat=s))


SLICE = 2000        # conflicts per solver slice: between two, an alarm or a budget can stop it


def _solve_sliced(s) -> bool:
    """``s.solve()`` in slices of ``SLICE`` conflicts, each counted as a node: the C
    solver cannot be interrupted, so --max-nodes and the CLI's time alarm act between
    slices (a fuzzed 50x50 board held one call for 7 s against a 1 s timeout)."""
    while True:
        node()
        s.conf_budget(SLICE)
        res = s.solve_limited()
        if res is not None:
            return res


@lru_cache(maxsize=8)     # bounded: one table per board size
def _byte_table(n: int) -> list[list[tuple[int, ...] | None]]:
    """Per byte of an ``n``-cell mask, per value of that byte: the variables of its cells
    (filled in as asked: a 30x30 board would build 29,000 tuples up front)."""
    return [[None] * 256 for _ in range((n + 7) // 8)]


def _variables(x: int, nbytes: int, table: list[list[tuple[int, ...] | None]]) -> list[int]:
    """The variables of the cells of mask ``x``, lowest first: a byte at a time from
    ``table`` (the cut clauses' borders hold dozens of cells, and the bit-by-bit loop
    was a fifth of this engine's Python time)."""
    out: list[int] = []
    for p, v in enumerate(x.to_bytes(nbytes, "little")):
        if v:
            row = table[p]
            got = row[v]
            if got is None:
                got = row[v] = tuple(8 * p + j + 1 for j in range(8) if v >> j & 1)
            out += got
    return out


def solve_sat(board: Board, limit: int = 2, num: int = 0, blank: int = 0,
              dom: list[int] | None = None) -> SatResult:
    """Up to ``limit`` answers of ``board`` (the numbered cells fix the answer);
    ``num``, ``blank``, ``dom``: what sound rungs already decided (see ``encode``)."""
    from pysat.solvers import Solver

    h, w = board.h, board.w
    n = h * w
    full = (1 << n) - 1
    not_first = sum(1 << i for i in range(n) if i % w)
    not_last = sum(1 << i for i in range(n) if i % w != w - 1)

    def spread(x: int) -> int:
        return (x | ((x << 1) & not_first) | ((x >> 1) & not_last) | (x << w)
                | (x >> w)) & full

    nbytes = (n + 7) // 8
    table = _byte_table(n)
    found: list[Answer] = []
    calls = cuts = 0
    with Solver(name=SOLVER, bootstrap_with=encode(board, num, blank, dom)[0]) as s:
        while len(found) < limit:
            calls += 1
            if not _solve_sliced(s):
                break
            model = s.get_model()
            on = int("".join(["1" if v > 0 else "0" for v in model[n - 1::-1]]), 2)
            parts = []
            rest = on
            while rest:
                grp = rest & -rest
                while True:
                    nxt = (grp | ((grp << 1) & not_first) | ((grp >> 1) & not_last)
                           | (grp << w) | (grp >> w)) & on
                    if nxt == grp:
                        break
                    grp = nxt
                parts.append(grp)
                rest &= ~grp
            if len(parts) > 1:
                for k, grp in enumerate(parts):
                    other = parts[(k + 1) % len(parts)]
                    clause = [-(grp & -grp).bit_length(), -(other & -other).bit_length()]
                    clause += _variables(spread(grp) & ~grp & ~blank, nbytes, table)
                    s.add_clause(clause)
                    cuts += 1
                continue
            found.append(Answer.from_flat(h, w, [on >> i & 1 for i in range(n)]))
            s.add_clause([-(i + 1) if on >> i & 1 else i + 1 for i in range(n)])
    return SatResult(found, calls, cuts)
