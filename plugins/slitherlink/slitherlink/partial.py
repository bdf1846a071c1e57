"""The check that tells wrong from unfinished: violations no filling can repair.

``irreparable(board, states)`` reads the play page's marks (one per edge in the board's
edge order, which is grid.js's with the outline on: 0 undecided, 1 line, 2 no line) and
reports only what every way of filling the undecided edges still breaks:

* ``slither.branch`` / ``slither.cross``  three or four lines at a grid corner;
* ``slither.over``    a clue with more lines around it than its number;
* ``slither.under``   a clue whose lines and undecided sides are fewer than its number;
* ``slither.closed``  a closed loop with other lines outside it;
* ``slither.deadend`` a line ending at a grid corner whose other edges are all crossed.

With nothing undecided this is exactly ``violations()`` of the lines drawn. The checker
module ``static/play/slitherlink.js`` exports the same function as ``irreparable``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.common import Violation

from .board import Board, layout
from .rules import (RULES, check, corner_cells, corner_params, edge_side_cells, largest,
                    pieces)

UNDECIDED, LINE, CROSS = 0, 1, 2


def irreparable(board: Board, states: Sequence[int]) -> list[Violation]:
    h, w = board.h, board.w
    lay = layout(h, w)
    if len(states) != lay.ne:
        raise ValueError(f"expected {lay.ne} states, got {len(states)}")
    st = list(states)
    if UNDECIDED not in st:
        return check(board, st)
    out: list[Violation] = []
    for v in range(lay.nvert):
        on = sum(1 for e in lay.vertex_edges[v] if st[e] == LINE)
        free = sum(1 for e in lay.vertex_edges[v] if st[e] == UNDECIDED)
        if on == 3:
            out.append(RULES.make("slither.branch", corner_cells(h, w, v), **corner_params(w, v)))
        elif on == 4:
            out.append(RULES.make("slither.cross", corner_cells(h, w, v), **corner_params(w, v)))
        elif on == 1 and free == 0:
            out.append(RULES.make("slither.deadend", corner_cells(h, w, v),
                                  **corner_params(w, v)))
    for i, clue in enumerate(board.flat()):
        if not isinstance(clue, int):
            continue
        r, c = divmod(i, w)
        on = sum(1 for e in lay.cell_edges[i] if st[e] == LINE)
        free = sum(1 for e in lay.cell_edges[i] if st[e] == UNDECIDED)
        if on > clue:
            out.append(RULES.make("slither.over", [(r, c)], row=r + 1, col=c + 1, clue=clue,
                                  count=on))
        elif on + free < clue:
            out.append(RULES.make("slither.under", [(r, c)], row=r + 1, col=c + 1, clue=clue,
                                  most=on + free))
    ps = pieces(lay, st)
    closed = [k for k, p in enumerate(ps) if _is_cycle(lay, st, p)]
    if closed and len(ps) > 1:
        # the closed loop with the most edges (ties: the first)
        k = closed[largest([ps[j] for j in closed])]
        rest = [e for j, p in enumerate(ps) if j != k for e in p]
        out.append(RULES.make("slither.closed", edge_side_cells(lay, rest), others=len(ps) - 1))
    return RULES.sort(out)


def _is_cycle(lay, st, piece: list[int]) -> bool:
    """Every corner of the piece has exactly two of its lines."""
    verts = {v for e in piece for v in lay.edge_ends[e]}
    return all(sum(1 for e in lay.vertex_edges[v] if st[e] == LINE) == 2 for v in verts)
