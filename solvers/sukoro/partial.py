"""The check that tells wrong from unfinished: violations no filling can repair.

``irreparable(board, states)`` reads the play page's marks (0 undecided, 1 numbered,
2 excluded; cells row-major, printed clues fixed numbered) and reports only what every
way of filling the undecided cells still breaks. A numbered cell's digit is its count of
numbered neighbours, so a digit is known once every neighbour is decided. The checker
module ``templates/static/play/sukoro.js`` exports the same function as ``irreparable``.

* ``sukoro.clue``     a clue cell excluded, or (on a finished board) a clue whose count is
                      not the clue;
* ``sukoro.over``     (unfinished board) a clue that already has more numbered neighbours
                      than its value (the clue and those neighbours);
* ``sukoro.under``    (unfinished board) a clue whose numbered and undecided neighbours
                      are fewer than its value (the clue and its excluded neighbours);
* ``sukoro.equal``    two touching numbers whose digits are both known and equal;
* ``sukoro.isolated`` a numbered cell whose neighbours are all excluded;
* ``sukoro.connect``  numbered cells in parts that no undecided cell can join (the cells
                      outside the part with the most numbered cells, as ``violations``).

With nothing undecided this is exactly ``violations()`` on the answer the page reads
(digits the live counts).
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.common import Violation
from solvers.grid import connect_violations, neighbours

from .board import Board
from .rules import RULES

UNDECIDED, NUMBERED, EXCLUDED = 0, 1, 2


def irreparable(board: Board, states: Sequence[int]) -> list[Violation]:
    h, w = board.h, board.w
    n = h * w
    if len(states) != n:
        raise ValueError(f"expected {n} states, got {len(states)}")
    st = list(states)
    clues = board.flat()
    nb = neighbours(h, w)
    out: list[Violation] = []
    # a finished board reports as violations() does; before that, a clue's violation
    # names the cells that break it
    finished = UNDECIDED not in st

    def at(i: int) -> dict[str, int]:
        return {"row": i // w + 1, "col": i % w + 1}

    def cell(i: int) -> tuple[int, int]:
        return divmod(i, w)

    # a known digit: a numbered cell none of whose neighbours is undecided
    known = [0] * n
    for i in range(n):
        if st[i] == NUMBERED and all(st[j] != UNDECIDED for j in nb[i]):
            known[i] = sum(st[j] == NUMBERED for j in nb[i])
    for i, v in enumerate(clues):
        if v is None:
            continue
        if st[i] == EXCLUDED:
            out.append(RULES.make("sukoro.clue", [cell(i)], **at(i), clue=v))
            continue
        if st[i] != NUMBERED or v == "?":
            continue
        num = [j for j in nb[i] if st[j] == NUMBERED]
        und = [j for j in nb[i] if st[j] == UNDECIDED]
        if finished:
            if len(num) != v:
                out.append(RULES.make("sukoro.clue", [cell(i)], **at(i), clue=v))
        elif len(num) > v:  # type: ignore[operator]  # an int: None and "?" skipped above
            out.append(RULES.make("sukoro.over", [cell(j) for j in [i, *num]], **at(i),
                                  clue=v, count=len(num)))
        elif len(num) + len(und) < v:  # type: ignore[operator]  # an int, as above
            exc = [j for j in nb[i] if st[j] == EXCLUDED]
            out.append(RULES.make("sukoro.under", [cell(j) for j in [i, *exc]], **at(i),
                                  clue=v, most=len(num) + len(und)))
    for i in range(n):
        v = known[i]
        if not v:
            continue
        r, c = divmod(i, w)
        if c + 1 < w and known[i + 1] == v:
            out.append(RULES.make("sukoro.equal", [(r, c), (r, c + 1)], value=v,
                                  row=r + 1, col=c + 1, row2=r + 1, col2=c + 2))
        if r + 1 < h and known[i + w] == v:
            out.append(RULES.make("sukoro.equal", [(r, c), (r + 1, c)], value=v,
                                  row=r + 1, col=c + 1, row2=r + 2, col2=c + 1))
    out.extend(RULES.make("sukoro.isolated", [cell(i)], **at(i)) for i in range(n)
               if st[i] == NUMBERED and all(st[j] == EXCLUDED for j in nb[i]))
    # parts: the numbered cells of each group of not-excluded cells, in reading order of
    # their earliest numbered cell
    comp = [-1] * n
    groups: list[list[int]] = []
    for i in range(n):
        if st[i] != NUMBERED or comp[i] >= 0:
            continue
        k = len(groups)
        comp[i] = k
        stack, grp = [i], []
        while stack:
            j = stack.pop()
            if st[j] == NUMBERED:
                grp.append(j)
            for m in nb[j]:
                if comp[m] < 0 and st[m] != EXCLUDED:
                    comp[m] = k
                    stack.append(m)
        groups.append(grp)
    out += connect_violations(RULES, "sukoro.connect", [[cell(j) for j in g] for g in groups])
    return RULES.sort(out)
