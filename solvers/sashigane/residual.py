"""The exact cover handed to a SAT solver, for the standard-rules boards the pure-Python
cover (``cover.exact``) does not finish within its share.

The same cover as ``cover.exact``: every cell (of ``target``) is covered by exactly one
of the surviving candidate Ls. Variable ``j + 1`` says "candidate ``alive[j]`` is a
piece"; each cell gets "at least one of its candidates" as a clause and "at most one" as
a sequential counter (``at_most_one``, pysat's). Each answer found is blocked (not all of
its pieces again) before the next call, so that ``limit`` answers, or all of them, come
out. A cell no candidate covers makes the cover empty at once. The solver runs in slices
of conflicts with a search node counted between them, so the solve's budget stops it.

Imported only when a board needs it. The solver is ``satcut.solver``'s: CaDiCaL
through python-sat where it serves, else (not installed, under Pyodide, or
``PUZZLE_NO_SAT=1``) the pure-Python ``solvers.cdcl`` on the same clauses, which decides
the outside 20×20 and 30×30 boards in seconds to tens of seconds where the cover alone
left three of the five 20×20 past 60 s (CaDiCaL: about a second each).
"""

from __future__ import annotations

from solvers.common import node
from solvers.satcut import solver

SOLVER = "cadical153"
SLICE = 2000        # conflicts per solver slice (between budget checks)



def cover(masks: list[int], alive: list[int], h: int, w: int, limit: int | None,
          target: int | None = None) -> tuple[list[list[int]], int]:
    """Up to ``limit`` (None: every) exact covers of the h×w cells (or of ``target``) by
    the candidates ``alive`` (indices into ``masks``): (answers as sorted index lists,
    solver calls)."""
    goal = (1 << (h * w)) - 1 if target is None else target
    through: list[list[int]] = [[] for _ in range(h * w)]
    for j, i in enumerate(alive):
        m = masks[i]
        while m:
            low = m & -m
            m ^= low
            through[low.bit_length() - 1].append(j + 1)
    clauses: list[list[int]] = []
    top = len(alive)
    for c in range(h * w):
        if not goal >> c & 1:
            continue
        lits = through[c]
        if not lits:
            return [], 0
        clauses.append(lits)
        top = at_most_one(lits, top, clauses)
    found: list[list[int]] = []
    calls = 0
    with solver(SOLVER, clauses) as s:
        while limit is None or len(found) < limit:
            calls += 1
            if not _call(s):
                break
            model = s.get_model()
            chosen = [j for j in range(len(alive)) if model[j] > 0]
            found.append(sorted(alive[j] for j in chosen))
            s.add_clause([-(j + 1) for j in chosen])
    return found, calls


def at_most_one(lits: list[int], top: int, out: list[list[int]]) -> int:
    """Append to ``out`` a sequential counter saying at most one of ``lits`` is true
    (new variables from ``top + 1``: s_k "one of the first k is true"); returns the new
    top. The clauses and numbering of pysat's ``CardEnc.atmost(..., 1, seqcounter)``,
    so that CaDiCaL sees the same formula as before and the pure-Python solver the
    same one as CaDiCaL."""
    n = len(lits)
    if n == 2:
        out.append([-lits[0], -lits[1]])
    if n <= 2:
        return top
    s = [0] + list(range(top + 1, top + n))      # s[1] .. s[n-1]
    out.append([-lits[0], s[1]])
    for i in range(2, n):
        x = lits[i - 1]
        out.extend(([-s[i - 1], s[i]], [-x, -s[i - 1]], [-x, s[i]]))
    out.append([-lits[n - 1], -s[n - 1]])
    return top + n - 1


def _call(s: object) -> bool:
    node()
    while True:
        s.conf_budget(SLICE)  # type: ignore[attr-defined]
        res = s.solve_limited()  # type: ignore[attr-defined]
        if res is not None:
            return bool(res)
        node()
