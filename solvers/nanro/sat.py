"""An independent engine for the confirm stage: Nanro as a SAT problem (python-sat), with
connectivity added lazily as cuts.

It shares no code with the ladder, its SAT step (``residual.py``), its pure-Python stand-in
(``learn.py``) or the region product (``brute.py``), and it is written another way than
``residual.py``. Variables: ``x_i`` (cell i is numbered, variable i + 1); per region a
unary count built by a totalizer of its own (``u_t``: at least t of the region's cells are
numbered, both directions); a one-hot label ``L_v`` tied to the count (``L_v`` exactly
when ``u_v`` and not ``u_{v+1}``), v from 1, so every region holds a number; per cell and
value ``c_{i,v}`` (cell i is numbered and its region's label is v). No 2×2 block is all
numbered; two cells side by side in different regions never both carry the same value. A
printed number fixes its cell and its region's label, a ``?`` its cell, a label hint the
label. Connectivity is the shared lazy-cut loop (``solvers.satcut.solve_with_cuts``, which
the ladder does not use).
"""

from __future__ import annotations

from pysat.formula import IDPool

from solvers.satcut import SatResult, solve_with_cuts

from .board import Answer, Board


def _totalizer(lits: list[int], pool: IDPool, cls: list[list[int]], tag: tuple) -> list[int]:
    """Unary count of ``lits``: out[t - 1] true exactly when at least t of them are."""
    if len(lits) == 1:
        return list(lits)
    mid = len(lits) // 2
    a = _totalizer(lits[:mid], pool, cls, (*tag, 0))
    b = _totalizer(lits[mid:], pool, cls, (*tag, 1))
    p, q = len(a), len(b)
    out = [pool.id(("u", tag, t)) for t in range(1, p + q + 1)]
    for i in range(p + 1):
        for j in range(q + 1):
            if i + j >= 1:          # at least i in a and j in b: at least i + j
                cls.append(([-a[i - 1]] if i else []) + ([-b[j - 1]] if j else [])
                           + [out[i + j - 1]])
            if i + j < p + q:       # at most i in a and j in b: at most i + j
                cls.append(([a[i]] if i < p else []) + ([b[j]] if j < q else [])
                           + [-out[i + j]])
    return out


def encode(board: Board) -> list[list[int]]:
    """Clauses for every rule except connectivity."""
    h, w = board.h, board.w
    n = h * w
    pool = IDPool(start_from=n + 1)
    members: dict[int, list[int]] = {}
    for i, k in enumerate(board.flat_regions()):
        members.setdefault(k, []).append(i)
    cls: list[list[int]] = []
    label: dict[tuple[int, int], int] = {}
    for k, cells in sorted(members.items()):
        count = _totalizer([i + 1 for i in cells], pool, cls, (k,))
        s = len(cells)
        ls = [pool.id(("L", k, v)) for v in range(1, s + 1)]
        cls.append(ls)
        for a in range(s):
            label[k, a + 1] = ls[a]
            cls.extend([-ls[a], -ls[b]] for b in range(a + 1, s))
            # L_v <-> u_v and not u_{v+1}
            cls.append([-ls[a], count[a]])
            if a + 1 < s:
                cls.append([-ls[a], -count[a + 1]])
                cls.append([-count[a], count[a + 1], ls[a]])
            else:
                cls.append([-count[a], ls[a]])
    fr = board.flat_regions()
    cvar: dict[tuple[int, int], int] = {}

    def value(i: int, v: int) -> int:
        """``c_{i,v}``: cell i numbered and its region's label v."""
        c = cvar.get((i, v))
        if c is None:
            c = cvar[i, v] = pool.id(("c", i, v))
            lv = label[fr[i], v]
            cls.extend([[-c, i + 1], [-c, lv], [c, -(i + 1), -lv]])
        return c

    for r in range(h):
        for c in range(w):
            i = r * w + c
            if r + 1 < h and c + 1 < w:
                cls.append([-(i + 1), -(i + 2), -(i + w + 1), -(i + w + 2)])
            for j in ([i + 1] if c + 1 < w else []) + ([i + w] if r + 1 < h else []):
                if fr[i] != fr[j]:
                    top = min(len(members[fr[i]]), len(members[fr[j]]))
                    cls.extend([-value(i, v), -value(j, v)] for v in range(1, top + 1))
    for i, clue in enumerate(board.flat()):
        if clue is None:
            continue
        cls.append([i + 1])
        if isinstance(clue, int):
            cls.append([label[fr[i], clue]])
    for k, hint in enumerate(board.labels):
        if hint is not None:
            cls.append([label[k, hint]])
    return cls


def solve_sat(board: Board, limit: int = 2) -> SatResult:
    """Up to ``limit`` answers of ``board`` (the numbered cells fix the answer)."""
    h, w = board.h, board.w
    return solve_with_cuts(encode(board), h, w, limit, lambda model, on: Answer.from_flat(
        h, w, [i in on for i in range(h * w)]))


def confirm(board: Board, answer: Answer) -> bool:
    """Is ``answer`` the one and only answer of ``board``, by the SAT engine alone?"""
    res = solve_sat(board, limit=2)
    return len(res.answers) == 1 and res.answers[0] == answer
