"""The exact cover handed to a SAT solver, for the standard-rules boards the pure-Python
cover (``cover.exact``) does not finish within its share.

The same cover as ``cover.exact``: every cell (of ``target``) is covered by exactly one
of the surviving candidate Ls. Variable ``j + 1`` says "candidate ``alive[j]`` is a
piece"; each cell gets "at least one of its candidates" as a clause and "at most one" as
a sequential counter (pysat's card encoder). Each answer found is blocked (not all of
its pieces again) before the next call, so that ``limit`` answers, or all of them, come
out. A cell no candidate covers makes the cover empty at once. The solver runs in slices
of conflicts with a search node counted between them, so the solve's budget stops it.

Imported only when a board needs it (python-sat is an optional wheel; without it, or
with ``PUZZLE_NO_SAT=1``, the pure-Python cover goes on alone). The same clauses on the
pure-Python solver (``solvers.cdcl``) were tried and are no answer: outside 20x20-00
was not finished in 200 s of wall time; the cover alone leaves three of the five past
60 s too (CaDiCaL: under 2 s each).
"""

from __future__ import annotations

from solvers.common import node

SOLVER = "cadical153"
SLICE = 2000        # conflicts per solver slice (between budget checks)



def cover(masks: list[int], alive: list[int], h: int, w: int, limit: int | None,
          target: int | None = None) -> tuple[list[list[int]], int]:
    """Up to ``limit`` (None: every) exact covers of the h×w cells (or of ``target``) by
    the candidates ``alive`` (indices into ``masks``): (answers as sorted index lists,
    solver calls)."""
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Solver

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
        if len(lits) > 1:
            amo = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter)
            top = max(top, amo.nv)
            clauses.extend(amo.clauses)
    found: list[list[int]] = []
    calls = 0
    with Solver(name=SOLVER, bootstrap_with=clauses) as s:
        while limit is None or len(found) < limit:
            calls += 1
            if not _call(s):
                break
            model = s.get_model()
            chosen = [j for j in range(len(alive)) if model[j] > 0]
            found.append(sorted(alive[j] for j in chosen))
            s.add_clause([-(j + 1) for j in chosen])
    return found, calls


def _call(s: object) -> bool:
    node()
    while True:
        s.conf_budget(SLICE)  # type: ignore[attr-defined]
        res = s.solve_limited()  # type: ignore[attr-defined]
        if res is not None:
            return bool(res)
        node()
