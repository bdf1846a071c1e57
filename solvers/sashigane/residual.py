"""The exact cover handed to a SAT solver, for the standard-rules boards the pure-Python
cover (``cover.exact``) does not finish within its share.

The same cover as ``cover.exact``: every cell (of ``target``) is covered by exactly one
of the surviving candidate Ls. Variable ``j + 1`` says "candidate ``alive[j]`` is a
piece"; each cell gets "at least one of its candidates" as a clause and "at most one" as
a sequential counter (pysat's card encoder). Each answer found is blocked (not all of
its pieces again) before the next call, so that ``limit`` answers, or all of them, come
out. A cell no candidate covers makes the cover empty at once. The solver runs in slices
of conflicts with a search node counted between them, so the solve's budget stops it.

Imported only when a board needs it. python-sat is an optional wheel: without it (or
with ``PUZZLE_NO_SAT=1``) the same cover runs on the pure-Python solver
(``solvers.cdcl``), its "at most one" written out here (``at_most_one``).
"""

from __future__ import annotations

from solvers.common import node

SOLVER = "cadical153"
SLICE = 2000        # conflicts per solver slice (between budget checks)
PAIRWISE = 6        # at most one of this many literals or fewer: every pair (fallback)


def available() -> bool:
    """Whether python-sat serves (``satcut.sat_available``: importable, and not switched
    off by ``PUZZLE_NO_SAT=1``); else ``cover`` runs on the pure-Python solver."""
    from solvers.satcut import sat_available
    return sat_available()


def cover(masks: list[int], alive: list[int], h: int, w: int, limit: int | None,
          target: int | None = None) -> tuple[list[list[int]], int]:
    """Up to ``limit`` (None: every) exact covers of the h×w cells (or of ``target``) by
    the candidates ``alive`` (indices into ``masks``): (answers as sorted index lists,
    solver calls)."""
    from solvers.satcut import solver

    sat = available()
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
            if sat:
                from pysat.card import CardEnc, EncType
                amo = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter)
                top = max(top, amo.nv)
                clauses.extend(amo.clauses)
            else:
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


def at_most_one(lits: list[int], top: int, clauses: list[list[int]]) -> int:
    """Append "at most one of ``lits``" to ``clauses``, for the pure-Python solver (where
    python-sat's card encoder is missing too): every pair for a few literals, else a
    sequential counter (``s_k``: one of the first k is true) over new variables from
    ``top`` + 1. Returns the new top."""
    if len(lits) <= PAIRWISE:
        clauses.extend([-a, -b] for j, a in enumerate(lits) for b in lits[j + 1:])
        return top
    prev = lits[0]                  # s_1 is x_1 itself
    for x in lits[1:-1]:
        top += 1
        clauses += [[-x, top], [-prev, top], [-prev, -x]]
        prev = top
    clauses.append([-prev, -lits[-1]])
    return top


def _call(s: object) -> bool:
    node()
    while True:
        s.conf_budget(SLICE)  # type: ignore[attr-defined]
        res = s.solve_limited()  # type: ignore[attr-defined]
        if res is not None:
            return bool(res)
        node()
