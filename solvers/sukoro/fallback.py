"""Sukoro's SAT step without python-sat: the same clauses on the pure-Python solver.

Where python-sat is missing (the solve page under Pyodide, a bare install) or switched
off (``PUZZLE_NO_SAT=1``, ``satcut.sat_available``), the ladder's plain search is what
is left below the rungs, and it did not finish three of the four outside 30x30 boards
within 60 s. ``Residual`` here is ``residual.Residual`` (the same encoding, cuts and
blocking clauses) with its solver taken from ``satcut.solver``, so that without
python-sat it runs on ``solvers.cdcl`` (outside 30x30: 2.0-10.1 s of CPU).

The ladder takes it through one line in ``ladder._below`` (owned elsewhere; see the
hand-over note): the residual class chosen as ``residual.Residual`` where
``residual.available()``, else this one.
"""

from __future__ import annotations

from solvers.satcut import solver

from . import residual
from .search import State


class Residual(residual.Residual):
    """``residual.Residual`` on whichever solver ``satcut.solver`` gives."""

    def solve(self, limit: int) -> list[State]:
        g, st = self.g, self.st
        cls, var, val = self._encode()
        b = st[0]
        p = st[1] | st[2] | st[3] | st[4]
        sure = p & ~b
        cells = list(var)
        found: list[State] = []
        if any(not c for c in cls):
            return found
        top = max([*var.values(), *val.values()], default=0)
        with solver(residual.SOLVER, cls) as s:
            while len(found) < limit:
                if not self._call(s):
                    break
                model = s.get_model()
                # a variable in no clause is left out of the model: false
                model += [-v for v in range(len(model) + 1, top + 1)]
                on = sure
                for i, v in var.items():
                    if model[v - 1] > 0:
                        on |= 1 << i
                if self.connect and on:
                    parts = residual._groups(g, on)
                    if len(parts) > 1:
                        self._cut(s, parts, on, sure, var)
                        continue
                found.append(self._state(on, model, val))
                if not cells:
                    break
                s.add_clause([-var[i] if on >> i & 1 else var[i] for i in cells])
        return found
