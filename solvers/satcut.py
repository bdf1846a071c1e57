"""The SAT loop the Canal View and Sukoro SAT engines share: lazy connectivity cuts.

Each engine encodes its rules (without connectivity) so that variable ``i + 1`` says
"cell i is shaded" (flooded, or holds a number). ``solve_with_cuts`` asks the solver for
models; when the shaded cells fall into several groups, each group G gets the cut "if a
cell of G and a shaded cell outside G are both shaded, some neighbour of G is shaded",
which every connected answer obeys; a connected model is an answer, and blocking its
shape asks for the next. Shares no code with the ladders or the second engines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pysat.solvers import Solver

SOLVER = "cadical153"


@dataclass
class SatResult:
    """Answers found (at most ``limit``), solver calls and connectivity cuts added."""

    answers: list[Any]
    calls: int
    cuts: int


def neighbours(h: int, w: int, i: int) -> list[int]:
    r, c = divmod(i, w)
    out = []
    if r > 0:
        out.append(i - w)
    if r + 1 < h:
        out.append(i + w)
    if c > 0:
        out.append(i - 1)
    if c + 1 < w:
        out.append(i + 1)
    return out


def groups(h: int, w: int, cells: set[int]) -> list[set[int]]:
    """The 4-connected groups of ``cells``, each found from its smallest cell."""
    out = []
    left = set(cells)
    while left:
        start = min(left)
        group = {start}
        todo = [start]
        while todo:
            i = todo.pop()
            for j in neighbours(h, w, i):
                if j in left and j not in group:
                    group.add(j)
                    todo.append(j)
        left -= group
        out.append(group)
    return out


def solve_with_cuts(clauses: Iterable[list[int]], h: int, w: int, limit: int,
                    decode: Callable[[list[int], set[int]], Any], *,
                    connect: bool = True) -> SatResult:
    """Up to ``limit`` answers: ``decode(model, shaded cells)`` of each connected model."""
    n = h * w
    found: list[Any] = []
    calls = cuts = 0
    with Solver(name=SOLVER, bootstrap_with=list(clauses)) as s:
        while len(found) < limit:
            calls += 1
            if not s.solve():
                break
            model = s.get_model()
            on = {i for i in range(n) if model[i] > 0}
            parts = groups(h, w, on)
            if connect and len(parts) > 1:   # (no shaded cell at all is one group)
                for k, g in enumerate(parts):
                    other = min(parts[(k + 1) % len(parts)])
                    border = {j for i in g for j in neighbours(h, w, i)} - g
                    s.add_clause([-(min(g) + 1), -(other + 1)] + [j + 1 for j in sorted(border)])
                    cuts += 1
                continue
            found.append(decode(model, on))
            s.add_clause([-(i + 1) if i in on else i + 1 for i in range(n)])
    return SatResult(found, calls, cuts)
