"""The ladder's last step: what the rungs left open, handed to a SAT solver.

One variable per edge (``e + 1``: edge e is a line); the edges the rungs decided are
units. A clue's four sides and a grid corner's edges forbid every way with the wrong
count (a corner: 1, 3 or 4 lines), and one clause asks for some line. Connectivity is
cut lazily: each model's lines are loops; a loop C that is not the whole answer gets
the clause "not every edge of C" (a single loop holding every edge of C is C itself),
and a model that is one loop is an answer, blocked by the same clause to ask for the
next. MiniSat (python-sat) answers the many short incremental calls fastest; without
python-sat, the pure-Python solver of ``solvers.satcut`` serves.
"""

from __future__ import annotations

from itertools import product

from solvers.common import node
from solvers.satcut import solver

from .board import Answer, layout

SOLVER = "minisat22"


def _forbid(vars_: tuple[int, ...], bad: tuple[int, ...]) -> list[list[int]]:
    out = []
    for bits in product((0, 1), repeat=len(vars_)):
        if sum(bits) in bad:
            out.append([-v if b else v for v, b in zip(vars_, bits, strict=True)])
    return out


def clauses(h: int, w: int, clue: list[int], state: bytes | bytearray) -> list[list[int]]:
    lay = layout(h, w)
    cls: list[list[int]] = []
    for i, k in enumerate(clue):
        if k >= 0:
            vs = tuple(e + 1 for e in lay.cell_edges[i])
            cls += _forbid(vs, tuple(n for n in range(5) if n != k))
    for es in lay.vertex_edges:
        cls += _forbid(tuple(e + 1 for e in es), (1, 3, 4))
    cls.append([e + 1 for e in range(lay.ne)])
    for e, x in enumerate(state):
        if x == 1:
            cls.append([e + 1])
        elif x == 2:
            cls.append([-(e + 1)])
    return cls


def loops(lay, on: list[int]) -> list[list[int]]:
    """The connected pieces of the lines ``on`` (a model's: every one a loop)."""
    onset = set(on)
    seen: set[int] = set()
    out = []
    for e0 in on:
        if e0 in seen:
            continue
        seen.add(e0)
        stack, comp = [e0], []
        while stack:
            e = stack.pop()
            comp.append(e)
            for v in lay.edge_ends[e]:
                for f in lay.vertex_edges[v]:
                    if f in onset and f not in seen:
                        seen.add(f)
                        stack.append(f)
        out.append(comp)
    return out


def solve_residual(h: int, w: int, clue: list[int], state: bytes | bytearray,
                   limit: int, counter: list[int]) -> list[Answer]:
    """Up to ``limit`` answers that extend the rungs' ``state``."""
    lay = layout(h, w)
    found: list[Answer] = []
    seen: set[tuple[int, ...]] = set()
    with solver(SOLVER, clauses(h, w, clue, state)) as s:
        while len(found) < limit:
            node()
            counter[0] += 1
            if not s.solve():
                break
            model = s.get_model()
            on = [e for e in range(lay.ne) if model[e] > 0]
            comps = loops(lay, on)
            for comp in comps:
                comp.sort()
                if len(comps) == 1 or _alone(lay, clue, state, comp):
                    key = tuple(comp)
                    if key not in seen:
                        seen.add(key)
                        found.append(Answer.from_edges(h, w, comp))
                s.add_clause([-(e + 1) for e in comp])
    return found[:limit]


def _alone(lay, clue: list[int], state, comp: list[int]) -> bool:
    """Whether the loop ``comp`` by itself is an answer."""
    on = set(comp)
    if any(x == 1 and e not in on for e, x in enumerate(state)):
        return False
    return all(k < 0 or sum(1 for e in lay.cell_edges[i] if e in on) == k
               for i, k in enumerate(clue))
