"""The SAT loop the Canal View and Sukoro SAT engines share: lazy connectivity cuts.

Each engine encodes its rules (without connectivity) so that variable ``i + 1`` says
"cell i is shaded" (flooded, or holds a number). ``solve_with_cuts`` asks the solver for
models; when the shaded cells fall into several groups, each group G gets the cut "if a
cell of G and a shaded cell outside G are both shaded, some neighbour of G is shaded",
which every connected answer obeys; a connected model is an answer, and blocking its
shape asks for the next. Shares no code with the ladders or the second engines.

Also the one switch every puzzle asks whether python-sat is there (``sat_available``),
and the solver a residual engine gets (``solver``): CaDiCaL through python-sat, else the
pure-Python ``solvers.cdcl.Solver`` with the same calls.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

SOLVER = "cadical153"
# the switch that plays python-sat missing (read at each call, so that a test or a
# benchmark can set it late): every puzzle's engines then run as under Pyodide
NO_SAT_ENV = "PUZZLE_NO_SAT"
_importable: bool | None = None     # whether python-sat imports (asked once)


def sat_available() -> bool:
    """Whether python-sat can serve: importable and not switched off by
    ``PUZZLE_NO_SAT=1``. The one place every puzzle decides it."""
    global _importable
    if os.environ.get(NO_SAT_ENV, "") not in ("", "0"):
        return False
    if _importable is None:
        try:
            import pysat.card
            import pysat.solvers  # noqa: F401
        except ImportError:
            _importable = False
        else:
            _importable = True
    return _importable


def solver(name: str, clauses: Iterable[list[int]]) -> Any:
    """A SAT solver holding ``clauses``, for ``with``: python-sat's ``name`` where
    ``sat_available``, else the pure-Python one (``solvers.cdcl``)."""
    if sat_available():
        from pysat.solvers import Solver
        return Solver(name=name, bootstrap_with=clauses)
    from solvers.cdcl import Solver as Fallback
    return Fallback(name="cdcl", bootstrap_with=clauses)


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
    from pysat.solvers import Solver

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
