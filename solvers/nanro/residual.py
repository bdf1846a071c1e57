"""The ladder's SAT step: Nanro as a SAT problem (python-sat), with connectivity added
lazily as cuts. ``ladder.solve`` hands it the board after the cheap rungs.

It shares no deduction with the ladder's own search. Variables: ``x_i`` (cell i is
numbered) is variable i + 1; ``L_{k,v}`` (region k holds v numbers) follows. Each region
takes exactly one label, and label v holds exactly when v of its cells are numbered
(small regions: every pattern of its cells written out; large ones: a cardinality
encoding switched on by the label). A printed number fixes its cell and its region's
label, a ``?`` its cell, a label hint the label. No 2×2 block is all numbered; two
numbered cells that touch across a border never carry the same label. Connectivity is
added lazily, as in ``solvers.satcut`` but on bitboards: a model whose numbers fall into
several groups gets, for each group G, the cut "if a cell of G and a numbered cell
outside G are both numbered, some neighbour of G is numbered", and the solver goes on.
Implied by connectivity and written up front (it spares most cuts): when the board has
two regions or more, a numbered cell has a numbered neighbour. Imported lazily (pysat is
needed only when this engine runs).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from solvers.common import node
from solvers.satcut import SatResult, neighbours

from .board import Answer, Board

SPELL_OUT = 8     # regions up to this size get every pattern of their cells written out
# MiniSat: lazy cuts make a board dozens of short incremental calls, which it answers in
# less time than CaDiCaL (ungraded medians, hard 16x16 / 20x20 / 30x30 and outside
# 20x20: 12.5 / 19.9 / 39.4 / 18.9 ms against 14.9 / 21.9 / 46.5 / 22.1 ms of CPU)
SOLVER = "minisat22"


def encode(board: Board) -> list[list[int]]:
    """Clauses for every rule except connectivity."""
    h, w = board.h, board.w
    n = h * w
    fr = board.flat_regions()
    k_count = board.region_count()
    cells: list[list[int]] = [[] for _ in range(k_count)]
    for i, k in enumerate(fr):
        cells[k].append(i)
    top = n
    lab: list[list[int]] = []          # lab[k][v]: variable of "region k holds v numbers"
    for k in range(k_count):
        lab.append([0] + [top + v for v in range(1, len(cells[k]) + 1)])
        top += len(cells[k])
    cls: list[list[int]] = []
    for k in range(k_count):
        cs, ls = cells[k], lab[k][1:]
        s = len(cs)
        cls.append(list(ls))                                  # some label
        cls.extend([-ls[a], -ls[b]] for a in range(len(ls))
                   for b in range(a + 1, len(ls)))            # at most one label
        cls.append([i + 1 for i in cs])                       # a number in every region
        if s <= SPELL_OUT:
            # this pattern of numbers -> label c (c: the pattern's numbered cells, its
            # negative literals)
            lk = lab[k]
            for lits, c in zip(product(*[(i + 1, -(i + 1)) for i in cs]), _counts(s),
                               strict=True):
                if c:
                    cls.append([*lits, lk[c]])
        else:
            from pysat.card import CardEnc, EncType
            for v in range(1, s + 1):
                enc = CardEnc.equals(lits=[i + 1 for i in cs], bound=v, top_id=top,
                                     encoding=EncType.seqcounter)
                top = max(top, enc.nv)
                cls.extend([-lab[k][v]] + c for c in enc.clauses)
    nbrs = [neighbours(h, w, i) for i in range(n)]
    for i in range(n):
        r, c = divmod(i, w)
        if r + 1 < h and c + 1 < w:
            cls.append([-(i + 1), -(i + 2), -(i + w + 1), -(i + w + 2)])
        for j in nbrs[i]:
            if j > i and fr[j] != fr[i]:
                a, b = lab[fr[i]], lab[fr[j]]
                cls.extend([-(i + 1), -(j + 1), -a[v], -b[v]]
                           for v in range(1, min(len(a), len(b))))
    if k_count > 1:
        cls.extend([-(i + 1)] + [j + 1 for j in nbrs[i]] for i in range(n))
    for i, v in enumerate(board.flat()):
        if v is None:
            continue
        cls.append([i + 1])
        if v != "?":
            cls.append([lab[fr[i]][v]])
    for k, v in enumerate(board.labels):
        if v is not None:
            cls.append([lab[k][v]])
    return cls


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


def solve_sat(board: Board, limit: int = 2) -> SatResult:
    """Up to ``limit`` answers of ``board`` (the numbered cells fix the answer)."""
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
    with Solver(name=SOLVER, bootstrap_with=encode(board)) as s:
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
                    clause += _variables(spread(grp) & ~grp, nbytes, table)
                    s.add_clause(clause)
                    cuts += 1
                continue
            found.append(Answer.from_flat(h, w, [on >> i & 1 for i in range(n)]))
            s.add_clause([-(i + 1) if on >> i & 1 else i + 1 for i in range(n)])
    return SatResult(found, calls, cuts)
