"""Nanro as a SAT problem (python-sat), with connectivity added lazily as cuts.

An engine of its own beside the ladder's search: it shares no deduction with it.
Variables: ``x_i`` (cell i is numbered) is variable i + 1; ``L_{k,v}`` (region k holds
v numbers) follows. Each region takes exactly one label, and label v holds exactly when v
of its cells are numbered (small regions: every pattern of its cells written out; large
ones: a cardinality encoding switched on by the label). A printed number fixes its cell
and its region's label, a ``?`` its cell, a label hint the label. No 2×2 block is all
numbered; two numbered cells that touch across a border never carry the same label.
Connectivity comes from ``solvers.satcut``: a model whose numbers fall into several
groups gets one cut per group, and the search goes on. Imported lazily (pysat is needed
only when this engine runs).
"""

from __future__ import annotations

from itertools import product

from solvers.satcut import SatResult, neighbours, solve_with_cuts

from .board import Answer, Board

SPELL_OUT = 8     # regions up to this size get every pattern of their cells written out


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
        for a in range(len(ls)):
            for b in range(a + 1, len(ls)):
                cls.append([-ls[a], -ls[b]])                  # at most one label
        cls.append([i + 1 for i in cs])                       # a number in every region
        if s <= SPELL_OUT:
            for bits in product((0, 1), repeat=s):
                c = sum(bits)
                if c:                  # this pattern of numbers -> label c
                    cls.append([-(i + 1) if b else i + 1 for i, b in zip(cs, bits)]
                               + [lab[k][c]])
        else:
            from pysat.card import CardEnc, EncType
            for v in range(1, s + 1):
                enc = CardEnc.equals(lits=[i + 1 for i in cs], bound=v, top_id=top,
                                     encoding=EncType.seqcounter)
                top = max(top, enc.nv)
                cls.extend([-lab[k][v]] + c for c in enc.clauses)
    for i in range(n):
        r, c = divmod(i, w)
        if r + 1 < h and c + 1 < w:
            cls.append([-(i + 1), -(i + 2), -(i + w + 1), -(i + w + 2)])
        for j in neighbours(h, w, i):
            if j > i and fr[j] != fr[i]:
                a, b = lab[fr[i]], lab[fr[j]]
                for v in range(1, min(len(a), len(b))):
                    cls.append([-(i + 1), -(j + 1), -a[v], -b[v]])
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


def solve_sat(board: Board, limit: int = 2) -> SatResult:
    """Up to ``limit`` answers of ``board`` (the numbered cells fix the answer)."""
    h, w = board.h, board.w

    def answer(model: list[int], on: set[int]) -> Answer:
        return Answer.from_flat(h, w, [i in on for i in range(h * w)])

    return solve_with_cuts(encode(board), h, w, limit, answer)
